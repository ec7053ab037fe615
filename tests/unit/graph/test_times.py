"""Times Neo4j wrote with toString read back as the same instants."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from app.graph.times import datetime_of, datetimes_read


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


def test_a_rows_times_are_read_under_the_keys_named_and_nothing_else_changes() -> None:
    at = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    row = {
        "id": "t1",
        "started_at": "2023-05-08T13:56:00Z",
        "history_at": ["2023-05-08T13:56:00Z", at],
        "ended_at": None,
        "note": "2023-05-08T13:56:00Z",
    }
    read = datetimes_read(row, "started_at", "history_at", "ended_at", "absent")
    assert read == {**row, "started_at": at, "history_at": [at, at]}
    assert "absent" not in read
    assert row["started_at"] == "2023-05-08T13:56:00Z"  # the row itself is left as it was
    assert datetimes_read({"started_at": at}, "started_at") == {"started_at": at}
