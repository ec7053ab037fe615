"""The WebSocket protocol ``credence serve`` runs: uvicorn's (on the ``websockets`` library),
whose refusal of a message over the body limit sends the ``body_too_large`` error frame first.

uvicorn gives the library the limit (``ws_max_size``, CREDENCE_API__MAX_BODY_BYTES), and the
library refuses a frame longer than what is left of it from the frame's header, before reading
its payload, and fails the socket with 1009 (message too big) at once: the app never sees the
message, so the frame ``BodyLimit`` sends for one it does see never went out. Here the
connection sends that frame (``app.api.errors.socket_error_frame``, the code and message of the
HTTP 413 for a body of no declared length) just before the close frame. The rest of the
oversized message is never read, so the socket cannot stay open after it: it closes with 1009.
"""

from __future__ import annotations

import json
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import CloseCode
from websockets.protocol import State
from websockets.server import ServerProtocol

from app.api.errors import socket_error_frame
from app.errors import BodyTooLarge


class RefusingServerProtocol(ServerProtocol):
    """A websockets connection that says why before it closes a socket for a message too big."""

    def fail(self, code: CloseCode | int, reason: str = "") -> None:
        if (
            code == CloseCode.MESSAGE_TOO_BIG
            and self.state is State.OPEN
            and self.max_message_size is not None
        ):
            frame = socket_error_frame(BodyTooLarge(self.max_message_size))
            self.send_text(json.dumps(frame).encode())
        super().fail(code, reason)


class BoundedSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websockets (sans-I/O) protocol with a ``RefusingServerProtocol`` connection."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        refusing(self.conn)


def refusing(connection: ServerProtocol) -> None:
    """Makes uvicorn's connection a ``RefusingServerProtocol``. The subclass adds no state (one
    method), so the connection uvicorn built, with its extensions and limit, is kept as it is.

    Raises:
        TypeError: uvicorn's protocol no longer keeps a websockets ``ServerProtocol`` (an
            upgrade changed it): the server refuses to start rather than lose the frame.
    """
    if type(connection) is not ServerProtocol:
        raise TypeError(f"uvicorn's WebSocket connection is a {type(connection).__name__}")
    connection.__class__ = RefusingServerProtocol
