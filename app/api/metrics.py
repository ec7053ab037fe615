"""Request metrics: a plain ASGI middleware (it never buffers a response, so streamed answers,
the WebSocket and the MCP transport pass through untouched) and the ``/metrics`` route."""

from __future__ import annotations

import time

from fastapi import APIRouter, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.metrics import exposition, observe_request

# The methods counted by name; any other (the client's own word) is counted as "other", so a
# client cannot add series by making methods up.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


# nginx's status for a request whose client closed the connection before it was answered: not
# a server error, and nothing was sent (the server's answer, if it makes one, goes nowhere).
CLIENT_CLOSED_REQUEST = 499


class RequestMetrics:
    """Counts every HTTP request by method (one of ``METHODS``, else "other"), route template
    and status, and times it. A client that disconnects before the answer starts (part-way
    through its body, or while it waits) is counted ``CLIENT_CLOSED_REQUEST``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500  # what the client gets when the app raises before answering
        answered = client_gone = False

        async def receiving() -> Message:
            nonlocal client_gone
            message = await receive()
            if message["type"] == "http.disconnect" and not answered:
                client_gone = True
            return message

        async def sending(message: Message) -> None:
            nonlocal status, answered
            if message["type"] == "http.response.start":
                status, answered = message["status"], True
            await send(message)

        try:
            await self.app(scope, receiving, sending)
        finally:
            route = _route_label(scope)
            method = scope["method"] if scope["method"] in METHODS else "other"
            if client_gone:
                status = CLIENT_CLOSED_REQUEST
            observe_request(method, route, status, time.perf_counter() - started)


def _route_label(scope: Scope) -> str:
    """The route's template: the router puts FastAPI's routes in the scope, and its template
    keeps ids out of the labels. A plain Starlette route (the OpenAPI document and its pages)
    leaves only its endpoint: one without path parameters is labelled by its path. A request
    no route matched is counted as "unmatched"."""
    template = getattr(scope.get("route"), "path", None)
    if isinstance(template, str):
        return template
    if "endpoint" in scope and not scope.get("path_params"):
        return str(scope["path"])
    return "unmatched"


router = APIRouter(tags=["health"])


@router.get("/metrics", response_class=Response)
async def metrics() -> Response:
    """Prometheus metrics: requests and latencies per route, turn phases, reasoner calls and
    tokens, revisions, Neo4j errors."""
    body, content_type = exposition()
    return Response(body, media_type=content_type)
