"""What the scheduler reports: one run of a job, and a job's state as the graph holds it."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

# ok: the job did its work; skipped: nothing it could do (embeddings unavailable); failed: it
# raised; timed_out: it ran past job_timeout_seconds and was cancelled.
JobOutcome = Literal["ok", "skipped", "failed", "timed_out"]
JOB_OUTCOMES: tuple[JobOutcome, ...] = ("ok", "skipped", "failed", "timed_out")


class JobDone(BaseModel):
    """What a job's work returns: a line saying what it did, ``skipped`` when there was nothing
    it could do, ``failed`` when it failed without raising."""

    detail: str
    outcome: Literal["ok", "skipped", "failed"] = "ok"


class JobRun(BaseModel):
    """One run of a job by this process."""

    job: str
    agent_id: str | None = Field(description="The agent it ran for; null for a process job.")
    outcome: JobOutcome
    started_at: datetime = Field(description="The clock's time when it was claimed and started.")
    duration_ms: float
    detail: str
    recorded: bool = Field(
        description=(
            "False when the run outlived its lease and another process claimed the job, or "
            "when recording it failed (Neo4j unreachable; logged)."
        )
    )


class JobState(BaseModel):
    """A job's node in the graph: its last run and its lease."""

    key: str
    job: str
    agent_id: str | None = None
    last_run_at: datetime | None = None
    last_outcome: JobOutcome | None = None
    last_duration_ms: float | None = None
    last_detail: str | None = None
    last_owner: str | None = Field(default=None, description="The scheduler that last ran it.")
    runs: int = 0
    lease_owner: str | None = Field(default=None, description="The scheduler running it now.")
    lease_until: datetime | None = None
