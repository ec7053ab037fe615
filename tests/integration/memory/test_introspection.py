"""Introspection over REST on the real Neo4j: the track record read, gaps added, goals in the
self view; after a reflection that moved capabilities, the report carries the goals too."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.graph.client import GraphClient
from app.memory import self_model
from app.memory.self_model import CapabilityOutcome


async def test_introspection_reports_gaps_and_suggests_goals(
    client: TestClient, graph: GraphClient, agent: str
) -> None:
    for success in (False, False, True, False):
        await self_model.record_capability_outcome(
            graph, agent, CapabilityOutcome(domain="reconciliation", success=success)
        )
    for _ in range(10):  # success rate 0.83 from the 0.5 prior; proficiency 1.0
        await self_model.record_capability_outcome(
            graph, agent, CapabilityOutcome(domain="report_drafting", success=True, complexity=1.0)
        )
    before = client.get(f"/v1/agents/{agent}/self").json()
    assert before["suggested_goals"] == [] and before["last_introspection_at"] is None

    response = client.post(f"/v1/agents/{agent}/self/introspect")
    assert response.status_code == 200, response.text
    looked = response.json()
    assert looked["judged"] == 2
    assert looked["gaps_added"] == ["reconciliation (my outcomes there mostly fall short)"]
    assert looked["suggested_goals"][0].startswith("Improve reconciliation")
    assert looked["suggested_goals"][1].startswith("Take on more report drafting")

    view = client.get(f"/v1/agents/{agent}/self").json()
    assert view["suggested_goals"] == looked["suggested_goals"]
    assert view["last_introspection_at"] is not None
    assert "reconciliation (my outcomes there mostly fall short)" in view["knowledge_gaps"]

    again = client.post(f"/v1/agents/{agent}/self/introspect").json()
    assert again["gaps_added"] == []  # known already: not added twice
    assert (
        client.get(f"/v1/agents/{agent}/self")
        .json()["knowledge_gaps"]
        .count("reconciliation (my outcomes there mostly fall short)")
        == 1
    )

    assert client.post("/v1/agents/no-such-agent/self/introspect").status_code == 404


async def test_a_capability_that_recovered_loses_its_introspection_gap(
    client: TestClient, graph: GraphClient, agent: str
) -> None:
    # Weak first: the gap is added. Then a long run of successes makes it strong: introspection
    # suggests taking on more of it, and its own gap (no longer true) goes; other gaps stay.
    gap = "forecasting (my outcomes there mostly fall short)"
    await self_model.add_knowledge_gaps(graph, agent, ["month-end accruals"])
    for _ in range(4):
        await self_model.record_capability_outcome(
            graph, agent, CapabilityOutcome(domain="forecasting", success=False)
        )
    first = client.post(f"/v1/agents/{agent}/self/introspect").json()
    assert first["gaps_added"] == [gap]
    for _ in range(40):
        await self_model.record_capability_outcome(
            graph, agent, CapabilityOutcome(domain="forecasting", success=True, complexity=1.0)
        )
    later = client.post(f"/v1/agents/{agent}/self/introspect").json()
    assert later["suggested_goals"][0].startswith("Take on more forecasting")
    assert later["gaps_resolved"] == [gap]
    assert client.get(f"/v1/agents/{agent}/self").json()["knowledge_gaps"] == ["month-end accruals"]
