"""Labels, relationship types and property names cannot be query parameters.

Where one must be put into a query, it is checked here against a strict pattern and backticked.
"""

from __future__ import annotations

import re
from typing import Literal

from app.errors import InvalidIdentifier

IdentifierKind = Literal["label", "relationship type", "property"]

_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,63}")


def validate_identifier(value: str, kind: IdentifierKind) -> str:
    """Returns ``value`` unchanged if it is a safe identifier.

    Raises:
        InvalidIdentifier: anything but letters, digits and underscores, starting with a letter,
            at most 64 characters.
    """
    if not isinstance(value, str) or not _IDENTIFIER.fullmatch(value):
        raise InvalidIdentifier(kind, str(value))
    return value


def quote_identifier(value: str, kind: IdentifierKind) -> str:
    """The validated identifier in backticks, ready to stand in a query."""
    return f"`{validate_identifier(value, kind)}`"
