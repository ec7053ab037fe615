"""The scheduler (docs/loop.md §14): one per runtime. :meth:`Scheduler.tick` runs, at the
clock's ``now``, every job that is due and that this process claims in the graph; the background
task (:meth:`Scheduler.start`) calls it every ``tick_seconds``. Tests call :meth:`tick` with the
clock moved, never the wall.

A job is claimed with a lease on its ``ScheduledJob`` node (cypher/scheduler/claim_jobs.cypher),
so however many processes run a scheduler, one of them runs each job; a run is bounded by
``job_timeout_seconds`` (cancelled past it, recorded ``timed_out``), and counted in ``/metrics``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from app.errors import CredenceError
from app.loop.services import LoopServices
from app.metrics import observe_job_run
from app.scheduler.jobs import AgentQuery, Job, shipped_jobs
from app.scheduler.models import JobDone, JobOutcome, JobRun
from app.scheduler.settings import SchedulerSettings
from app.scheduler.store import Claim, claim_jobs, finish_job

log = logging.getLogger(__name__)


def scheduler_owner() -> str:
    """A name for one scheduler: host, process and a random part (two runtimes of one process
    are two owners)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class Scheduler:
    """Runs background jobs that are due, claimed in the graph so that one process runs each.

    Args:
        services: the process's loop services, read at each tick (a runtime may replace them).
        settings: intervals, bounds and whether the API runs it.
        jobs: the jobs (the shipped ones when not given; a test's own).
        owner: the name its leases carry (host, pid and a random part by default).
    """

    def __init__(
        self,
        services: Callable[[], LoopServices],
        settings: SchedulerSettings,
        *,
        jobs: Sequence[Job] | None = None,
        owner: str | None = None,
    ) -> None:
        self._services = services
        self.settings = settings
        self.jobs: tuple[Job, ...] = tuple(jobs if jobs is not None else shipped_jobs(settings))
        self.owner = owner or scheduler_owner()
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        """Whether the background task is running."""
        return self._task is not None and not self._task.done()

    async def tick(self, now: datetime | None = None) -> list[JobRun]:
        """Runs every job due at ``now`` (the clock's time by default) that this scheduler
        claims, one after the other; returns the runs."""
        services = self._services()
        at = now or services.clock.now()
        runs: list[JobRun] = []
        for job in self.jobs:
            try:
                runs += await self._tick_job(services, job, at)
            except CredenceError as error:
                # Claiming failed (Neo4j away): nothing ran; the next tick tries again.
                log.error("scheduler: job %s not claimed: %s", job.name, error.message)
        return runs

    def start(self) -> None:
        """Starts the background task that ticks every ``tick_seconds`` (wall time)."""
        if not self.running:
            self._task = asyncio.create_task(self._run_forever(), name="credence-scheduler")

    async def stop(self) -> None:
        """Stops the background task; a job it was running is cancelled, its lease left to
        expire."""
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.tick_seconds)
            try:
                await self.tick()
            except Exception:  # a tick never stops the loop; the next one tries again
                log.exception("scheduler tick failed")

    async def _tick_job(self, services: LoopServices, job: Job, now: datetime) -> list[JobRun]:
        due_before = now - job.every
        if job.find_agents is None:
            claims = [Claim(job.name, None)]
        else:
            query = AgentQuery(
                job=job.name,
                now=now,
                due_before=due_before,
                agent_ids=list(self.settings.agent_ids),
                limit=self.settings.batch_size,
            )
            claims = [Claim(job.name, agent) for agent in await job.find_agents(services, query)]
        claimed = await claim_jobs(
            services.graph,
            claims,
            owner=self.owner,
            now=now,
            due_before=due_before,
            lease_until=now + timedelta(seconds=self.settings.lease_seconds),
        )
        return [await self._run(services, job, claim, now) for claim in claimed]

    async def _run(self, services: LoopServices, job: Job, claim: Claim, now: datetime) -> JobRun:
        """Runs one claimed job within the time bound and records how it ended."""
        started = time.perf_counter()
        outcome: JobOutcome
        timer = asyncio.timeout(self.settings.job_timeout_seconds)
        try:
            async with timer:
                done: JobDone = await job.work(services, claim.agent_id, now)
            outcome, detail = done.outcome, done.detail
        except TimeoutError:
            if not timer.expired():
                raise
            outcome = "timed_out"
            detail = f"cancelled after {self.settings.job_timeout_seconds:g} s"
        except CredenceError as error:
            outcome, detail = "failed", f"{error.code}: {error.message}"
        except Exception as error:  # a job's bug is recorded, and the other jobs still run
            log.exception("scheduler: job %s failed", claim.key)
            outcome, detail = "failed", f"{type(error).__name__}: {error}"
        seconds = time.perf_counter() - started
        observe_job_run(job.name, outcome, seconds)
        if outcome in ("failed", "timed_out"):
            log.warning("scheduler: job %s %s: %s", claim.key, outcome, detail)
        run = JobRun(
            job=job.name,
            agent_id=claim.agent_id,
            outcome=outcome,
            started_at=now,
            duration_ms=round(seconds * 1000, 3),
            detail=detail,
            recorded=False,
        )
        run.recorded = await finish_job(
            services.graph,
            claim.key,
            self.owner,
            {
                "started_at": now,
                "outcome": outcome,
                "duration_ms": run.duration_ms,
                "detail": detail[:500],
            },
        )
        return run
