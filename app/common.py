"""Small things every layer shares: the UTC clock, the strict input model, the blank-text check and
the field types used across packages. Imports nothing from Credence."""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, AllowInfNan, BaseModel, ConfigDict, Field, Strict

# A belief's category (docs/beliefs.md §1): it sets the moral asymmetry of its outcome updates.
Category = Literal["aesthetic", "contextual", "relational", "ethical"]
# A probability-like value in [0, 1] (strength, confidence, trust, ...). Lax: a setting read from
# the environment is text ("0.6"); what a request body or a pack document gives is a StrictUnit.
Unit = Annotated[float, Field(ge=0.0, le=1.0)]

# A number of a JSON document (a request body's field, a pack document's), as StrictBool and
# StrictInt are for booleans and integers: a float or an integer (`1` is a float), never a string
# ("0.8") or a boolean, and finite (JSON's NaN and Infinity, and 1e400, which reads as infinity,
# are refused). Query parameters stay lax: a query string is text.
StrictNumber = Annotated[float, Strict(), AllowInfNan(False)]
# A probability-like value in [0, 1] given as input.
StrictUnit = Annotated[StrictNumber, Field(ge=0.0, le=1.0)]


# The largest paging offset a list takes (REST's `skip`, MCP's): bounded so that a huge number
# is refused naming the parameter, not a database error (no agent holds ten million items of one
# kind).
MAX_SKIP = 10_000_000

# The years an input time may name: the graph, the driver and the calendar arithmetic (a month's
# last day, a 30-day window) all work well inside them; a time outside is refused as invalid input.
INSTANT_YEARS = (1000, 8999)


def _instant(value: datetime) -> datetime:
    """An input time as an aware one (a naive time is read as UTC), refused outside
    :data:`INSTANT_YEARS`."""
    first, last = INSTANT_YEARS
    if not first <= value.year <= last:
        raise ValueError(f"must be a time between the years {first} and {last}")
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


# A time given as input (an episode's occurred_at, a "since", an "as of"): aware, in range.
Instant = Annotated[datetime, AfterValidator(_instant)]


class StrictModel(BaseModel):
    """An input model that refuses unknown fields and trims the white space around strings."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


def utc_now(now: datetime | None = None) -> datetime:
    """``now`` as an aware UTC time (a naive one is read as UTC), or the current time if None."""
    if now is None:
        return datetime.now(UTC)
    return now if now.tzinfo is not None else now.replace(tzinfo=UTC)


# C0 control characters and DEL, except tab, line feed and carriage return: no name, statement
# or message needs them, and they garble every place that shows the text (Browser, a terminal,
# logs). The API refuses them in the bodies it is sent (app/api/control_characters.py).
CONTROL_CHARACTER = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def control_character_problem(value: str) -> str | None:
    """Why ``value`` may not be taken (its first control character and where), or None."""
    found = CONTROL_CHARACTER.search(value)
    if found is None:
        return None
    return (
        f"must not contain control characters (U+{ord(found.group()):04X} at position "
        f"{found.start()})"
    )


def no_control_characters(value: str | None) -> str | None:
    """A field validator: refuses text with a control character (for messages that do not come
    through a JSON body, e.g. a WebSocket's); None passes."""
    if value is not None:
        problem = control_character_problem(value)
        if problem is not None:
            raise ValueError(problem)
    return value


# What a one-line text (a speaker, a person's role) may not hold: every C0 control character
# (tab and line breaks included), DEL, the C1 controls and the Unicode line and paragraph
# separators. Such a text is shown inside a line (Claude's system prompt, a CLI table), where a
# line break would start a line of its own.
LINE_BREAKING = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def one_line(value: str | None) -> str | None:
    """A field validator: refuses text with a control character or a line break (its first one
    and where); None passes."""
    if value is not None:
        found = LINE_BREAKING.search(value)
        if found is not None:
            raise ValueError(
                f"must be one line without control characters (U+{ord(found.group()):04X} at "
                f"position {found.start()})"
            )
    return value


def not_blank(value: str | None) -> str | None:
    """A field validator: refuses text that shows nothing (only white space and invisible format
    characters such as a zero-width space), returns it trimmed; None passes (an optional field
    left empty)."""
    if value is None:
        return None
    if not shows_something(value):
        raise ValueError("must not be blank")
    return value.strip()


def shows_something(text: str) -> bool:
    """Whether ``text`` holds a character that is neither white space nor an invisible format
    character (Unicode category Cf: a zero-width space or joiner, a direction mark)."""
    return any(not c.isspace() and unicodedata.category(c) != "Cf" for c in text)


def not_null(value: str | None) -> str:
    """A field validator for partial updates: an explicit null is refused (leave the field out to
    keep its value); otherwise as ``not_blank``."""
    if value is None:
        raise ValueError("may not be null (leave the field out to keep it)")
    checked = not_blank(value)
    assert checked is not None
    return checked
