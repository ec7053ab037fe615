"""Dates a turn mentions, resolved against the day it was said (app/text/dates.py)."""

from __future__ import annotations

from datetime import date

import pytest

from app.text.dates import asks_when, mentioned_dates

MONDAY = date(2023, 5, 8)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I went to a support group yesterday.", ["2023-05-07"]),
        ("Last Saturday we went camping.", ["2023-05-06"]),
        ("We met on Friday.", ["2023-05-05"]),
        ("This Friday is the concert.", ["2023-05-12"]),
        ("Two weeks ago I painted a lake.", ["2023-04-24"]),
        ("4 years ago I moved from Sweden.", ["2019"]),
        ("We moved here in 2019, and last month I quit.", ["2023-04", "2019"]),
        ("Last weekend was fun.", ["2023-05-06"]),
        ("Next month we go to Paris.", ["2023-06"]),
        ("Last year was hard.", ["2022"]),
        ("In June I start a new job.", ["2023-06"]),
        ("Last June I started.", ["2022-06"]),
        ("It was on May 3, 2021 exactly.", ["2021-05"]),
        ("I may be late, it may rain.", []),
        ("Nothing about time here.", []),
    ],
)
def test_mentions_are_resolved_against_the_day_they_were_said(
    text: str, expected: list[str]
) -> None:
    assert mentioned_dates(text, MONDAY) == expected


def test_when_questions_are_told_apart() -> None:
    assert asks_when("When did Caroline go to the LGBTQ support group?")
    assert asks_when("What year did Melanie start pottery?")
    assert not asks_when("What did Melanie paint recently?")


def test_a_date_within_one_found_first_is_not_found_again_however_many_come_before() -> None:
    """ "June 2023" is a month of a year; the "in June" around it is no second date, after
    thousands of dates as after none (the test of what is taken is one look, not one per date
    found)."""
    text = "today, yesterday " * 2000 + "and in June 2023, in June"
    assert mentioned_dates(text, MONDAY) == ["2023-05-08", "2023-05-07", "2023-06"]
    assert mentioned_dates("in June 2023", MONDAY) == ["2023-06"]
