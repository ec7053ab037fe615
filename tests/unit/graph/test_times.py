"""Times Neo4j wrote with toString read back as the same instants."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from app.graph.times import datetime_of


def test_utc_offsets_fractions_and_named_zones_read_back() -> None:
    assert datetime_of("2023-05-08T13:56:00Z") == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    plus_two = timezone(timedelta(hours=2))
    read = datetime_of("2023-05-08T13:56:00.123456789+02:00")
    assert read == datetime(2023, 5, 8, 13, 56, 0, 123456, tzinfo=plus_two)
    assert read is not None and read.utcoffset() == timedelta(hours=2)
    named = datetime_of("2023-05-08T13:56:00+02:00[Europe/Paris]")
    assert named == datetime(2023, 5, 8, 11, 56, tzinfo=UTC)
    assert named is not None and named.utcoffset() == timedelta(hours=2)
    assert datetime_of(None) is None
