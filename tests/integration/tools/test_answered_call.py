"""An approval of a tool call (proposal or guidance) is approved, modified or rejected: an
answer's text cannot change a call (real API, real Neo4j, mcp-server-time, offline reasoner).

Before, ``answer`` shaped a new unit from the text ("Yes, go ahead"): the offline reasoner's unit
had the verb ``call`` and no call, which no executor runs ("Recorded, not executed"), the
Action was closed ``not_executed``, and a guidance approval of a call could not be approved at
all: the call could not be made."""

from __future__ import annotations

from typing import Any

from tests.integration.tools.conftest import TIME_SERVER, ToolAgent

CLOCK = {"name": "clock", "transport": "stdio", "command": str(TIME_SERVER)}


def _asked(agent: ToolAgent, *, trusted: bool) -> dict[str, Any]:
    """A call of clock.get_current_time; without a belief about the tool (``trusted`` False:
    deactivated), the agent asks for guidance."""
    agent.post("/connections", CLOCK, expect=201)
    if not trusted:
        tools = agent.get("/connections/clock/tools")["data"]
        belief_id = next(t for t in tools if t["name"] == "get_current_time")["belief_id"]
        patched = agent.client.patch(
            f"/v1/agents/{agent.id}/beliefs/{belief_id}", json={"is_active": False}
        )
        assert patched.status_code == 200, patched.text
    asked: dict[str, Any] = agent.call("clock", "get_current_time", {"timezone": "UTC"})
    assert asked["approval"]["kind"] == ("proposal" if trusted else "guidance")
    return asked


def _answer_refused(agent: ToolAgent, asked: dict[str, Any]) -> None:
    approval_id = asked["approval"]["id"]
    answered = agent.client.post(
        f"/v1/agents/{agent.id}/approvals/{approval_id}",
        json={"action": "answer", "text": "Yes, go ahead", "speaker": "Dana"},
    )

    assert answered.status_code == 422, answered.text
    error = answered.json()["error"]
    assert error["code"] == "approval_answer_invalid"
    [entry] = error["details"]["errors"]
    assert entry["location"] == ["body", "action"]
    assert entry["message"].startswith(
        "an approval of a tool call (clock.get_current_time) takes approve, modify or reject"
    )
    # Nothing ran and nothing was written: the approval and its call wait as they were.
    assert agent.get(f"/approvals/{approval_id}")["status"] == "pending"
    [action] = agent.get("/actions")["data"]
    assert (action["id"], action["status"]) == (asked["action_id"], "pending")


def test_a_proposed_call_answered_with_text_is_refused_and_can_be_approved(
    agent: ToolAgent,
) -> None:
    asked = _asked(agent, trusted=True)

    _answer_refused(agent, asked)

    approved = agent.approve(asked["approval"]["id"])
    assert approved["execution"]["status"] == "executed"
    assert approved["work_unit"]["call"]["tool"] == "get_current_time"


def test_a_call_asked_guidance_for_is_approved_not_answered(agent: ToolAgent) -> None:
    asked = _asked(agent, trusted=False)
    assert asked["approval"]["question"].endswith("May I make this call?")

    _answer_refused(agent, asked)

    approved = agent.approve(asked["approval"]["id"])
    assert approved["execution"]["status"] == "executed"
    assert approved["approval"]["status"] == "approved"
    [action] = agent.get("/actions")["data"]
    assert action["status"] == "succeeded"
