"""A tool call's arguments against the tool's input schema (the JSON Schema its server lists):
the one check every call passes before it is proposed, approved or sent, whoever asked for it
(``POST /actions``, the ``call`` syntax, Claude's native tool use, the offline route). A schema
the validator cannot read checks nothing: the server decides.

It lives with the reasoners because Claude's tool use reads it too (a refused call is handed
back to Claude to correct); the loop and the API read it through app/tools/argument_check.py.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from jsonschema import exceptions, validators
from jsonschema.protocols import Validator

# A refusal's message is cut to this many characters (a schema's message may quote a long value).
REFUSAL_CHARS = 500


@dataclass(frozen=True, slots=True)
class SchemaRefusal:
    """The most telling way the arguments fail the schema (jsonschema's ``best_match``)."""

    path: tuple[str | int, ...]  # where, under ``arguments``
    message: str

    @property
    def location(self) -> list[str | int]:
        return ["arguments", *self.path]

    def __str__(self) -> str:
        return f"{'.'.join(map(str, self.location))}: {self.message}"


def schema_refusal(schema: str | Mapping[str, Any] | None, arguments: Any) -> SchemaRefusal | None:
    """How ``arguments`` fail the tool's input ``schema`` (its JSON text, as the graph keeps it,
    or the parsed object), or None when they pass (or the schema cannot be read)."""
    if isinstance(schema, Mapping):
        schema = json.dumps(schema, sort_keys=True) if schema else None
    validator = _validator(schema or "")
    if validator is None:
        return None
    error = exceptions.best_match(validator.iter_errors(arguments))
    if error is None:
        return None
    return SchemaRefusal(path=tuple(error.path), message=error.message[:REFUSAL_CHARS])


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
