"""The scheduler's settings (``CREDENCE_SCHEDULER__...``): whether the API runs it, how often it
looks for due work, how long a job may run and how often each job is due."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

# The jobs that ship (app/scheduler/jobs.py), in the order a tick runs them.
JOB_NAMES = (
    "idle_sessions",
    "reflection",
    "rule_decay",
    "interrupted_actions",
    "embeddings",
    "approval_expiry",
)

# What a lease must hold past the job timeout: a run cancelled at its bound still writes its
# record (finish_job) under its lease, so a second process cannot claim it meanwhile.
RECORD_MARGIN_SECONDS = 30.0


class SchedulerSettings(BaseModel):
    """Background work between turns (docs/loop.md §14)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    enabled: bool = True
    """Run the scheduler inside the API process (false: only ``credence worker`` runs it)."""
    tick_seconds: Annotated[float, Field(gt=0.0, le=3600.0)] = 30.0
    """How often (wall seconds) the background task looks for due jobs."""
    job_timeout_seconds: Annotated[float, Field(gt=0.0, le=3600.0)] = 120.0
    """The longest one run of a job may take; past it the run is cancelled (``timed_out``)."""
    lease_seconds: Annotated[float, Field(gt=0.0, le=86400.0)] = 600.0
    """How long (on the clock) a claimed job stays its process's; past it another may claim it.
    Each run is claimed when it starts, so this is at least the job timeout plus 30 s (the run's
    record, written after its bound): a running job is never claimed twice."""
    batch_size: Annotated[int, Field(ge=1, le=1000)] = 10
    """Agents a per-agent job handles in one tick at most (the rest wait for the next)."""
    agent_ids: list[str] = Field(default_factory=list)
    """Only these agents' jobs (empty: every agent's); lets deployments split agents across
    workers."""
    jobs: list[str] = Field(default_factory=list)
    """Only these jobs (empty: every job): idle_sessions, reflection, rule_decay,
    interrupted_actions, embeddings, approval_expiry."""
    idle_sessions_every_seconds: Annotated[float, Field(gt=0.0)] = 60.0
    """An agent's idle sessions are looked at most this often (clock seconds)."""
    reflection_every_seconds: Annotated[float, Field(gt=0.0)] = 600.0
    """An agent is reflected on by the schedule at most this often (clock seconds), when
    ``loop.reflect_every_episodes`` episodes wait, or ``loop.reflect_min_episodes`` once it has
    gone quiet."""
    rule_decay_every_days: Annotated[float, Field(gt=0.0)] = 30.0
    """An agent's rules have their decayed confidence recorded this often (clock days)."""
    interrupted_actions_every_seconds: Annotated[float, Field(gt=0.0)] = 300.0
    """Tool calls left running by a stopped process are looked for this often (clock seconds)."""
    embeddings_every_seconds: Annotated[float, Field(gt=0.0)] = 60.0
    """An agent's beliefs and rules waiting for a vector are embedded at most this often."""
    approval_expiry_every_seconds: Annotated[float, Field(gt=0.0)] = 300.0
    """An agent's approvals past their expiry are marked expired, and the tasks that waited on
    them cancelled, at most this often (clock seconds)."""

    @field_validator("jobs")
    @classmethod
    def _known_jobs(cls, jobs: list[str]) -> list[str]:
        unknown = [job for job in jobs if job not in JOB_NAMES]
        if unknown:
            raise ValueError(f"unknown job(s) {', '.join(unknown)}; known: {', '.join(JOB_NAMES)}")
        return jobs

    @model_validator(mode="after")
    def _lease_covers_a_run(self) -> SchedulerSettings:
        if self.lease_seconds < self.job_timeout_seconds + RECORD_MARGIN_SECONDS:
            raise ValueError(
                f"lease_seconds must be at least job_timeout_seconds + {RECORD_MARGIN_SECONDS:g}"
                f" (the run's record is written after its bound): {self.lease_seconds:g} <"
                f" {self.job_timeout_seconds:g} + {RECORD_MARGIN_SECONDS:g}"
            )
        return self
