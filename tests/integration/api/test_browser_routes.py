"""GET /browser/guide and /browser/style.grass (docs/browser.md): the guide names the agent it is
asked for, its queries run on a real graph, and only Neo4j Browser's loopback origin may read
them cross-origin."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from app.browser.guide import param_command, query_text
from app.browser.slides import AGENTS, OVERVIEW, SLIDES
from app.graph.catalog import default_catalog
from app.graph.client import GraphClient
from tests.support.agents import MakeAgent

BROWSER_ORIGIN = "http://127.0.0.1:7474"


def test_the_guide_of_an_agent_sets_its_id(client: TestClient, make_agent: MakeAgent) -> None:
    agent_id = make_agent(name="Guided")

    response = client.get("/browser/guide", params={"agent_id": agent_id})

    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/html")
    page = response.text
    assert "<title>Credence: Guided</title>" in page
    assert page.count("<slide ") == 1 + len(SLIDES)
    assert param_command(agent_id).replace('"', "&quot;").replace(">", "&gt;") in page
    assert "http://testserver/browser/style.grass" in page


def test_an_unknown_agent_is_404(client: TestClient) -> None:
    response = client.get("/browser/guide", params={"agent_id": "no-such-agent"})

    assert response.status_code == 404
    assert response.json()["error"]["code"] == "agent_not_found"


def test_an_overlong_agent_id_is_422_naming_it(client: TestClient) -> None:
    response = client.get("/browser/guide", params={"agent_id": "x" * 65})

    assert response.status_code == 422
    assert "agent_id" in response.text


@pytest.mark.parametrize("agent_id", ["\x00", "a\nb", "a b", "../agents"])
def test_an_agent_id_no_agent_can_have_is_422_naming_it(client: TestClient, agent_id: str) -> None:
    """As in every path (`AgentIdDep`): before, a control character went to the query and came
    back in a 404's message and details."""
    response = client.get("/browser/guide", params={"agent_id": agent_id})

    assert response.status_code == 422, response.text
    assert response.json()["error"]["details"]["errors"][0]["location"] == ["query", "agent_id"]


def test_the_style_sheet_is_served_as_text(client: TestClient) -> None:
    response = client.get("/browser/style.grass")

    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    assert "node.Belief {" in response.text


def test_browser_may_read_the_guide_cross_origin(client: TestClient) -> None:
    # Browser's guide fetch sends no-cache headers, so Chromium asks first.
    preflight = client.options(
        "/browser/guide",
        headers={
            "Origin": BROWSER_ORIGIN,
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "cache-control,pragma",
        },
    )
    style = client.get("/browser/style.grass", headers={"Origin": "http://localhost:7474"})

    assert preflight.status_code == 200
    assert preflight.headers["access-control-allow-origin"] == BROWSER_ORIGIN
    assert preflight.headers["access-control-allow-methods"] == "GET"
    assert style.headers["access-control-allow-origin"] == "http://localhost:7474"


@pytest.mark.parametrize(
    ("path", "origin", "method"),
    [
        ("/browser/guide", "http://evil.example", "GET"),  # not Browser's origin
        ("/browser/guide", "http://127.0.0.1.evil.example:7474", "GET"),
        ("/v1/agents", BROWSER_ORIGIN, "GET"),  # no other route
    ],
)
def test_nothing_else_is_open_cross_origin(
    client: TestClient, path: str, origin: str, method: str
) -> None:
    preflight = client.options(
        path, headers={"Origin": origin, "Access-Control-Request-Method": method}
    )
    plain = client.get("/health", headers={"Origin": BROWSER_ORIGIN})

    assert "access-control-allow-origin" not in preflight.headers
    assert preflight.status_code in {400, 405}
    assert "access-control-allow-origin" not in plain.headers


def test_browser_may_only_read(client: TestClient) -> None:
    preflight = client.options(
        "/browser/guide",
        headers={"Origin": BROWSER_ORIGIN, "Access-Control-Request-Method": "POST"},
    )

    assert preflight.status_code == 400  # the browser sends no POST after this answer
    assert preflight.headers["access-control-allow-methods"] == "GET"


async def test_every_guide_query_runs_on_a_real_agent(graph: GraphClient, agent: str) -> None:
    # The stories' rows on the demo agent are checked in a real Browser (tests/browser/); here,
    # that each query is valid Cypher against the migrated schema and reads only $agent_id.
    queries = [OVERVIEW, AGENTS, *(query for slide in SLIDES for query in slide.queries)]
    for query in queries:
        text = query_text(default_catalog(), query)
        assert text
        await graph.read(f"browser/guide/{query.name}", agent_id=agent)
