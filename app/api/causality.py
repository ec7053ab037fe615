"""The ``X-Credence-Bookmark`` header (``app/graph/causality.py``): a plain ASGI middleware that
runs each HTTP request after the bookmarks the client sent and answers with those of the
request's writes."""

from __future__ import annotations

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.errors import error_body
from app.graph.causality import HEADER, InvalidBookmark, causal_scope, parse_bookmarks

_HEADER_BYTES = HEADER.encode("latin-1")


class CausalConsistency:
    """Reads the request's bookmarks, and puts its writes' bookmarks on the response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        sent = [v.decode("latin-1") for name, v in scope["headers"] if name == _HEADER_BYTES]
        try:
            after = parse_bookmarks(",".join(sent) if sent else None)
        except InvalidBookmark as error:
            response = JSONResponse(
                error_body(error.code, error.message, error.details), status_code=422
            )
            await response(scope, receive, send)
            return
        with causal_scope(after) as written:

            async def sending(message: Message) -> None:
                if message["type"] == "http.response.start" and written:
                    headers = list(message.get("headers", []))
                    headers.append((_HEADER_BYTES, ",".join(written).encode("latin-1")))
                    message = {**message, "headers": headers}
                await send(message)

            await self.app(scope, receive, sending)
