"""A tool whose belief was revised routes on the revision (real API, real Neo4j, mcp-server-time,
offline reasoner): the revision supersedes the belief (inactive, SUPERSEDED_BY the new one), and
what a call of the tool reads, the listing shows and the outcome moves is the belief that holds
now."""

from __future__ import annotations

from typing import Any

from tests.integration.tools.conftest import TIME_SERVER, ToolAgent

CLOCK = {"name": "clock", "transport": "stdio", "command": str(TIME_SERVER)}


def _tool(agent: ToolAgent) -> dict[str, Any]:
    tools = {t["name"]: t for t in agent.get("/connections/clock/tools")["data"]}
    tool: dict[str, Any] = tools["get_current_time"]
    return tool


def _revise(agent: ToolAgent, belief_id: str) -> None:
    """Contradicting evidence until the belief's tension reaches the threshold: revised."""
    while agent.get(f"/beliefs/{belief_id}")["belief"]["is_active"]:
        agent.post(
            f"/beliefs/{belief_id}/evidence",
            {"text": "it answered the wrong time", "stance": "contradicting", "confidence": 1.0},
        )


def test_a_tool_whose_belief_was_revised_routes_on_the_revision(agent: ToolAgent) -> None:
    """The tool kept the superseded belief: no active belief, so every call of it asked for
    guidance ("I have no belief I trust to act on this"), which can only be answered, never
    approved, and the listing showed no strength: the tool could no longer be used."""
    agent.post("/connections", CLOCK, expect=201)
    first = _tool(agent)["belief_id"]
    _revise(agent, first)

    tool = _tool(agent)
    revised = tool["belief_id"]
    assert revised != first
    assert agent.get(f"/beliefs/{revised}")["belief"]["is_active"]
    assert tool["strength_in_context"] == tool["belief_strength"] is not None
    proposed = agent.call("clock", "get_current_time", {"timezone": "UTC"})
    assert proposed["mode"] == "proposal", proposed["response"]
    assert proposed["approval"]["belief_id"] == revised
    approved = agent.approve(proposed["approval"]["id"])
    assert approved["execution"]["status"] == "executed"
    assert _tool(agent)["belief_strength"] > tool["belief_strength"]
