"""A person's modified call (``modify`` on an approval) calls the tool proposed: the call's
Action, the belief its outcome moves and the tool's count of successes are that tool's (real
API, real Neo4j, mcp-server-time, offline reasoner)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.integration.tools.conftest import TIME_SERVER, ToolAgent

CLOCK = {"name": "clock", "transport": "stdio", "command": str(TIME_SERVER)}
CONVERT = {"source_timezone": "UTC", "time": "12:00", "target_timezone": "Europe/Warsaw"}


def _modify(agent: ToolAgent, call: dict[str, Any] | None) -> tuple[dict[str, Any], Any]:
    """A proposed call of clock.get_current_time (UTC), answered with ``modify`` and a unit
    whose call is ``call``: the proposal and the answer."""
    agent.post("/connections", CLOCK, expect=201)
    proposed: dict[str, Any] = agent.call("clock", "get_current_time", {"timezone": "UTC"})
    assert proposed["mode"] == "proposal"
    unit = proposed["work_unit"] | {"call": call}
    answer = agent.client.post(
        f"/v1/agents/{agent.id}/approvals/{proposed['approval']['id']}",
        json={"action": "modify", "speaker": "Dana", "work_unit": unit},
    )
    return proposed, answer


@pytest.mark.parametrize(
    ("call", "location", "message"),
    [
        (
            {"connection": "clock", "tool": "convert_time", "arguments": CONVERT},
            ["body", "work_unit", "call", "tool"],
            "a modified call calls the tool proposed (clock.get_current_time), not "
            "clock.convert_time: another tool's call is asked for on its own",
        ),
        (
            None,
            ["body", "work_unit", "call"],
            "a modified call calls the tool proposed (clock.get_current_time)",
        ),
    ],
    ids=["another tool", "no call"],
)
def test_a_call_modified_to_another_tool_is_422_and_nothing_runs(
    agent: ToolAgent, call: dict[str, Any] | None, location: list[str], message: str
) -> None:
    """A modified call of another tool ran, but its Action kept the proposed tool (with the
    other tool's arguments), and the outcome moved the belief about the proposed tool and
    counted a success for it (get_current_time 0.5 → 0.65, 1 success; convert_time, which ran,
    unmoved). Refused now, before anything is claimed or run."""
    proposed, answer = _modify(agent, call)

    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert error["code"] == "approval_answer_invalid"
    assert error["details"]["errors"] == [
        {"location": location, "message": message, "type": "approval_answer_invalid"}
    ]
    assert agent.get(f"/approvals/{proposed['approval']['id']}")["status"] == "pending"
    actions = agent.get("/actions")["data"]
    assert [(a["id"], a["tool"], a["status"]) for a in actions] == [
        (proposed["action_id"], "get_current_time", "pending")
    ]
    tools = {t["name"]: t for t in agent.get("/connections/clock/tools")["data"]}
    assert (tools["get_current_time"]["successes"], tools["convert_time"]["successes"]) == (0, 0)
    assert tools["get_current_time"]["belief_strength"] == 0.5


def test_a_call_modified_within_its_tool_runs_as_modified(agent: ToolAgent) -> None:
    """The same tool with other arguments still runs, recorded with the arguments that ran."""
    _, answer = _modify(
        agent,
        {
            "connection": "clock",
            "tool": "get_current_time",
            "arguments": {"timezone": "Asia/Tokyo"},
        },
    )

    assert answer.status_code == 200, answer.text
    [action] = agent.get("/actions")["data"]
    assert (action["tool"], action["arguments"], action["status"]) == (
        "get_current_time",
        {"timezone": "Asia/Tokyo"},
        "succeeded",
    )
