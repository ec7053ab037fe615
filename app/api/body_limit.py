"""Bounded request bodies: a plain ASGI middleware, outside authentication, routing and JSON
parsing, that refuses a body larger than ``CREDENCE_API__MAX_BODY_BYTES`` with 413
``body_too_large`` before reading it.

- A declared ``Content-Length`` over the limit is answered at once: not a byte of the body is
  read, and the server closes the connection after the answer.
- A body without a length (``Transfer-Encoding: chunked``) is read here, chunk by chunk, until it
  ends (then the app gets it) or passes the limit (then the app is never called).
- A WebSocket message over the limit gets an error frame (``app.api.errors.socket_error_frame``)
  and the socket is closed with 1009 (message too big); the app sees a disconnect. Under
  ``credence serve`` uvicorn refuses such a message from its frame header, before it is read,
  and sends the same frame first (``app.api.socket_protocol``); this is the bound for any
  other server.

The bulk uploads (an episode import, research source files) have their own, larger bound
(``CREDENCE_API__MAX_UPLOAD_BODY_BYTES``). The MCP transport at ``/mcp`` is an ordinary route
behind this middleware.
"""

from __future__ import annotations

import json
import re

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.errors import error_body, socket_error_frame
from app.config import ApiLimits
from app.errors import BodyTooLarge

# WebSocket close code for a message too big to process (RFC 6455).
MESSAGE_TOO_BIG = 1009
# The routes that take bulk uploads (POST), bounded by max_upload_body_bytes.
UPLOAD_PATHS = (
    re.compile(r"^/v1/agents/[^/]+/episodes/?$"),
    re.compile(r"^/v1/agents/[^/]+/research/sources/?$"),
)


class BodyLimit:
    """Refuses request bodies and WebSocket messages over the configured limits."""

    def __init__(self, app: ASGIApp, limits: ApiLimits) -> None:
        self.app = app
        self.limits = limits

    def limit_for(self, scope: Scope) -> int:
        """The most bytes this request's body may carry."""
        if scope.get("method") == "POST" and any(p.match(scope["path"]) for p in UPLOAD_PATHS):
            return max(self.limits.max_upload_body_bytes, self.limits.max_body_bytes)
        return self.limits.max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self.app(scope, self._bounded_socket(receive, send), send)
        else:
            await self.app(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        limit = self.limit_for(scope)
        declared = _content_length(scope)
        if declared is not None:
            if declared > limit:
                await _refuse(scope, receive, send, BodyTooLarge(limit, declared))
                return
            # The server delivers no more than the declared length.
            await self.app(scope, receive, send)
            return
        # No length (chunked, or no body at all): read it here, at most `limit` bytes.
        buffered: list[Message] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before its body ended
            size += len(message.get("body", b""))
            if size > limit:
                await _refuse(scope, receive, send, BodyTooLarge(limit))
                return
            buffered.append(message)
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            return buffered.pop(0) if buffered else await receive()

        await self.app(scope, replay, send)

    def _bounded_socket(self, receive: Receive, send: Send) -> Receive:
        limit = self.limits.max_body_bytes

        async def bounded() -> Message:
            message = await receive()
            if message["type"] != "websocket.receive":
                return message
            text = message.get("text")
            size = len(text.encode()) if text is not None else len(message.get("bytes") or b"")
            if size <= limit:
                return message
            frame = socket_error_frame(BodyTooLarge(limit, size))
            await send({"type": "websocket.send", "text": json.dumps(frame)})
            await send({"type": "websocket.close", "code": MESSAGE_TOO_BIG})
            return {"type": "websocket.disconnect", "code": MESSAGE_TOO_BIG}

        return bounded


def _content_length(scope: Scope) -> int | None:
    for name, value in scope["headers"]:
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None  # the server refuses a malformed length itself
    return None


async def _refuse(scope: Scope, receive: Receive, send: Send, error: BodyTooLarge) -> None:
    # Connection: close, since the rest of the body is never read.
    response = JSONResponse(
        error_body(error.code, error.message, error.details),
        status_code=413,
        headers={"Connection": "close"},
    )
    await response(scope, receive, send)
