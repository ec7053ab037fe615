"""The check every call's arguments pass (app/reasoning/tool_arguments.py) refuses a number that
is not finite wherever it lies, whatever the tool's schema (also none, or one it cannot read):
JSON has no such number."""

from __future__ import annotations

import json
import math

import pytest

from app.reasoning.tool_arguments import schema_refusal

SCHEMA = {"type": "object", "properties": {"n": {"type": "number"}}}


@pytest.mark.parametrize("schema", [SCHEMA, None, "not json", {}], ids=str)
def test_a_number_that_is_not_finite_is_refused_where_it_lies(
    schema: str | dict[str, object] | None,
) -> None:
    arguments = json.loads('{"n": 1.5, "rows": [{"a": 1}, {"a": [2, NaN]}], "m": 1e400}')

    refusal = schema_refusal(schema, arguments)

    assert refusal is not None
    assert refusal.location == ["arguments", "rows", 1, "a", 1]  # the first, in order
    assert refusal.type == "number_not_finite"
    assert refusal.message.startswith("NaN is not a JSON number")


def test_finite_numbers_pass() -> None:
    assert schema_refusal(SCHEMA, {"n": 1e308, "m": -math.pi, "k": [0, True, None]}) is None
