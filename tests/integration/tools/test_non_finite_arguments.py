"""A number that is not finite in a call's arguments (``1e400``, which JSON parsers read as
infinity, or the ``NaN`` literal Python's parser takes) is refused wherever a call is asked
for — ``POST /actions``, the chat's ``call`` syntax, a modified call in an approval's answer
(over REST and MCP) — with a 422 whose entry names the value, and nothing is written: JSON has
no such number, so the MCP server could not be sent it nor the graph keep it (real API, real
Neo4j, mcp-server-time, offline reasoner)."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from tests.integration.tools.conftest import TIME_SERVER, ToolAgent

CLOCK = {"name": "clock", "transport": "stdio", "command": str(TIME_SERVER)}
NOT_FINITE = "number_not_finite"


def _post_raw(client: TestClient, path: str, text: str) -> Any:
    return client.post(path, content=text, headers={"content-type": "application/json"})


def _entry(response: Any) -> dict[str, Any]:
    assert response.status_code == 422, response.text
    body = response.json()["error"]
    assert body["code"] == "invalid_input"
    (entry,) = body["details"]["errors"]
    return dict(entry)


def _nothing_called(agent: ToolAgent) -> None:
    assert agent.get("/actions")["data"] == []
    assert agent.get("/approvals")["data"] == []


def test_an_action_with_an_infinite_argument_is_422_naming_it(agent: ToolAgent) -> None:
    """Before: 1e400 became Infinity in a proposed call (its arguments not JSON any more)."""
    agent.post("/connections", CLOCK, expect=201)
    body = '{"connection": "clock", "tool": "get_current_time",'
    body += ' "arguments": {"timezone": "UTC", "note": {"values": [1, 1e400]}}}'

    entry = _entry(_post_raw(agent.client, f"/v1/agents/{agent.id}/actions", body))

    assert entry["location"] == ["body", "arguments", "note", "values", 1]
    assert entry["type"] == NOT_FINITE
    assert entry["message"].startswith("Infinity is not a JSON number")
    _nothing_called(agent)


def test_a_chat_call_with_nan_is_422_naming_it(agent: ToolAgent) -> None:
    agent.post("/connections", CLOCK, expect=201)
    message = 'call clock.get_current_time {"timezone": "UTC", "offset": -1e400, "x": NaN}'

    response = agent.client.post(f"/v1/agents/{agent.id}/chat", json={"message": message})

    entry = _entry(response)
    # The chat's body has only its message: the argument is named in the entry's text (it was
    # located ["body", "arguments", "offset"], a field the body does not have).
    assert entry["location"] == ["body", "message"]
    assert entry["message"].startswith("arguments.offset: -Infinity is not a JSON number")
    assert entry["type"] == NOT_FINITE
    _nothing_called(agent)


def test_a_chat_call_whose_arguments_are_not_json_is_located_in_the_body(agent: ToolAgent) -> None:
    agent.post("/connections", CLOCK, expect=201)
    for message, kind in (
        ('call clock.get_current_time {"timezone": }', "json_invalid"),
        ("call clock.get_current_time [1, 2]", "dict_type"),
        ("call clock.get_current_time " + '{"a": ' * 40 + "1" + "}" * 40, "too_deep"),
    ):
        response = agent.client.post(f"/v1/agents/{agent.id}/chat", json={"message": message})

        entry = _entry(response)
        assert (entry["location"], entry["type"]) == (["body", "message"], kind)
    _nothing_called(agent)


def _proposal(agent: ToolAgent) -> dict[str, Any]:
    agent.post("/connections", CLOCK, expect=201)
    proposed: dict[str, Any] = agent.call("clock", "get_current_time", {"timezone": "UTC"})
    assert proposed["mode"] == "proposal"
    return proposed


def _still_pending(agent: ToolAgent, proposed: dict[str, Any]) -> None:
    """The approval is pending, its call neither run nor replaced, and can still be approved."""
    approval_id = proposed["approval"]["id"]
    assert agent.get(f"/approvals/{approval_id}")["status"] == "pending"
    actions = agent.get("/actions")["data"]
    assert [(a["id"], a["status"], a["arguments"]) for a in actions] == [
        (proposed["action_id"], "pending", {"timezone": "UTC"})
    ]
    assert agent.approve(approval_id)["execution"]["status"] == "executed"


def _modified_unit(proposed: dict[str, Any]) -> str:
    """The proposal's work unit as JSON text, its call's arguments holding 1e400."""
    unit = proposed["work_unit"]
    text = json.dumps(unit | {"call": unit["call"] | {"arguments": {"timezone": "UTC"}}})
    return text.replace('"timezone": "UTC"', '"timezone": "UTC", "limit": 1e400')


def test_a_modified_call_with_an_infinite_argument_is_422_and_nothing_runs(
    agent: ToolAgent,
) -> None:
    proposed = _proposal(agent)
    body = f'{{"action": "modify", "speaker": "Dana", "work_unit": {_modified_unit(proposed)}}}'
    path = f"/v1/agents/{agent.id}/approvals/{proposed['approval']['id']}"

    entry = _entry(_post_raw(agent.client, path, body))

    assert entry["location"] == ["body", "work_unit", "call", "arguments", "limit"]
    assert entry["type"] == NOT_FINITE
    _still_pending(agent, proposed)


def test_a_modified_call_over_mcp_with_an_infinite_argument_is_refused(agent: ToolAgent) -> None:
    proposed = _proposal(agent)
    arguments = (
        f'{{"agent_id": "{agent.id}", "approval_id": "{proposed["approval"]["id"]}",'
        f' "action": "modify", "speaker": "Dana", "work_unit": {_modified_unit(proposed)}}}'
    )
    request = (
        '{"jsonrpc": "2.0", "id": 1, "method": "tools/call",'
        f' "params": {{"name": "answer_approval", "arguments": {arguments}}}}}'
    )
    response = agent.client.post(
        "http://127.0.0.1:8000/mcp",  # the MCP endpoint takes a local host only (DNS rebinding)
        content=request,
        headers={
            "content-type": "application/json",
            "accept": "application/json, text/event-stream",
        },
    )

    assert response.status_code == 200, response.text
    result = response.json()["result"]
    assert result["isError"] is True, result
    error = json.loads(result["content"][0]["text"])["error"]
    assert error["code"] == "invalid_input"
    (entry,) = error["details"]["errors"]
    assert entry["type"] == NOT_FINITE
    assert entry["location"][-2:] == ["arguments", "limit"]
    _still_pending(agent, proposed)
