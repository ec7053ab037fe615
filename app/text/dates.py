"""The dates a turn mentions, resolved against the day it was said, without a model.

"I went to the support group yesterday", said on 8 May 2023, is about 7 May 2023; "last
Saturday", "two weeks ago", "last month", "in 2022", "in June" are resolved the same way. Each
date comes back as an ISO string whose length says how precise it is: ``2023-05-07`` (a day),
``2023-05`` (a month), ``2023`` (a year); a week is given by its Monday (a day). Deterministic and
cheap (``mentioned_dates``), so every episode write can store them.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_MONTHS = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]
_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "couple": 2,
    "a couple": 2,
    "a couple of": 2,
    "three": 3,
    "few": 3,
    "a few": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}
_COUNT = (
    r"(\d{1,2}|an?|one|two|three|four|five|six|seven|eight|nine|ten"
    r"|a few|few|a couple of|a couple)"
)
_UNIT = r"(day|week|month|year)s?"
_WEEKDAY = "(" + "|".join(_WEEKDAYS) + ")"
_MONTH = "(" + "|".join(_MONTHS) + ")"

_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("ago", re.compile(rf"\b{_COUNT}\s+{_UNIT}\s+ago\b")),
    ("relative_unit", re.compile(r"\b(last|this|next|past)\s+(week|weekend|month|year)\b")),
    ("relative_weekday", re.compile(rf"\b(last|this|next|on)\s+{_WEEKDAY}\b")),
    ("day_word", re.compile(r"\b(yesterday|today|tonight|tomorrow)\b")),
    (
        "month_year",
        re.compile(rf"\b{_MONTH}(?:\s+\d{{1,2}}(?:st|nd|rd|th)?,?)?\s+((?:19|20)\d\d)\b"),
    ),
    ("in_month", re.compile(rf"\b(?:in|since|during|last|this|next)\s+{_MONTH}\b")),
    ("year", re.compile(r"\b(?:in|since|during|of|from)\s+((?:19|20)\d\d)\b")),
]


def _month_shift(day: date, months: int) -> str:
    index = day.year * 12 + day.month - 1 + months
    return f"{index // 12:04d}-{index % 12 + 1:02d}"


def _monday(day: date) -> str:
    return (day - timedelta(days=day.weekday())).isoformat()


def _ago(day: date, count: int, unit: str) -> str:
    if unit == "day":
        return (day - timedelta(days=count)).isoformat()
    if unit == "week":
        return _monday(day - timedelta(weeks=count))
    if unit == "month":
        return _month_shift(day, -count)
    return f"{day.year - count:04d}"


def _relative_unit(day: date, which: str, unit: str) -> str:
    step = {"last": -1, "past": -1, "this": 0, "next": 1}[which]
    if unit == "week":
        return _monday(day + timedelta(weeks=step))
    if unit == "weekend":
        saturday = day + timedelta(days=(5 - day.weekday()) % 7)
        if which in ("last", "past"):
            saturday = day - timedelta(days=(day.weekday() - 5) % 7 or 7)
        elif which == "next":
            saturday = saturday + timedelta(days=7) if saturday == day else saturday
        return saturday.isoformat()
    if unit == "month":
        return _month_shift(day, step)
    return f"{day.year + step:04d}"


def _relative_weekday(day: date, which: str, weekday: str) -> str:
    target = _WEEKDAYS.index(weekday)
    if which == "last":
        back = (day.weekday() - target) % 7 or 7
        return (day - timedelta(days=back)).isoformat()
    if which == "next":
        ahead = (target - day.weekday()) % 7 or 7
        return (day + timedelta(days=ahead)).isoformat()
    if which == "on":  # told afterwards, mostly: "we met on Friday" is the Friday before
        back = (day.weekday() - target) % 7 or 7
        return (day - timedelta(days=back)).isoformat()
    ahead = (target - day.weekday()) % 7  # "this Friday": the coming one (today included)
    return (day + timedelta(days=ahead)).isoformat()


def _in_month(day: date, month: str, which: str | None = None) -> str:
    """A month named alone is of the year it was said in; "last June" / "next June" the one
    before / after."""
    number = _MONTHS.index(month) + 1
    year = day.year
    if which == "last" and number >= day.month:
        year -= 1
    elif which == "next" and number <= day.month:
        year += 1
    return f"{year:04d}-{number:02d}"


def mentioned_dates(text: str, said_on: date) -> list[str]:
    """The dates ``text`` mentions, resolved against ``said_on``, in order of first mention,
    without repeats."""
    lowered = text.lower()
    found: dict[str, None] = {}
    # The characters of the dates found so far: a later pattern's match over any of them is
    # part of one of them ("in June 2023" is not also "in June"). One flag a character keeps the
    # test as quick for the thousandth date of a long text as for the first.
    taken = bytearray(len(lowered))
    for kind, pattern in _PATTERNS:
        for match in pattern.finditer(lowered):
            start, end = match.span()
            if taken.find(1, start, end) != -1:
                continue
            resolved = _resolve(kind, match, said_on)
            if resolved is not None:
                taken[start:end] = b"\x01" * (end - start)
                found.setdefault(resolved, None)
    return list(found)


def _resolve(kind: str, match: re.Match[str], day: date) -> str | None:
    groups = match.groups()
    if kind == "ago":
        return _ago(day, _NUMBERS.get(groups[0]) or int(groups[0]), groups[1])
    if kind == "relative_unit":
        return _relative_unit(day, groups[0], groups[1])
    if kind == "relative_weekday":
        return _relative_weekday(day, groups[0], groups[1])
    if kind == "day_word":
        shift = {"yesterday": -1, "today": 0, "tonight": 0, "tomorrow": 1}[groups[0]]
        return (day + timedelta(days=shift)).isoformat()
    if kind == "month_year":
        return f"{int(groups[1]):04d}-{_MONTHS.index(groups[0]) + 1:02d}"
    if kind == "in_month":
        word = match.group(0).split()[0]
        if groups[0] == "may" and word == "in" and not _looks_like_month(match.string, match):
            return None
        return _in_month(day, groups[0], word if word in ("last", "next") else None)
    return f"{int(groups[0]):04d}"


def _looks_like_month(text: str, match: re.Match[str]) -> bool:
    """'in May' is a month; 'in may be' is not (the verb)."""
    after = text[match.end() : match.end() + 4]
    return not re.match(r"\s+(be|have|not|well|also|need)\b", after)


_ASKS_WHEN = re.compile(
    r"^\s*(when\b|what (year|month|day|date|time)\b|how long ago\b|which (year|month|day)\b)"
    r"|\b(when did|when was|when is|when will|what date)\b",
    re.IGNORECASE,
)


def asks_when(question: str) -> bool:
    """Whether a question asks for a time ("When did ...", "What year ...")."""
    return bool(_ASKS_WHEN.search(question))
