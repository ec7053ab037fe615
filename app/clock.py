"""The process's clock: the one source of "now" for the loop, working memory and sessions.

Code that needs the time takes a :class:`Clock` (or a ``now`` its caller read from one) instead
of reading the system clock, so that tests and replays control the calendar: the period-end
contexts (``month_end``, ``quarter_end``) and the idle-session sweep follow the clock.
Imports nothing from Credence.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, aware, in UTC."""
        ...


class SystemClock:
    """The machine's clock (the default everywhere)."""

    def now(self) -> datetime:
        return datetime.now(UTC)


@dataclass
class FixedClock:
    """A clock that stands still at ``at`` until moved (:meth:`advance`)."""

    at: datetime

    def __post_init__(self) -> None:
        self.at = _aware(self.at)

    def now(self) -> datetime:
        return self.at

    def advance(self, delta: timedelta) -> None:
        self.at += delta


@dataclass
class StartedClock:
    """A clock that started at ``start`` and runs at the machine's pace from there: the calendar
    is chosen, the order and the durations of what happens stay real."""

    start: datetime
    _started: float = field(default_factory=time.monotonic, init=False, repr=False)

    def __post_init__(self) -> None:
        self.start = _aware(self.start)

    def now(self) -> datetime:
        return self.start + timedelta(seconds=time.monotonic() - self._started)


def clock_starting_at(start: datetime | None) -> Clock:
    """The process clock: the system's, or one started at ``start`` (``CREDENCE_CLOCK_START``)."""
    return SystemClock() if start is None else StartedClock(start)


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)
