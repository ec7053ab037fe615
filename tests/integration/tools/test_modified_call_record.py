"""A person's modified call is kept on its approval beside the call proposed: the approval says
what was proposed (``work_unit``) and what ran instead (``modified_work_unit``, its tool and
arguments), answered over REST or MCP, and shows it wherever approvals are listed (real API,
real Neo4j, mcp-server-time, offline reasoner)."""

from __future__ import annotations

import json
from typing import Any

from tests.integration.tools.conftest import TIME_SERVER, ToolAgent

CLOCK = {"name": "clock", "transport": "stdio", "command": str(TIME_SERVER)}
PROPOSED = {"timezone": "UTC"}
RAN = {"timezone": "Europe/Warsaw"}


def _proposal(agent: ToolAgent) -> tuple[dict[str, Any], dict[str, Any]]:
    """A proposed call of clock.get_current_time (UTC), and the person's unit calling it for
    Warsaw instead."""
    agent.post("/connections", CLOCK, expect=201)
    proposed: dict[str, Any] = agent.call("clock", "get_current_time", PROPOSED)
    assert proposed["mode"] == "proposal"
    unit = proposed["work_unit"]
    return proposed, unit | {"call": unit["call"] | {"arguments": RAN}}


def _mcp(agent: ToolAgent, name: str, arguments: dict[str, Any]) -> Any:
    response = agent.client.post(
        "http://127.0.0.1:8000/mcp",  # the MCP endpoint takes a local host only
        json={
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": name, "arguments": {"agent_id": agent.id, **arguments}},
        },
        headers={"accept": "application/json, text/event-stream"},
    )
    assert response.status_code == 200, response.text
    result = response.json()["result"]
    assert result["isError"] is False, result
    return json.loads(result["content"][0]["text"])


def _shows_both(approval: dict[str, Any]) -> None:
    assert approval["status"] == "modified"
    assert approval["work_unit"]["call"]["arguments"] == PROPOSED
    modified = approval["modified_work_unit"]
    assert modified["call"] == {"connection": "clock", "tool": "get_current_time", "arguments": RAN}
    # Described as it ran, not in the proposal's words.
    assert modified["description"] == f"call clock.get_current_time with {json.dumps(RAN)}"


def test_a_modified_call_over_rest_is_kept_on_its_approval(agent: ToolAgent) -> None:
    """Before: the approval held only the call proposed (status modified): what ran was on the
    Action and the decision, not on the approval a person answered."""
    proposed, unit = _proposal(agent)
    approval_id = proposed["approval"]["id"]

    answered = agent.post(
        f"/approvals/{approval_id}", {"action": "modify", "speaker": "Dana", "work_unit": unit}
    )

    assert answered["execution"]["status"] == "executed"
    _shows_both(answered["approval"])
    _shows_both(agent.get(f"/approvals/{approval_id}"))
    [listed] = agent.get("/approvals", status="modified")["data"]
    _shows_both(listed)


def test_a_modified_call_over_mcp_is_kept_on_its_approval(agent: ToolAgent) -> None:
    proposed, unit = _proposal(agent)
    approval_id = proposed["approval"]["id"]

    answered = _mcp(
        agent,
        "answer_approval",
        {"approval_id": approval_id, "action": "modify", "speaker": "Dana", "work_unit": unit},
    )

    _shows_both(answered["approval"])
    [listed] = _mcp(agent, "list_approvals", {"status": "modified"})["data"]
    _shows_both(listed)


def test_an_approved_call_has_no_modified_unit(agent: ToolAgent) -> None:
    proposed, _ = _proposal(agent)

    approved = agent.approve(proposed["approval"]["id"])

    assert approved["approval"]["status"] == "approved"
    assert approved["approval"]["modified_work_unit"] is None
