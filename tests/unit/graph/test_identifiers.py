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

    details = raised.value.details
    assert (details["kind"], details["value"]) == ("relationship type", value)
    assert "relationship type" in raised.value.message
    # One entry like every other 422's (docs/api.md "Error entries"), at the kind by default.
    assert details["errors"] == [
        {
            "location": ["relationship_type"],
            "message": raised.value.message,
            "type": "invalid_identifier",
        }
    ]


def test_an_invalid_identifier_is_located_where_the_caller_says() -> None:
    raised = InvalidIdentifier("label", "x;y", location=["body", "label"])

    assert [entry["location"] for entry in raised.details["errors"]] == [["body", "label"]]
