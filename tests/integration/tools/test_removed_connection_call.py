"""A call that waited for a person whose connection was removed meanwhile is not made, and
its tool's belief does not move: removing a connection keeps its tools' beliefs, so a tool
connected again is trusted as it was (real API, real Neo4j, mcp-server-time, offline
reasoner)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.graph.client import GraphClient
from app.reasoning.protocol import ToolCall
from app.tools.calls import tool_work_unit
from app.tools.clients import McpClients
from app.tools.executor import McpToolExecutor
from app.tools.settings import ToolSettings
from tests.integration.tools.conftest import TIME_SERVER, ToolAgent, sqlite_server

CLOCK = {"name": "clock", "transport": "stdio", "command": str(TIME_SERVER)}
GONE = (
    "clock.get_current_time was not called: the agent no longer has the tool "
    "clock.get_current_time (its connection 'clock' was removed, or no longer offers it)"
)


def test_an_approved_call_of_a_removed_connection_is_not_executed(agent: ToolAgent) -> None:
    """It was a failure of the tool: sent three times (the retry budget) to no connection,
    escalated, and its belief took a failure at severity 0.9, so the tool
    connected again was trusted less for a call nobody made."""
    agent.post("/connections", CLOCK, expect=201)
    proposed: dict[str, Any] = agent.call("clock", "get_current_time", {"timezone": "UTC"})
    approval_id = proposed["approval"]["id"]
    removed = agent.client.delete(f"/v1/agents/{agent.id}/connections/clock")
    assert removed.status_code == 204, removed.text

    answered = agent.approve(approval_id)

    assert answered["execution"]["status"] == "recorded_not_executed"
    assert answered["execution"]["message"] == GONE
    assert answered["reasoners"]["calls"] == ["respond: offline"]  # no verification, no retry
    [action] = agent.get("/actions")["data"]
    assert (action["id"], action["status"]) == (proposed["action_id"], "not_executed")
    [task] = [
        t for t in agent.get("/working-memory/tasks")["data"] if t["approval_id"] == approval_id
    ]
    assert task["state"] == "blocked"
    agent.post("/connections", CLOCK, expect=201)
    tools = {t["name"]: t for t in agent.get("/connections/clock/tools")["data"]}
    tool = tools["get_current_time"]
    assert (tool["belief_strength"], tool["successes"], tool["failures"]) == (0.5, 0, 0)


def test_an_approved_call_of_a_tool_its_connection_no_longer_offers_is_not_made(
    agent: ToolAgent, tmp_path: Path
) -> None:
    """The connection removed and added again under its name with another server: the call
    was sent to that server (three times: "Unknown tool: get_current_time") and the old tool's
    belief took the failure, though the agent no longer had the tool (docs/tools.md: a turn
    never calls a tool the agent no longer CAN_USE)."""
    agent.post("/connections", CLOCK, expect=201)
    proposed: dict[str, Any] = agent.call("clock", "get_current_time", {"timezone": "UTC"})
    agent.client.delete(f"/v1/agents/{agent.id}/connections/clock")
    agent.post(
        "/connections",
        {
            "name": "clock",
            "transport": "stdio",
            "command": str(sqlite_server()),
            "args": ["--db-path", str(tmp_path / "other.db")],
        },
        expect=201,
    )

    answered = agent.approve(proposed["approval"]["id"])

    assert (answered["execution"]["status"], answered["execution"]["message"]) == (
        "recorded_not_executed",
        GONE,
    )
    [action] = agent.get("/actions")["data"]
    assert (action["tool"], action["status"]) == ("get_current_time", "not_executed")
    belief_id = proposed["approval"]["belief_id"]
    assert agent.get(f"/beliefs/{belief_id}")["belief"]["strength"] == 0.5


async def test_the_executor_does_not_call_a_removed_connection(
    graph: GraphClient, agent: ToolAgent
) -> None:
    """A connection removed between the check and the call (or never there): nothing is sent,
    the call is recorded as not executed rather than failed (and retried)."""
    call = ToolCall(connection="clock", tool="get_current_time", arguments={"timezone": "UTC"})
    clients = McpClients(ToolSettings())
    try:
        execution = await McpToolExecutor(graph, clients).execute(
            agent.id, tool_work_unit(call, "")
        )
    finally:
        await clients.aclose()
    assert (execution.status, execution.message) == (
        "recorded_not_executed",
        f"clock.get_current_time was not called: agent {agent.id!r} has no connection named "
        "'clock'",
    )
