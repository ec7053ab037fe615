"""A tool call's arguments against the tool's input schema (app/reasoning/tool_arguments.py),
before the call is routed: a call asked for (``POST /actions``, the ``call`` syntax) that the
server would refuse is a 422 naming the argument, not a proposal that fails at the server after
its approval (three tries, each lowering the agent's belief in the tool). A call a reasoner
proposes passes the same check in app/loop/tool_routing.py, where a refusal is said in the turn's
answer instead."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.errors import InvalidInput
from app.graph.client import GraphClient
from app.reasoning.protocol import ToolCall
from app.reasoning.tool_arguments import SchemaRefusal, non_finite_refusal, schema_refusal
from app.tools.calls import CallSource


def check_arguments(
    qualified_name: str,
    schema: str | Mapping[str, Any] | None,
    arguments: Any,
    where: Sequence[str | int] = ("body",),
    *,
    in_text: bool = False,
) -> None:
    """Raises InvalidInput naming the argument the tool's schema (JSON text or parsed) refuses
    (its location: ``where``, then ``arguments`` and the argument's path; or ``where`` alone
    for a call written ``in_text``, a message's, the argument named in the entry's text)."""
    refusal = schema_refusal(schema, arguments)
    if refusal is not None:
        raise _refused(qualified_name, refusal, where, in_text=in_text)


def check_call_arguments(
    call: ToolCall, schema: str | Mapping[str, Any] | None, source: CallSource
) -> None:
    """:func:`check_arguments` of a call asked for, its refusal located where ``source`` says
    the call was written (a chat message, POST /actions's body)."""
    check_arguments(
        call.qualified_name, schema, call.arguments, source.where, in_text=source.in_text
    )


def check_finite_arguments(call: ToolCall, where: Sequence[str | int]) -> None:
    """Raises InvalidInput naming the first number of the call's arguments that is not finite
    (JSON has none: the check every call passes refuses it too), for a call to be refused
    before anything is written for it."""
    refusal = non_finite_refusal(call.arguments)
    if refusal is not None:
        raise _refused(call.qualified_name, refusal, where)


def _refused(
    qualified_name: str,
    refusal: SchemaRefusal,
    where: Sequence[str | int],
    *,
    in_text: bool = False,
) -> InvalidInput:
    # A message's text has no fields to point into: the entry names the argument in its words.
    location = [*where] if in_text else [*where, *refusal.location]
    return InvalidInput(
        refusal_sentence(qualified_name, refusal),
        errors=[
            {
                "location": location,
                "message": str(refusal) if in_text else refusal.message,
                "type": refusal.type,
            }
        ],
    )


def refusal_sentence(qualified_name: str, refusal: SchemaRefusal) -> str:
    """``ledger.read_query refuses these arguments: arguments.limit: 'ten' is not of type
    'integer'``."""
    return f"{qualified_name} refuses these arguments: {refusal}"


async def check_stored_arguments(
    graph: GraphClient, agent_id: str, call: ToolCall, where: Sequence[str | int]
) -> bool:
    """The check of ``call`` against its tool's schema as the graph holds it now (an approved
    call runs after the proposal's check: the schema may have changed since, and a person's
    modified call was never checked). False when the agent no longer has the tool (its
    connection removed, or connected again to a server without it): the call is not to be
    made.

    Raises:
        InvalidInput: the schema refuses the arguments.
    """
    rows = await graph.read(
        "tools/get_tool_input_schema", agent_id=agent_id, qualified_name=call.qualified_name
    )
    if not rows:
        return False
    check_arguments(call.qualified_name, rows[0]["input_schema"], call.arguments, where)
    return True
