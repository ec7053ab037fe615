"""Errors as an MCP client sees them: a tool error (or a resource error) whose text is the JSON
body REST answers, ``{"error": {"code", "message", "details"}}``, with the same code and
message; bad arguments name the field. Nothing a call does crashes the server."""

from __future__ import annotations

import json

from pydantic import ValidationError
from pydantic_core import to_jsonable_python

from app.errors import CredenceError, InvalidInput, validation_entries


def error_text(error: CredenceError) -> str:
    body = {"error": {"code": error.code, "message": error.message, "details": error.details}}
    return json.dumps(to_jsonable_python(body, fallback=str))


def invalid_input(error: ValidationError) -> InvalidInput:
    """A model built from a tool's arguments refused them: the same ``invalid_input`` REST
    answers, each problem at its field (the tool's arguments share the model's field names)."""
    problems = validation_entries(error.errors(include_url=False))
    summary = "; ".join(
        f"{'.'.join(str(p) for p in item['location'])}: {item['message']}" for item in problems
    )
    return InvalidInput(f"invalid request: {summary}", errors=problems)
