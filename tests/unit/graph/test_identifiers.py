"""Identifier validation for labels, relationship types and property names."""

from __future__ import annotations

import pytest

from app.errors import InvalidIdentifier
from app.graph.identifiers import quote_identifier, validate_identifier


@pytest.mark.parametrize("value", ["Belief", "SUPPORTS", "is_active", "a1", "X" * 64])
def test_valid_identifiers_pass_and_are_backticked(value: str) -> None:
    assert validate_identifier(value, "label") == value
    assert quote_identifier(value, "label") == f"`{value}`"


@pytest.mark.parametrize(
    "value",
    [
        "",
        "1Belief",
        "_x",
        "Be lief",
        "Belief`) DETACH DELETE (n",
        "a-b",
        "naïve",
        "X" * 65,
        "Belief\n",
        "x;y",
    ],
)
def test_unsafe_identifiers_raise_a_typed_error(value: str) -> None:
    with pytest.raises(InvalidIdentifier) as raised:
        quote_identifier(value, "relationship type")

    assert raised.value.details == {"kind": "relationship type", "value": value}
    assert "relationship type" in raised.value.message
