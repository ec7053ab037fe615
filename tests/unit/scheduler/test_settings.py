"""The scheduler's settings: a lease that covers a run, known job names, the jobs they choose."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.scheduler.jobs import shipped_jobs
from app.scheduler.settings import JOB_NAMES, SchedulerSettings


def test_a_lease_shorter_than_a_run_and_its_record_is_refused() -> None:
    with pytest.raises(ValidationError, match="lease_seconds must be at least"):
        SchedulerSettings(job_timeout_seconds=120, lease_seconds=60)
    # A lease equal to the bound ended as a run cancelled at it wrote its record.
    with pytest.raises(ValidationError, match=r"120 < 120 \+ 30"):
        SchedulerSettings(job_timeout_seconds=120, lease_seconds=120)
    assert SchedulerSettings(job_timeout_seconds=120, lease_seconds=150).lease_seconds == 150


def test_only_known_jobs_can_be_chosen_and_the_choice_is_kept() -> None:
    with pytest.raises(ValidationError, match="unknown job"):
        SchedulerSettings(jobs=["idle_sessions", "dreaming"])
    assert tuple(job.name for job in shipped_jobs(SchedulerSettings())) == JOB_NAMES
    chosen = shipped_jobs(SchedulerSettings(jobs=["embeddings", "idle_sessions"]))
    assert [job.name for job in chosen] == ["idle_sessions", "embeddings"]
