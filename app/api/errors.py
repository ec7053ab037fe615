"""The JSON error model of docs/architecture.md §8: ``{"error": {"code", "message", "details"}}``.

Domain errors become HTTP statuses here and only here. An unexpected exception is logged with
its traceback and answered with a 500 in the same shape; the traceback never reaches the client.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError, WebSocketRequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.api.trailing_slash import path_without_slash
from app.errors import (
    AgentForbidden,
    ApprovalNotAuthorized,
    AuthenticationRequired,
    Conflict,
    CredenceError,
    EnrichmentFailed,
    EnrichmentTimedOut,
    GraphBusy,
    GraphUnavailable,
    InvalidInput,
    NotFound,
    NotReady,
    PayloadTooLarge,
    ToolServerFailed,
    validation_entries,
)
from app.memory.reflection.models import ReflectionFailed

log = logging.getLogger(__name__)

# Most specific first; the first class an error is an instance of decides its status.
_STATUS_BY_ERROR: tuple[tuple[type[CredenceError], int], ...] = (
    (InvalidInput, 422),
    (PayloadTooLarge, 413),
    (NotFound, 404),
    (Conflict, 409),
    (AuthenticationRequired, 401),
    (AgentForbidden, 403),
    (ApprovalNotAuthorized, 403),
    (GraphUnavailable, 503),
    (NotReady, 503),
    (ToolServerFailed, 502),
    (EnrichmentTimedOut, 504),
    (EnrichmentFailed, 502),
    (ReflectionFailed, 502),
)
# When a client may try a 503 again (seconds): a busy graph clears quickly, an unreachable one
# (restarting) takes longer.
_RETRY_AFTER: tuple[tuple[type[CredenceError], int], ...] = (
    (GraphBusy, 1),
    (GraphUnavailable, 5),
    (NotReady, 5),
)


def status_for(error: CredenceError) -> int:
    for error_type, status in _STATUS_BY_ERROR:
        if isinstance(error, error_type):
            return status
    return 500


def socket_error_frame(error: CredenceError) -> dict[str, Any]:
    """The frame a WebSocket sends for a domain error (chat, investigation steps)."""
    return {
        "type": "error",
        "error": {
            "code": error.code,
            "status": status_for(error),
            "message": error.message,
            "details": jsonable_encoder(error.details),
        },
    }


def error_body(code: str, message: str, details: Any = None) -> dict[str, Any]:
    return {
        "error": {
            "code": code,
            "message": message,
            "details": jsonable_encoder(details if details is not None else {}),
        }
    }


async def _credence_error(_: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, CredenceError)
    status = status_for(error)
    if status >= 500:
        log.error("%s: %s", error.code, error.message)
    retry_after = next((s for t, s in _RETRY_AFTER if isinstance(error, t)), None)
    return JSONResponse(
        error_body(error.code, error.message, error.details),
        status_code=status,
        headers={"Retry-After": str(retry_after)} if retry_after is not None else None,
    )


async def _validation_error(_: Request, error: Exception) -> JSONResponse:
    """A 422 naming each bad field. A WebSocket's malformed path or query gets it too, as the
    handshake's answer (Starlette sends it as the denial response): FastAPI's own handler
    closed with 1008 and the raw errors, input included, as the reason, which uvicorn turns
    into a bare 403."""
    assert isinstance(error, RequestValidationError | WebSocketRequestValidationError)
    problems = validation_entries(error.errors())
    summary = "; ".join(
        f"{'.'.join(str(p) for p in item['location'])}: {item['message']}" for item in problems
    )
    return JSONResponse(
        error_body("invalid_input", f"invalid request: {summary}", {"errors": problems}),
        status_code=422,
    )


async def _http_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, StarletteHTTPException)
    code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "http_error")
    meant = path_without_slash(request) if error.status_code == 404 else None
    if meant is not None:
        message = f"no route at {request.scope['path']}: paths take no trailing slash, use {meant}"
        body = error_body(code, message, {"path": meant})
    else:
        body = error_body(code, str(error.detail))
    return JSONResponse(body, status_code=error.status_code, headers=error.headers)


async def _unexpected_error(request: Request, error: Exception) -> JSONResponse:
    log.exception("unhandled error in %s %s", request.method, request.url.path, exc_info=error)
    return JSONResponse(
        error_body("internal_error", "an internal error occurred; it has been logged"),
        status_code=500,
    )


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(CredenceError, _credence_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(WebSocketRequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _unexpected_error)
