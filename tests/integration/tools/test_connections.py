"""Connections to real MCP servers (REST, real Neo4j): streamable HTTP with a secret header,
mcp-server-time over stdio (2.x SDK), what is refused, and a server that hangs."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from app.api.app import create_app
from app.config import Settings
from app.graph.client import GraphClient
from tests.integration.tools.conftest import HTTP_TOKEN, TIME_SERVER, ToolAgent, tool_settings


def _connect_http(agent: ToolAgent, url: str) -> dict[str, Any]:
    body = {
        "name": "testtools",
        "transport": "http",
        "url": url,
        "headers": {"Authorization": f"Bearer {HTTP_TOKEN}"},
    }
    added: dict[str, Any] = agent.post("/connections", body, expect=201)
    return added


async def test_an_http_server_connects_with_a_secret_header_kept_out_of_the_graph(
    agent: ToolAgent, http_server: str, graph: GraphClient
) -> None:
    added = _connect_http(agent, http_server)
    tools = {tool["name"]: tool for tool in added["tools"]}
    assert set(tools) == {
        "echo",
        "add",
        "fail",
        "sleep",
        "repeat",
        "search",
        "slow_write",
        "writes",
    }
    assert tools["echo"]["read_only"] and not tools["echo"]["destructive"]
    assert not tools["add"]["read_only"] and not tools["add"]["destructive"]
    assert tools["fail"]["destructive"]  # no annotations: MCP presumes it may destroy
    assert tools["add"]["input_schema"]["required"] == ["a", "b"]
    listed = agent.get("/connections")
    assert listed["count"] == 1 and listed["data"][0]["header_names"] == ["Authorization"]
    assert HTTP_TOKEN not in str(listed)
    stored = await graph.read("tools/find_connection", agent_id=agent.id, connection="testtools")
    assert stored and HTTP_TOKEN not in str(stored)

    proposed = agent.call("testtools", "echo", {"text": "hello ledger"})
    assert proposed["mode"] == "proposal"
    done = agent.approve(proposed["approval"]["id"])
    assert done["execution"]["status"] == "executed"
    assert done["execution"]["output"]["content"] == "hello ledger"

    failing = agent.call("testtools", "fail", {"reason": "the period is closed"})
    failed = agent.approve(failing["approval"]["id"])
    assert failed["execution"]["status"] == "failed"
    assert failed["execution"]["output"]["is_error"] is True
    # Seed 002: a tool error makes the turn's episode surprising (0.3).
    assert agent.get(f"/episodes/{failed['turn_id']}")["surprise"] == 0.3
    assert agent.get(f"/episodes/{done['turn_id']}")["surprise"] == 0.0


def test_mcp_server_time_over_stdio(agent: ToolAgent) -> None:
    body = {"name": "clock", "transport": "stdio", "command": str(TIME_SERVER)}
    added = agent.post("/connections", body, expect=201)
    assert {tool["name"] for tool in added["tools"]} == {"get_current_time", "convert_time"}
    proposed = agent.post("/chat", {"message": 'call clock.get_current_time {"timezone": "UTC"}'})
    assert proposed["mode"] == "proposal"
    done = agent.approve(proposed["approval"]["id"])
    assert done["execution"]["status"] == "executed"
    assert '"timezone": "UTC"' in done["execution"]["output"]["content"]


def test_what_is_refused(agent: ToolAgent, client: TestClient, tmp_path: Path) -> None:
    missing = {"name": "ghost", "transport": "stdio", "command": str(tmp_path / "no-such-server")}
    failed = agent.post("/connections", missing, expect=502)
    assert failed["error"]["code"] == "tool_server_failed"
    assert "failed to start" in failed["error"]["message"]
    assert agent.get("/connections")["count"] == 0  # nothing written
    no_command = agent.post("/connections", {"name": "x", "transport": "stdio"}, expect=422)
    assert no_command["error"]["code"] == "invalid_input"
    agent.connect_ledger(tmp_path / "ledger.db")
    taken = agent.post(
        "/connections",
        {"name": "ledger", "transport": "stdio", "command": "anything"},
        expect=409,
    )
    assert taken["error"]["code"] == "connection_name_taken"
    unknown = agent.post(
        "/actions", {"connection": "ledger", "tool": "drop_everything"}, expect=404
    )
    assert unknown["error"]["code"] == "tool_not_found"
    bad_json = agent.post("/chat", {"message": "call ledger.read_query {not json}"}, expect=422)
    assert bad_json["error"]["code"] == "invalid_input"

    removed = client.delete(f"/v1/agents/{agent.id}/connections/ledger")
    assert removed.status_code == 204, removed.text
    assert agent.get("/connections")["count"] == 0
    gone = client.get(f"/v1/agents/{agent.id}/connections/ledger/tools")
    assert gone.status_code == 404 and gone.json()["error"]["code"] == "connection_not_found"
    after = agent.post("/actions", {"connection": "ledger", "tool": "read_query"}, expect=404)
    assert after["error"]["code"] == "tool_not_found"


def test_a_hanging_server_times_out_and_the_turn_answers(
    settings: Settings, http_server: str
) -> None:
    with TestClient(create_app(tool_settings(settings, call_timeout_s=1.0))) as client:
        agent = ToolAgent(client, client.post("/v1/agents", json={"name": "Hang"}).json()["id"])
        _connect_http(agent, http_server)
        proposed = agent.call("testtools", "sleep", {"seconds": 60})
        started = time.monotonic()
        answered = agent.approve(proposed["approval"]["id"])
        assert time.monotonic() - started < 30
        assert answered["execution"]["status"] == "failed"
        assert "no answer within 1 s (timed out)" in answered["execution"]["message"]
        assert answered["verification"]["action"] == "escalate"
        assert answered["response"]
        # The server is started again on the next use.
        echoed = agent.approve(agent.call("testtools", "echo", {"text": "back"})["approval"]["id"])
        assert echoed["execution"]["output"]["content"] == "back"


def test_a_timed_out_call_of_a_tool_that_may_destroy_is_sent_once(
    settings: Settings, http_server: str
) -> None:
    """A timeout leaves a call's outcome unknown: the server may have written. A tool that may
    destroy and is not idempotent is not sent again (a review saw one approval pay an invoice
    three times); the turn escalates to a person. A read-only tool is still retried."""
    with TestClient(create_app(tool_settings(settings, call_timeout_s=1.0))) as client:
        agent = ToolAgent(client, client.post("/v1/agents", json={"name": "Once"}).json()["id"])
        _connect_http(agent, http_server)
        counted = agent.call("testtools", "writes", {})["approval"]["id"]
        before = int(agent.approve(counted)["execution"]["output"]["content"])

        proposed = agent.call("testtools", "slow_write", {"seconds": 5})
        answered = agent.approve(proposed["approval"]["id"])

        assert answered["execution"]["status"] == "failed"
        assert answered["verification"]["action"] == "escalate"
        counted = agent.call("testtools", "writes", {})["approval"]["id"]
        assert int(agent.approve(counted)["execution"]["output"]["content"]) == before + 1


async def test_the_connections_file_connects_at_start_with_its_secrets(
    settings: Settings, agent: ToolAgent, http_server: str, tmp_path: Path, graph: GraphClient
) -> None:
    path = tmp_path / "connections.yaml"
    path.write_text(
        "connections:\n"
        f"  - agent: {agent.id}\n"
        "    name: filetools\n"
        "    transport: http\n"
        f"    url: {http_server}\n"
        f"    headers: {{Authorization: 'Bearer {HTTP_TOKEN}'}}\n",
        encoding="utf-8",
    )
    app_settings = tool_settings(settings, connections_file=path)
    for _ in range(2):  # the second start finds it connected, and loads its secret again
        with TestClient(create_app(app_settings)) as client:
            started = ToolAgent(client, agent.id)
            listed = started.get("/connections")["data"]
            assert [c["name"] for c in listed] == ["filetools"]
            proposed = started.call("filetools", "add", {"a": 2, "b": 3})
            done = started.approve(proposed["approval"]["id"])
            assert done["execution"]["output"]["content"] == "5", done["execution"]
    stored = await graph.read("tools/list_connections", agent_id=agent.id)
    assert stored and HTTP_TOKEN not in str(stored)


def test_connections_are_stamped_by_the_runtimes_clock(settings: Settings) -> None:
    """Created at the process clock's time (CREDENCE_CLOCK_START), not the machine's."""
    at = datetime(2031, 3, 4, 9, 30, tzinfo=UTC)
    clocked = tool_settings(settings).model_copy(update={"clock_start": at})
    with TestClient(create_app(clocked)) as client:
        agent = ToolAgent(client, client.post("/v1/agents", json={"name": "Clock"}).json()["id"])
        body = {"name": "clock", "transport": "stdio", "command": str(TIME_SERVER)}
        agent.post("/connections", body, expect=201)
        created = agent.get("/connections")["data"][0]["created_at"]
        # A clock started at `at` runs at the machine's pace: seconds later, same day.
        assert created.startswith("2031-03-04T09:3"), created
        removed = client.delete(f"/v1/agents/{agent.id}/connections/clock")
        assert removed.status_code == 204, removed.text
