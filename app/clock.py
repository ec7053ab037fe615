"""The time a process reads: the system's, or a fixed instant in tests (never the wall clock)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    """The system's time, aware and in UTC."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class FixedClock:
    """One instant, always (a naive one is read as UTC)."""

    def __init__(self, at: datetime) -> None:
        self._at = at if at.tzinfo is not None else at.replace(tzinfo=UTC)

    def now(self) -> datetime:
        return self._at.astimezone(UTC)
