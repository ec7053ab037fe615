"""Tool calls as work units: the documented message syntax that asks for one, the work unit it
becomes, and what a call's result means for verification.

The syntax (a chat message, or what ``POST /actions`` writes for its body)::

    call <connection>.<tool> {"argument": "value", ...}

``call`` then the tool's qualified name, then a JSON object of arguments (optional when the tool
takes none). A message in this form is routed to that tool, offline or with Claude; any other
message is an ordinary turn.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.errors import InvalidInput, error_entry
from app.reasoning.protocol import ExecutionResult, ToolCall, WorkUnit

if TYPE_CHECKING:
    # Annotations only: the MCP SDK is imported where a server is reached (app/tools/clients.py).
    import mcp_types as types

CALL_VERB = "call_tool"
_CALL = re.compile(
    r"^\s*(?i:call)\s+(?P<connection>[a-z][a-z0-9_-]{0,39})\.(?P<tool>[A-Za-z0-9_.-]{1,128})"
    r"(?:\s+(?P<arguments>[\[{].*))?\s*$",
    re.DOTALL,
)
# A result that says it failed in its words, though the server did not set isError (e.g.
# mcp-server-sqlite answers "Database error: ..." as an ordinary result).
_ERROR_TEXT = re.compile(r"^\s*(?:[A-Za-z]+\s+)?(?:error|exception)\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class CallSource:
    """Where a call asked for was written, so that a refusal of its arguments is located there.

    Args:
        where: the input's location: the message's (``["body", "message"]`` for ``POST
            /chat``, ``["message"]`` for a WebSocket frame or an MCP tool's argument), or the
            JSON object whose ``arguments`` field holds them (``["body"]`` for ``POST
            /actions``).
        in_text: the call is written in a message's text: a refusal is located at the
            message, the argument named in the entry's text (``arguments.limit: ...``), since
            the message has no fields to point into; else at ``[*where, "arguments", ...]``.
    """

    where: tuple[str | int, ...]
    in_text: bool


# A call in a message's ``call`` syntax, the message a field of the input (a WebSocket frame, an
# MCP tool's arguments, a scenario's turn); POST /chat's, in the request's body; POST /actions's,
# an object of the body.
MESSAGE_CALL = CallSource(("message",), in_text=True)
CHAT_BODY_CALL = CallSource(("body", "message"), in_text=True)
ACTION_BODY_CALL = CallSource(("body",), in_text=False)


def parse_tool_call(message: str, source: CallSource = MESSAGE_CALL) -> ToolCall | None:
    """The tool call a message asks for in the documented syntax, else None.

    Args:
        source: where the message is, the location of a refusal.

    Raises:
        InvalidInput: it has the form of a call, but its arguments are not a JSON object.
    """
    found = _CALL.match(message)
    if found is None:
        return None
    raw = found.group("arguments")
    where = list(source.where)
    try:
        arguments = json.loads(raw) if raw else {}
    except json.JSONDecodeError as error:
        raise InvalidInput(
            f"the arguments of the tool call are not valid JSON: {error.msg}",
            errors=[error_entry(where, f"arguments: {error}", "json_invalid")],
        ) from error
    except RecursionError as error:
        raise _too_deep(where) from error
    if not isinstance(arguments, dict):
        raise InvalidInput(
            "the arguments of a tool call are a JSON object",
            errors=[error_entry(where, "arguments must be a JSON object", "dict_type")],
        )
    if json_depth(arguments) > MAX_ARGUMENT_DEPTH:
        raise _too_deep(where)
    return ToolCall(
        connection=found.group("connection"), tool=found.group("tool"), arguments=arguments
    )


# The deepest nesting a call's arguments may have (objects and lists within each other): deeper
# ones are refused, not walked (the guardian reads every string inside them).
MAX_ARGUMENT_DEPTH = 32


def json_depth(value: Any) -> int:
    """How deeply ``value``'s objects and lists nest (0 for a scalar), without recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
        else:
            continue
        deepest = max(deepest, depth + 1)
    return deepest


def _too_deep(where: Sequence[str | int]) -> InvalidInput:
    return InvalidInput(
        f"the arguments of a tool call nest at most {MAX_ARGUMENT_DEPTH} levels deep",
        errors=[error_entry(where, f"arguments nest deeper than {MAX_ARGUMENT_DEPTH}", "too_deep")],
    )


def call_message(call: ToolCall) -> str:
    """The message that asks for ``call`` (what ``POST /actions`` runs as its turn)."""
    return f"call {call.qualified_name} {arguments_text(call.arguments)}"


def arguments_text(arguments: dict[str, Any]) -> str:
    return json.dumps(arguments, ensure_ascii=False, default=str)


def tool_work_unit(call: ToolCall, description: str) -> WorkUnit:
    """The work unit of a tool call: the guardian reads its description, which holds the tool's
    name and its arguments as sent."""
    return WorkUnit(
        verb=CALL_VERB,
        entities=[call.qualified_name],
        constraints=[description[:300]] if description else [],
        description=call_description(call),
        confidence=1.0,
        reasoner="loop",
        call=call,
    )


def call_description(call: ToolCall) -> str:
    """``call ledger.write_query with {"query": "…"}``: what a call's work unit says it does."""
    return f"call {call.qualified_name} with {arguments_text(call.arguments)}"


def described_as_called(unit: WorkUnit) -> WorkUnit:
    """``unit`` saying the call it makes: a person's modified call keeps the proposal's words
    (its description, verb and entities name the arguments proposed), so whatever describes the
    unit — the guardian's reading, the answer, the decision — would describe a call that did not
    run. A unit without a call is as it was."""
    if unit.call is None:
        return unit
    return unit.model_copy(
        update={
            "verb": CALL_VERB,
            "entities": [unit.call.qualified_name],
            "description": call_description(unit.call),
        }
    )


def result_text(result: types.CallToolResult) -> str:
    """The result's content as text (text blocks as they are, other blocks by their kind)."""
    parts: list[str] = []
    for block in result.content:
        text = getattr(block, "text", None)
        parts.append(text if isinstance(text, str) else f"[{getattr(block, 'type', 'content')}]")
    if not parts and result.structured_content is not None:
        parts.append(json.dumps(result.structured_content, default=str))
    return "\n".join(parts)


def execution_of(
    call: ToolCall, result: types.CallToolResult, duration_ms: float, limit: int
) -> ExecutionResult:
    """A call's result as an execution: failed when the server set ``isError`` or the content
    says it is an error; the output carries what verification reads."""
    text = result_text(result)
    failed = bool(result.is_error) or bool(_ERROR_TEXT.match(text))
    summary = text if len(text) <= limit else text[: limit - 1] + "…"
    return ExecutionResult(
        status="failed" if failed else "executed",
        output={
            "tool": call.qualified_name,
            "is_error": bool(result.is_error),
            "content": summary,
            "duration_ms": round(duration_ms, 3),
            **({"error": summary} if failed else {}),
        },
        message=(
            f"{call.qualified_name} failed: {summary}"
            if failed
            else f"{call.qualified_name} answered: {summary}"
        ),
    )


def not_called(call: ToolCall, why: str) -> ExecutionResult:
    """A call that was not made (nothing was sent, so the tool did nothing): recorded, not
    executed, with ``why``."""
    return ExecutionResult(
        status="recorded_not_executed",
        output={"tool": call.qualified_name, "error": why},
        message=f"{call.qualified_name} was not called: {why}",
    )


def gone(call: ToolCall) -> str:
    """Why a call of a tool the agent no longer has is not made."""
    return (
        f"the agent no longer has the tool {call.qualified_name} (its connection "
        f"{call.connection!r} was removed, or no longer offers it)"
    )
