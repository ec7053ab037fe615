"""/metrics scraped after real requests: per-route counts and latencies, turn phases,
revisions and Neo4j errors, in the Prometheus text format."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from app.api.app import create_app
from app.config import Settings
from app.errors import GraphError
from app.graph.client import GraphClient


def _scrape(client: TestClient) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    samples = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            samples[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return samples


def _value(
    samples: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str
) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


async def test_metrics_show_the_requests_turns_revisions_and_errors_just_made(
    client: TestClient, test_graph: GraphClient, agent_id: str
) -> None:
    before = _scrape(client)
    agent = client.post("/v1/agents", json={"name": "Metered"}).json()["id"]
    belief = client.post(
        f"/v1/agents/{agent}/beliefs",
        json={"statement": "Invoices are paid within 30 days", "category": "contextual"},
    ).json()["id"]
    for number in range(5):  # the fifth contradiction takes the tension past 0.7: a revision
        response = client.post(
            f"/v1/agents/{agent}/beliefs/{belief}/evidence",
            json={"text": f"Paid after 45 days ({number})", "stance": "contradicting"},
        )
        assert response.status_code == 200, response.text
    assert client.get(f"/v1/agents/{agent}/beliefs/missing-belief").status_code == 404
    turn = client.post(f"/v1/agents/{agent}/chat", json={"message": "How do invoices get paid?"})
    assert turn.status_code == 200, turn.text
    with pytest.raises(GraphError):
        await test_graph.write("probe/create_then_fail", agent_id=agent_id)

    after = _scrape(client)

    def delta(name: str, **labels: str) -> float:
        return _value(after, name, **labels) - _value(before, name, **labels)

    evidence_route = "/v1/agents/{agent_id}/beliefs/{belief_id}/evidence"
    assert (
        delta("credence_http_requests_total", method="POST", route="/v1/agents", status="201") == 1
    )
    assert (
        delta("credence_http_requests_total", method="POST", route=evidence_route, status="200")
        == 5
    )
    assert (
        delta(
            "credence_http_requests_total",
            method="GET",
            route="/v1/agents/{agent_id}/beliefs/{belief_id}",
            status="404",
        )
        == 1
    )
    assert (
        delta("credence_http_request_duration_seconds_count", method="POST", route=evidence_route)
        == 5
    )
    assert (
        delta("credence_http_request_duration_seconds_sum", method="POST", route=evidence_route) > 0
    )
    # No agent or belief id ever becomes a label.
    assert not any(agent in value for _, labels in after for _, value in labels)

    mode = turn.json()["mode"]
    assert delta("credence_turns_total", mode=mode) == 1
    for phase in ("activate", "respond"):
        assert delta("credence_turn_phase_duration_seconds_count", phase=phase) == 1
    assert delta("credence_revisions_total", mode="threshold") >= 1
    assert delta("credence_neo4j_errors_total", code="graph_error") == 1


def test_metrics_can_be_switched_off(settings: Settings) -> None:
    with TestClient(create_app(settings.model_copy(update={"metrics_enabled": False}))) as client:
        assert client.get("/metrics").status_code == 404


def test_a_made_up_method_adds_no_series(client: TestClient) -> None:
    """The method is the client's word: each new one was a new series of both request metrics,
    so anyone able to reach the port could grow /metrics (and Prometheus) without bound."""
    before = _scrape(client)
    for number in range(3):
        client.request(f"PROBE{number}", "/health")
        client.request(f"PROBE{number}", "/no/such/route")

    after = _scrape(client)
    methods = {dict(labels).get("method") for _, labels in after}
    assert not any(method and method.upper().startswith("PROBE") for method in methods)
    other = _value(
        after, "credence_http_requests_total", method="other", route="/health", status="405"
    )
    assert (
        other
        - _value(
            before, "credence_http_requests_total", method="other", route="/health", status="405"
        )
        == 3
    )


def test_the_documentation_routes_are_counted_by_their_path_not_as_unmatched(
    client: TestClient,
) -> None:
    """FastAPI's own routes (the OpenAPI document, its pages) leave no route in the scope: they
    were counted "unmatched", with the scans of paths that exist nowhere."""
    before = _scrape(client)
    client.get("/openapi.json")
    client.get("/docs")
    client.get("/no/such/route")

    after = _scrape(client)

    def delta(route: str, status: str) -> float:
        labels = {"method": "GET", "route": route, "status": status}
        return _value(after, "credence_http_requests_total", **labels) - _value(
            before, "credence_http_requests_total", **labels
        )

    assert delta("/openapi.json", "200") == 1
    assert delta("/docs", "200") == 1
    assert delta("unmatched", "200") == 0
    assert delta("unmatched", "404") == 1
