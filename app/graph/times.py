"""Times read as text: a query that returns many datetimes can return ``toString(t)`` instead.

The driver builds each datetime of a record in pure Python (its own DateTime, then a pytz
conversion, then ours): ~90 µs each, 4.4 ms for the 50 episodes an episode search reads
(bench/README.md, issue 38). ``toString`` of a Neo4j datetime is ISO 8601 with its offset (and,
for a named zone, the zone in brackets), which :func:`datetime_of` reads in about a
microsecond.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any


def datetime_of(text: str | None) -> datetime | None:
    """The datetime a Neo4j ``toString(datetime)`` wrote (None stays None): the same instant
    and offset; a named zone (``...+02:00[Europe/Paris]``) keeps its offset, not its name."""
    if text is None:
        return None
    zone = text.find("[")
    return datetime.fromisoformat(text if zone < 0 else text[:zone])


def datetimes_read(row: Mapping[str, Any], *keys: str) -> dict[str, Any]:
    """``row`` with the ``toString`` times under ``keys`` (a text, or a list of them) read by
    :func:`datetime_of`; a value that is already a datetime (a row of a query that returns
    them as such), None or absent stays as it is."""
    read = dict(row)
    for key in keys:
        value = read.get(key)
        if isinstance(value, str):
            read[key] = datetime_of(value)
        elif isinstance(value, list):
            read[key] = [datetime_of(v) if isinstance(v, str) else v for v in value]
    return read
