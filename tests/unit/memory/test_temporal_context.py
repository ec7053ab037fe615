"""Temporal context of working memory (pure)."""

from __future__ import annotations

from datetime import date

import pytest

from app.memory.settings import MemoryMechanics
from app.memory.working_memory import last_business_days, temporal_context


def test_last_business_days_skip_weekends() -> None:
    # May 2026 ends on a Sunday: the last business days are Fri 29, Thu 28, Wed 27.
    assert last_business_days(2026, 5, 3) == [
        date(2026, 5, 29),
        date(2026, 5, 28),
        date(2026, 5, 27),
    ]


@pytest.mark.parametrize(
    ("day", "month_end", "quarter_end", "year_end", "urgency"),
    [
        (date(2026, 5, 26), False, False, False, 1.0),  # Tue, before the window
        (date(2026, 5, 27), True, False, False, 1.5),  # 3rd-last business day
        (date(2026, 5, 31), True, False, False, 1.5),  # the Sunday after the last business day
        (date(2026, 6, 30), True, True, False, 2.0),
        (date(2026, 12, 29), True, True, True, 2.5),
        (date(2026, 12, 1), False, False, False, 1.0),
    ],
)
def test_period_ends(
    day: date, month_end: bool, quarter_end: bool, year_end: bool, urgency: float
) -> None:
    context = temporal_context(day)
    assert (context.is_month_end, context.is_quarter_end, context.is_year_end) == (
        month_end,
        quarter_end,
        year_end,
    )
    assert context.urgency_multiplier == urgency
    expected = [
        k
        for k, on in (
            ("month_end", month_end),
            ("quarter_end", quarter_end),
            ("year_end", year_end),
        )
        if on
    ]
    assert context.contexts == expected


def test_days_to_deadline_count_to_the_last_business_day() -> None:
    context = temporal_context(date(2026, 5, 20))
    assert context.next_deadline == date(2026, 5, 29)
    assert context.days_to_deadline == 9 and context.deadline_kind == "month_end"
    # After May's last business day the next deadline is June's, a quarter end.
    after = temporal_context(date(2026, 5, 30))
    assert after.next_deadline == date(2026, 6, 30)
    assert after.deadline_kind == "quarter_end" and after.days_to_deadline == 31
    assert temporal_context(date(2026, 12, 31)).next_deadline == date(2026, 12, 31)
    assert temporal_context(date(2026, 12, 31)).deadline_kind == "year_end"


def test_the_window_is_a_setting() -> None:
    wide = MemoryMechanics(period_end_business_days=10)
    assert temporal_context(date(2026, 5, 18), wide).is_month_end
    assert not temporal_context(date(2026, 5, 18)).is_month_end
