"""A tool call's arguments against the tool's input schema (the JSON Schema its server lists),
before the call is routed: a call the server would refuse is a 422 naming the argument, not a
proposal that fails at the server after its approval (three tries, each lowering the agent's
belief in the tool). A schema the validator cannot read checks nothing: the server decides."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from jsonschema import exceptions, validators
from jsonschema.protocols import Validator

from app.errors import InvalidInput


def check_arguments(qualified_name: str, schema_text: str | None, arguments: Any) -> None:
    """Raises InvalidInput naming the first argument the tool's schema refuses (its location
    under ``arguments``)."""
    validator = _validator(schema_text or "")
    if validator is None:
        return
    error = exceptions.best_match(validator.iter_errors(arguments))  # the most telling one
    if error is None:
        return
    where = ["arguments", *error.path]
    raise InvalidInput(
        f"{qualified_name} refuses these arguments: {'.'.join(map(str, where))}: {error.message}",
        errors=[
            {"location": ["body", *where], "message": error.message[:500], "type": "schema_error"}
        ],
    )


@lru_cache(maxsize=256)
def _validator(schema_text: str) -> Validator | None:
    try:
        schema = json.loads(schema_text) if schema_text else None
    except ValueError:
        return None
    if not isinstance(schema, dict) or not schema:
        return None
    try:
        cls = validators.validator_for(schema)
        cls.check_schema(schema)
    except exceptions.SchemaError:
        return None
    return cls(schema)
