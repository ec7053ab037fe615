"""Small things every layer shares: the UTC clock, the strict input model, the blank-text check and
the field types used across packages. Imports nothing from Credence."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

# A belief's category (docs/beliefs.md §1): it sets the moral asymmetry of its outcome updates.
Category = Literal["aesthetic", "contextual", "relational", "ethical"]
# A probability-like value in [0, 1] (strength, confidence, trust, ...).
Unit = Annotated[float, Field(ge=0.0, le=1.0)]


class StrictModel(BaseModel):
    """An input model that refuses unknown fields and trims the white space around strings."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


def utc_now(now: datetime | None = None) -> datetime:
    """``now`` as an aware UTC time (a naive one is read as UTC), or the current time if None."""
    if now is None:
        return datetime.now(UTC)
    return now if now.tzinfo is not None else now.replace(tzinfo=UTC)


def not_blank(value: str | None) -> str | None:
    """A field validator: refuses text that is only white space, returns it trimmed; None passes
    (an optional field left empty)."""
    if value is None:
        return None
    if not value.strip():
        raise ValueError("must not be blank")
    return value.strip()


def not_null(value: str | None) -> str:
    """A field validator for partial updates: an explicit null is refused (leave the field out to
    keep its value); otherwise as ``not_blank``."""
    if value is None:
        raise ValueError("may not be null (leave the field out to keep it)")
    checked = not_blank(value)
    assert checked is not None
    return checked
