"""A tool call's arguments against the tool's input schema (the JSON Schema its server lists):
the one check every call passes before it is proposed, approved or sent, whoever asked for it
(``POST /actions``, the ``call`` syntax, Claude's native tool use, the offline route). A schema
the validator cannot read checks nothing: the server decides. A number that is not finite
(``1e400`` read as infinity, ``NaN``) is refused whatever the schema: JSON has no such number, so
the server could not be sent it nor the graph keep it as it was asked for.

It lives with the reasoners because Claude's tool use reads it too (a refused call is handed
back to Claude to correct); the loop and the API read it through app/tools/argument_check.py.
"""

from __future__ import annotations

import json
import math
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
    type: str = "schema_error"  # the error entry's type (docs/api.md, "Error entries")

    @property
    def location(self) -> list[str | int]:
        return ["arguments", *self.path]

    def __str__(self) -> str:
        return f"{'.'.join(map(str, self.location))}: {self.message}"


def schema_refusal(schema: str | Mapping[str, Any] | None, arguments: Any) -> SchemaRefusal | None:
    """How ``arguments`` fail the tool's input ``schema`` (its JSON text, as the graph keeps it,
    or the parsed object), or None when they pass (or the schema cannot be read); a number that
    is not finite fails any schema."""
    non_finite = non_finite_refusal(arguments)
    if non_finite is not None:
        return non_finite
    if isinstance(schema, Mapping):
        schema = json.dumps(schema, sort_keys=True) if schema else None
    validator = _validator(schema or "")
    if validator is None:
        return None
    error = exceptions.best_match(validator.iter_errors(arguments))
    if error is None:
        return None
    # absolute_path: a refusal found inside an anyOf / oneOf member is named from the top.
    path = tuple(error.absolute_path)
    return SchemaRefusal(path=path, message=error.message[:REFUSAL_CHARS])


def non_finite_refusal(arguments: Any) -> SchemaRefusal | None:
    """The first number in ``arguments`` (in document order) that is infinite or NaN, which no
    JSON text can hold; None when every number is finite."""
    stack: list[tuple[tuple[str | int, ...], Any]] = [((), arguments)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, float) and not math.isfinite(value):
            shown = "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
            return SchemaRefusal(
                path=path,
                message=f"{shown} is not a JSON number: a call's arguments take finite numbers"
                " only (a literal such as 1e400 is read as Infinity)",
                type="number_not_finite",
            )
        if isinstance(value, Mapping):
            children = [((*path, key), child) for key, child in value.items()]
        elif isinstance(value, list | tuple):
            children = [((*path, index), child) for index, child in enumerate(value)]
        else:
            continue
        stack.extend(reversed(children))
    return None


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
