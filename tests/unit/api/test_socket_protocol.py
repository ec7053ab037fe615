"""The WebSocket connection `credence serve` runs (app/api/socket_protocol.py), sans-I/O: a
message over the limit is answered with the `body_too_large` error frame, then the close 1009,
without its payload being read. Against a real server: tests/integration/api/test_body_limit.py."""

from __future__ import annotations

import json

import pytest
from websockets.client import ClientProtocol
from websockets.frames import CloseCode, Frame, Opcode
from websockets.protocol import State
from websockets.server import ServerProtocol
from websockets.uri import parse_uri

from app.api.errors import socket_error_frame
from app.api.socket_protocol import RefusingServerProtocol, refusing
from app.errors import BodyTooLarge

LIMIT = 1024


def _server() -> ServerProtocol:
    connection = ServerProtocol(state=State.OPEN, max_size=LIMIT)
    refusing(connection)
    return connection


def _sent_by(server: ServerProtocol) -> list[Frame]:
    """The frames the server wrote, as a client reads them."""
    client = ClientProtocol(parse_uri("ws://localhost/"), state=State.OPEN, max_size=None)
    client.receive_data(b"".join(server.data_to_send()))
    return [event for event in client.events_received() if isinstance(event, Frame)]


def test_a_message_over_the_limit_gets_the_error_frame_then_1009() -> None:
    server = _server()
    # Only the header of a frame of LIMIT + 1 bytes: the payload is refused unread.
    header = Frame(Opcode.TEXT, b"x" * (LIMIT + 1)).serialize(mask=True, extensions=[])[:8]
    server.receive_data(header)

    text, close = _sent_by(server)
    assert text.opcode is Opcode.TEXT
    assert json.loads(bytes(text.data)) == socket_error_frame(BodyTooLarge(LIMIT))
    assert close.opcode is Opcode.CLOSE
    assert int.from_bytes(close.data[:2], "big") == CloseCode.MESSAGE_TOO_BIG
    assert server.state is State.CLOSING


def test_a_message_within_the_limit_passes_and_other_failures_send_no_frame() -> None:
    server = _server()
    server.receive_data(Frame(Opcode.TEXT, b"x" * LIMIT).serialize(mask=True, extensions=[]))
    [message] = server.events_received()
    assert isinstance(message, Frame)
    assert message.data == b"x" * LIMIT

    server.fail(CloseCode.PROTOCOL_ERROR, "bad frame")
    [close] = _sent_by(server)
    assert close.opcode is Opcode.CLOSE


def test_a_connection_uvicorn_no_longer_builds_as_expected_is_refused_loudly() -> None:
    """If an upgrade of uvicorn changes the connection it keeps, the server does not start
    (rather than silently losing the frame)."""
    with pytest.raises(TypeError, match="ClientProtocol"):
        refusing(ClientProtocol(parse_uri("ws://localhost/"), state=State.OPEN))  # type: ignore[arg-type]  # the wrong type, on purpose
    assert type(_server()) is RefusingServerProtocol
