"""The process clock and the suite's clock (no database)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from app.clock import FixedClock, StartedClock, SystemClock, clock_starting_at
from app.memory.working_memory import temporal_context
from tests.support.clock import TEST_NOW_VARIABLE, suite_clock_start


def test_a_started_clock_keeps_the_chosen_calendar_and_runs_forward() -> None:
    clock = StartedClock(datetime(2026, 11, 30, 9, 0))

    first, second = clock.now(), clock.now()

    assert first.tzinfo is not None and first.date() == date(2026, 11, 30)
    assert second >= first


def test_a_fixed_clock_moves_only_when_told() -> None:
    clock = FixedClock(datetime(2026, 3, 31, 12, 0, tzinfo=UTC))
    assert clock.now() == clock.now()
    clock.advance(timedelta(days=1))
    assert clock.now() == datetime(2026, 4, 1, 12, 0, tzinfo=UTC)


def test_the_process_clock_is_the_system_one_unless_a_start_is_set() -> None:
    assert isinstance(clock_starting_at(None), SystemClock)
    assert clock_starting_at(datetime(2026, 1, 5, tzinfo=UTC)).now().date() == date(2026, 1, 5)


@pytest.mark.parametrize(
    "today",
    [
        datetime(2026, 11, 26, 10, tzinfo=UTC),  # Thursday, the third-last business day
        datetime(2026, 11, 30, 10, tzinfo=UTC),  # Monday, the last
        datetime(2026, 12, 31, 10, tzinfo=UTC),  # a year end
        datetime(2026, 3, 31, 10, tzinfo=UTC),  # a quarter end
        datetime(2026, 11, 29, 10, tzinfo=UTC),  # Sunday inside the window
    ],
)
def test_the_suite_clock_never_starts_in_a_period_end(
    today: datetime, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(TEST_NOW_VARIABLE, raising=False)

    start = suite_clock_start(today)

    assert temporal_context(start.date()).contexts == []
    assert timedelta(0) < today - start <= timedelta(days=7)


def test_the_suite_clock_keeps_an_ordinary_day(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(TEST_NOW_VARIABLE, raising=False)
    today = datetime(2026, 11, 18, 10, tzinfo=UTC)
    assert suite_clock_start(today) == today


def test_the_suite_clock_can_be_pinned_to_a_month_end(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TEST_NOW_VARIABLE, "2026-11-30T09:00:00Z")
    start = suite_clock_start(datetime(2026, 6, 10, tzinfo=UTC))
    assert start == datetime(2026, 11, 30, 9, tzinfo=UTC)
    assert "month_end" in temporal_context(start.date()).contexts
