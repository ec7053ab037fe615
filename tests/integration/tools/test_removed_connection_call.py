"""A call that waited for a person whose connection was removed meanwhile is not made, and
its tool's belief does not move: removing a connection keeps its tools' beliefs, so a tool
connected again is trusted as it was (real API, real Neo4j, mcp-server-time, offline
reasoner)."""

from __future__ import annotations

from typing import Any

from tests.integration.tools.conftest import TIME_SERVER, ToolAgent

CLOCK = {"name": "clock", "transport": "stdio", "command": str(TIME_SERVER)}


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
    assert answered["execution"]["message"] == (
        f"clock.get_current_time was not called: agent {agent.id!r} has no connection named 'clock'"
    )
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
