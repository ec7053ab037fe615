"""Marking a tool as a search source is a write to the agent's graph: it takes the agent's lock
(docs/graph-model.md §5), and an agent whose deletion has begun is not written (real Neo4j, the
streamable-HTTP test server)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.graph.client import GraphClient
from tests.integration.tools.conftest import HTTP_TOKEN, ToolAgent


async def _lock_count(test_graph: GraphClient, agent: str) -> int:
    [row] = await test_graph.read("scheduler/get_agent_lock", agent_id=agent)
    return int(row["write_count"])


def _marked(agent: ToolAgent) -> dict[str, bool]:
    tools = agent.get("/connections/library/tools")["data"]
    return {tool["name"]: tool["search_source"] for tool in tools}


async def test_a_search_source_is_marked_under_the_lock_and_not_for_an_agent_being_deleted(
    agent: ToolAgent,
    client: TestClient,
    http_server: str,
    graph: GraphClient,
    test_graph: GraphClient,
) -> None:
    body = {
        "name": "library",
        "transport": "http",
        "url": http_server,
        "headers": {"Authorization": f"Bearer {HTTP_TOKEN}"},
        "search_tools": ["search"],
    }
    agent.post("/connections", body, expect=201)
    path = f"/v1/agents/{agent.id}/connections/library/tools"

    before = await _lock_count(test_graph, agent.id)
    echo = client.patch(f"{path}/echo", json={"search_source": True})
    assert echo.status_code == 200 and echo.json()["search_source"] is True, echo.text
    assert await _lock_count(test_graph, agent.id) == before + 1

    assert await graph.write("agents/store/lock_agent_for_deletion", agent_id=agent.id)
    refused = client.patch(f"{path}/search", json={"search_source": False})
    assert refused.status_code == 404, refused.text
    assert refused.json()["error"]["code"] == "agent_not_found"
    assert _marked(agent)["search"] is True
