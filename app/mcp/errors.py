"""Errors as an MCP client sees them: REST's JSON error body, ``{"error": {"code", "message",
"details"}}``, with the same code and message. A tool's is the whole text of a tool error
(``isError: true``); a resource's or a prompt's is the message of the JSON-RPC error (and its
``data``). Bad arguments name the field. Nothing a call does crashes the server."""

from __future__ import annotations

import json
from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS, CallToolResult, TextContent
from pydantic import ValidationError
from pydantic_core import to_jsonable_python

from app.errors import CredenceError, InvalidInput, validation_entries

# What REST answers for a server error (app/api/errors.py); a tool that crashed says the same.
INTERNAL_ERROR_BODY = {
    "error": {
        "code": "internal_error",
        "message": "an internal error occurred; it has been logged",
        "details": {},
    }
}


def error_body(error: CredenceError) -> dict[str, Any]:
    body = {"error": {"code": error.code, "message": error.message, "details": error.details}}
    jsonable: dict[str, Any] = to_jsonable_python(body, fallback=str)
    return jsonable


def error_text(error: CredenceError) -> str:
    return json.dumps(error_body(error))


def tool_error(error: CredenceError) -> CallToolResult:
    """A tool call's answer for ``error``: a tool error whose text is REST's body."""
    return CallToolResult(content=[TextContent(type="text", text=error_text(error))], is_error=True)


def invalid_params(error: CredenceError) -> MCPError:
    """A prompt's or a resource's refusal of its arguments: a JSON-RPC invalid-params error
    whose message is REST's body (and its data the body itself)."""
    return MCPError(INVALID_PARAMS, error_text(error), data=error_body(error))


def invalid_input(error: ValidationError) -> InvalidInput:
    """A model built from a tool's arguments refused them: the same ``invalid_input`` REST
    answers, each problem at its field (the tool's arguments share the model's field names)."""
    problems = validation_entries(error.errors(include_url=False))
    summary = "; ".join(
        f"{'.'.join(str(p) for p in item['location'])}: {item['message']}" for item in problems
    )
    return InvalidInput(f"invalid request: {summary}", errors=problems)


class ToolErrorBodies:
    """SDK middleware: a tool error's text is REST's body and nothing else.

    A tool raises ``ToolError(error_text(...))``, and the SDK sends it as ``Error executing tool
    <name>: <text>``; this takes the prefix off, so a client parses every tool error's text as
    JSON. A tool that crashed (the SDK's bare ``Error executing tool <name>``, its cause logged)
    says what REST says for a 500."""

    async def __call__(
        self, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        result = await call_next(ctx)
        name = ctx.params.get("name") if ctx.method == "tools/call" and ctx.params else None
        # What the SDK's handler gives its middleware is already the wire form (a dict).
        if isinstance(name, str) and isinstance(result, dict) and result.get("isError"):
            content = result.get("content")
            if isinstance(content, list):
                return {**result, "content": [_body_item(name, item) for item in content]}
        return result


def _body_item(tool: str, item: Any) -> Any:
    if isinstance(item, dict) and item.get("type") == "text" and isinstance(item.get("text"), str):
        return {**item, "text": _body_text(tool, item["text"])}
    return item


def _body_text(tool: str, text: str) -> str:
    """The error body in the SDK's text of a tool error (the text itself if it holds none)."""
    prefix = f"Error executing tool {tool}"
    if text == prefix:
        return json.dumps(INTERNAL_ERROR_BODY)
    rest = text.removeprefix(f"{prefix}: ")
    if rest is text:
        return text
    try:
        body = json.loads(rest)
    except ValueError:
        return text
    return rest if isinstance(body, dict) and "error" in body else text
