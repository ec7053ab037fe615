"""A turn's events to a chat socket whose client has gone: the turn must go on to its end (a
review saw a resumption stop after its work ran, and a turn skip its after-turn work, when the
client closed the socket mid-turn)."""

from __future__ import annotations

from typing import Any

from fastapi import WebSocketDisconnect

from app.api.routes.chat import SocketEmitter
from app.loop.models import TurnEvent


class _Socket:
    """A socket whose client leaves after ``answers`` frames."""

    def __init__(self, answers: int) -> None:
        self.answers = answers
        self.sent: list[dict[str, Any]] = []

    async def send_json(self, frame: dict[str, Any]) -> None:
        if len(self.sent) >= self.answers:
            raise WebSocketDisconnect(code=1006)
        self.sent.append(frame)


async def test_events_after_the_client_left_are_dropped_not_raised() -> None:
    socket = _Socket(answers=1)
    emit = SocketEmitter(socket)  # type: ignore[arg-type]  # a fake of Starlette's WebSocket

    await emit(TurnEvent(type="phase", phase="activate"))
    await emit(TurnEvent(type="phase", phase="execute"))  # the client is gone: no error
    await emit.send({"type": "result", "data": {}})

    assert emit.gone is True
    assert [frame["phase"] for frame in socket.sent] == ["activate"]


async def test_a_listening_client_gets_every_event() -> None:
    socket = _Socket(answers=10)
    emit = SocketEmitter(socket)  # type: ignore[arg-type]  # a fake of Starlette's WebSocket

    for phase in ("activate", "route", "respond"):
        await emit(TurnEvent(type="phase", phase=phase))

    assert emit.gone is False and len(socket.sent) == 3
