"""The scheduler (docs/loop.md §14): one per runtime. :meth:`Scheduler.tick` runs every job
that is due and that this process claims in the graph; the background task
(:meth:`Scheduler.start`) calls it every ``tick_seconds``. Tests call :meth:`tick` with the clock
moved, never the wall.

Each run is claimed when it starts, at the clock's time then, with a lease on its
``ScheduledJob`` node (cypher/scheduler/claim_jobs.cypher) that outlasts the run's bound
(``job_timeout_seconds``: cancelled past it, recorded ``timed_out``); so however many processes
run a scheduler, one of them runs each job once per due time. Runs are counted in ``/metrics``.
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

    async def tick(self) -> list[JobRun]:
        """Runs every job that is due and that this scheduler claims, one after the other;
        returns the runs. Each run is claimed when it starts, at the clock's time then, so its
        lease covers that run alone, however long the ones before it took."""
        services = self._services()
        runs: list[JobRun] = []
        for job in self.jobs:
            runs += await self._tick_job(services, job)
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

    async def _tick_job(self, services: LoopServices, job: Job) -> list[JobRun]:
        agents = await self._due_agents(services, job)
        runs: list[JobRun] = []
        for position, agent_id in enumerate(agents):
            claim = Claim(job.name, agent_id)
            now = services.clock.now()
            lease_until = now + timedelta(seconds=self.settings.lease_seconds)
            try:
                claimed = await claim_jobs(
                    services.graph,
                    [claim],
                    owner=self.owner,
                    now=now,
                    due_before=now - job.every,
                    lease_until=lease_until,
                )
            except CredenceError as error:
                # Neo4j away: nothing is claimed; this agent and the rest wait for a next tick.
                log.error(
                    "scheduler: job %s not claimed: %s; %d more of job %s left for a next tick",
                    claim.key,
                    error.message,
                    len(agents) - position - 1,
                    job.name,
                )
                break
            if claimed:  # else another process ran it (or runs it) since the agents were found
                runs.append(await self._run(services, job, claim, now, lease_until))
        return runs

    async def _due_agents(self, services: LoopServices, job: Job) -> list[str | None]:
        """The agents whose run of ``job`` looks due now (``[None]`` for a process job); each
        is claimed, and so checked again, when its turn comes."""
        if job.find_agents is None:
            return [None]
        now = services.clock.now()
        query = AgentQuery(
            job=job.name,
            now=now,
            due_before=now - job.every,
            agent_ids=list(self.settings.agent_ids),
            limit=self.settings.batch_size,
        )
        try:
            return list(await job.find_agents(services, query))
        except CredenceError as error:
            log.error(
                "scheduler: job %s: looking for due agents failed: %s; the next tick looks again",
                job.name,
                error.message,
            )
            return []

    async def _run(
        self, services: LoopServices, job: Job, claim: Claim, now: datetime, lease_until: datetime
    ) -> JobRun:
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
        await self._record(services, claim, run, lease_until)
        return run

    async def _record(
        self, services: LoopServices, claim: Claim, run: JobRun, lease_until: datetime
    ) -> None:
        """Records the run and frees its lease; sets ``run.recorded``. A record that fails
        (Neo4j away) is logged and the tick goes on: the lease then ends at ``lease_until``,
        when the job is due again (the run was not recorded, so it runs again)."""
        record = {
            "started_at": run.started_at,
            "outcome": run.outcome,
            "duration_ms": run.duration_ms,
            "detail": run.detail[:500],
        }
        try:
            run.recorded = await finish_job(services.graph, claim.key, self.owner, record)
        except CredenceError as error:
            log.error(
                "scheduler: job %s ran (%s) but its run was not recorded: %s; its lease ends "
                "at %s, when it is due again",
                claim.key,
                run.outcome,
                error.message,
                lease_until.isoformat(),
            )
            return
        if not run.recorded:
            log.warning(
                "scheduler: job %s ran (%s) past its lease, which passed to another process; "
                "the run was not recorded",
                claim.key,
                run.outcome,
            )
