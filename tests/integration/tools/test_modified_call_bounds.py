"""A person's modified call (``modify`` on an approval) is bounded as ``POST /actions`` bounds a
call's arguments: at most 32 levels of nesting and 7,800 characters of JSON (real API, real
Neo4j, mcp-server-time, offline reasoner)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.integration.tools.conftest import TIME_SERVER, ToolAgent

CLOCK = {"name": "clock", "transport": "stdio", "command": str(TIME_SERVER)}


def _nested(levels: int) -> dict[str, Any]:
    """An object ``levels`` deep."""
    value: dict[str, Any] = {"end": True}
    for _ in range(levels - 1):
        value = {"inner": value}
    return value


def _padded(chars: int) -> dict[str, Any]:
    """``{"timezone": "UTC", "note": "xx…"}``, ``chars`` characters as JSON."""
    arguments = {"timezone": "UTC", "note": ""}
    arguments["note"] = "x" * (chars - len(json.dumps(arguments)))
    return arguments


def _modify(agent: ToolAgent, arguments: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    """A proposed call of clock.get_current_time (UTC), answered with ``modify`` and these
    arguments: the proposal and the answer's response."""
    agent.post("/connections", CLOCK, expect=201)
    proposed: dict[str, Any] = agent.call("clock", "get_current_time", {"timezone": "UTC"})
    assert proposed["mode"] == "proposal"
    unit = proposed["work_unit"]
    response = agent.client.post(
        f"/v1/agents/{agent.id}/approvals/{proposed['approval']['id']}",
        json={
            "action": "modify",
            "speaker": "Dana",
            "work_unit": unit | {"call": unit["call"] | {"arguments": arguments}},
        },
    )
    return proposed, response


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            {"timezone": "UTC", "note": _nested(32)},  # 33 levels with the outer object
            "must nest at most 32 levels deep",
        ),
        (_padded(7801), "must be at most 7800 characters written as JSON"),
    ],
    ids=["too deep", "too long"],
)
def test_a_modified_call_beyond_the_bounds_is_422_and_nothing_runs(
    agent: ToolAgent, arguments: dict[str, Any], message: str
) -> None:
    """A modified call's arguments had no bound (POST /actions has): it ran. Refused now,
    naming the field; the approval stays pending and the proposed call is neither run nor
    replaced."""
    proposed, modified = _modify(agent, arguments)

    assert modified.status_code == 422, modified.text
    assert modified.json()["error"]["details"]["errors"] == [
        {
            "location": ["body", "work_unit", "call", "arguments"],
            "message": message,
            "type": "value_error",
        }
    ]
    approval_id = proposed["approval"]["id"]
    assert agent.get(f"/approvals/{approval_id}")["status"] == "pending"
    actions = agent.get("/actions")["data"]
    assert [(a["id"], a["status"]) for a in actions] == [(proposed["action_id"], "pending")]
    assert actions[0]["arguments"] == {"timezone": "UTC"}
    # The approval can still be answered.
    assert agent.approve(approval_id)["execution"]["status"] == "executed"


@pytest.mark.parametrize(
    "arguments",
    [{"timezone": "UTC", "note": _nested(31)}, _padded(7800)],
    ids=["32 levels", "7,800 characters"],
)
def test_a_modified_call_at_the_bounds_runs(agent: ToolAgent, arguments: dict[str, Any]) -> None:
    _, modified = _modify(agent, arguments)
    assert modified.status_code == 200, modified.text
    assert modified.json()["execution"]["status"] == "executed"
    assert modified.json()["approval"]["status"] == "modified"
