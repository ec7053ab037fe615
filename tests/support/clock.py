"""The clock the test suite runs the loop on: never a period end unless a test asks for one.

``CREDENCE_TEST_NOW`` (ISO 8601) starts the clock at that instant for the whole run, e.g. to run
the suite at a month end (``CREDENCE_TEST_NOW=2026-11-30T09:00:00Z make test``). Without it the
clock starts at the machine's time moved back by whole days out of the last business days of a
month (the ``month_end`` / ``quarter_end`` / ``year_end`` window), so that what a turn learns does
not depend on the day the suite runs.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta

from app.memory.working_memory import temporal_context

TEST_NOW_VARIABLE = "CREDENCE_TEST_NOW"


def suite_clock_start(system_now: datetime | None = None) -> datetime:
    """Where the suite's clock starts (see the module docstring)."""
    pinned = os.environ.get(TEST_NOW_VARIABLE, "").strip()
    if pinned:
        start = datetime.fromisoformat(pinned.replace("Z", "+00:00"))
        return start if start.tzinfo else start.replace(tzinfo=UTC)
    return ordinary_day_start(system_now)


def ordinary_day_start(system_now: datetime | None = None) -> datetime:
    """The machine's time moved back by whole days out of any period end, whatever
    ``CREDENCE_TEST_NOW`` says: for tests whose outcome assumes an ordinary day (a turn's
    outcome moving a belief's default strength, not its month-end one)."""
    start = system_now or datetime.now(UTC)
    while temporal_context(start.date()).contexts:
        start -= timedelta(days=1)
    return start
