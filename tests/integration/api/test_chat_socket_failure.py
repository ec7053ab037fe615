"""A turn that fails over the chat socket ends in one frame, the error frame of docs/chat.md
(``{"type": "error", "error": {...}}``, the phase it failed in among its details): it sent an
``error`` event first, a second frame of type ``error`` without the ``error`` key."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from app.api.app import create_app
from app.clock import Clock
from app.config import Settings
from app.embeddings.embedder import shared_embedder
from app.reasoning.offline.reasoner import OfflineReasoner
from app.reasoning.protocol import Reply, ResponseRequest
from tests.support.agents import create_agent_over_rest
from tests.support.runtime import runtime_of


class RespondFails(OfflineReasoner):
    async def respond(self, request: ResponseRequest) -> Reply:
        raise RuntimeError("the model went away mid-answer")


def test_a_failed_turn_ends_in_one_error_frame(settings: Settings, clock: Clock) -> None:
    with TestClient(create_app(settings, clock=clock)) as client:
        runtime = runtime_of(client)
        runtime.use_reasoner(RespondFails(shared_embedder(settings.embeddings)))
        agent = create_agent_over_rest(client, "Socket")
        frames: list[dict[str, Any]] = []
        with client.websocket_connect(f"/v1/agents/{agent}/ws/chat") as socket:
            socket.send_json({"message": "How do invoices get paid?"})
            while not frames or frames[-1]["type"] not in ("result", "error"):
                frames.append(socket.receive_json())
            # The socket stays open for the next message.
            socket.send_json({"message": ""})
            invalid = socket.receive_json()

    [error] = [frame for frame in frames if frame["type"] == "error"]
    assert error is frames[-1]
    assert error["error"]["code"] == "turn_failed" and error["error"]["status"] == 500
    assert error["error"]["details"]["phase"] == "respond"
    assert "model went away" in error["error"]["message"]
    assert invalid["type"] == "error" and invalid["error"]["code"] == "invalid_input"
    assert "phase" not in invalid["error"]["details"]
