"""A tool call's arguments against the tool's input schema (app/reasoning/tool_arguments.py),
before the call is routed: a call asked for (``POST /actions``, the ``call`` syntax) that the
server would refuse is a 422 naming the argument, not a proposal that fails at the server after
its approval (three tries, each lowering the agent's belief in the tool). A call a reasoner
proposes passes the same check in app/loop/tool_routing.py, where a refusal is said in the turn's
answer instead."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.errors import InvalidInput
from app.reasoning.tool_arguments import SchemaRefusal, schema_refusal


def check_arguments(
    qualified_name: str, schema: str | Mapping[str, Any] | None, arguments: Any
) -> None:
    """Raises InvalidInput naming the argument the tool's schema (JSON text or parsed) refuses
    (its location under ``arguments``)."""
    refusal = schema_refusal(schema, arguments)
    if refusal is None:
        return
    raise InvalidInput(
        refusal_sentence(qualified_name, refusal),
        errors=[
            {
                "location": ["body", *refusal.location],
                "message": refusal.message,
                "type": "schema_error",
            }
        ],
    )


def refusal_sentence(qualified_name: str, refusal: SchemaRefusal) -> str:
    """``ledger.read_query refuses these arguments: arguments.limit: 'ten' is not of type
    'integer'``."""
    return f"{qualified_name} refuses these arguments: {refusal}"
