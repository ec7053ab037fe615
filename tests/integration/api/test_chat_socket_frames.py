"""The chat socket's approval frames (``{"approval_id": ..., "answer": {...}}``) are checked as
one frame: each problem is located in the frame as sent (``["answer", "action"]``,
``["approval_id"]``), and an id that is not a string is refused, not turned into text."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse

from tests.support.agents import MakeAgent


@pytest.mark.parametrize(
    ("frame", "location"),
    [
        ({"approval_id": "a1", "answer": {}}, ["answer", "action"]),
        ({"approval_id": "a1", "answer": "yes"}, ["answer"]),
        ({"approval_id": "a1"}, ["answer"]),
        ({"approval_id": {"x": 1}, "answer": {"action": "approve"}}, ["approval_id"]),
        ({"approval_id": None, "answer": {"action": "approve"}}, ["approval_id"]),
        ({"approval_id": 5, "answer": {"action": "approve"}}, ["approval_id"]),
        ({"approval_id": "", "answer": {"action": "approve"}}, ["approval_id"]),
        ({"approval_id": "a1", "answer": {"action": "approve"}, "mesage": "x"}, ["mesage"]),
    ],
)
def test_a_malformed_approval_frame_is_422_located_in_the_frame(
    client: TestClient, make_agent: MakeAgent, frame: dict[str, Any], location: list[Any]
) -> None:
    agent = make_agent()
    with client.websocket_connect(f"/v1/agents/{agent}/ws/chat") as socket:
        socket.send_json(frame)
        error = socket.receive_json()["error"]

        assert error["code"] == "invalid_input", error
        assert [entry["location"] for entry in error["details"]["errors"]][:1] == [location]
        # The socket stays open for the next message.
        socket.send_json({"approval_id": "no-such-approval", "answer": {"action": "approve"}})
        assert socket.receive_json()["error"]["status"] == 404


@pytest.mark.parametrize(
    ("path", "location"),
    [
        ("/v1/agents/bad%20id/ws/chat", ["path", "agent_id"]),
        ("/v1/agents/" + "a" * 65 + "/ws/chat", ["path", "agent_id"]),
        ("/v1/agents/some-agent/ws/investigations/" + "i" * 65, ["path", "investigation_id"]),
    ],
)
def test_a_socket_with_a_malformed_path_is_refused_422_naming_the_parameter(
    client: TestClient, path: str, location: list[str]
) -> None:
    """As REST answers the same path. Before, FastAPI closed the handshake with 1008 and the
    raw errors (the input echoed) as the close reason, which uvicorn turns into a bare 403: a
    malformed agent id looked like a forbidden key."""
    with pytest.raises(WebSocketDenialResponse) as refused, client.websocket_connect(path):
        pass

    assert refused.value.status_code == 422
    error = refused.value.json()["error"]
    assert error["code"] == "invalid_input"
    assert error["details"]["errors"][0]["location"] == location
    assert "a" * 65 not in refused.value.text  # the input is not echoed
