"""Keeping the scheduler (app/scheduler/) off a scripted agent while its script runs (the demo,
a validation scenario).

A script's turns happen on its own calendar (October 2026 for the demo), so to an API running
beside it (``make run``) its open sessions look idle and its running tool calls stale at once:
the API's scheduler would close the sessions, reflect on the episodes and interrupt the calls in
the middle of a story, and the script would come out otherwise (a rule learned by the API
instead, a call marked interrupted). So the script claims, for the time of the run, the jobs
that could touch its agent, with the scheduler's own leases and on the scheduler's clock (the
settings' ``clock_start``, else the system's), and frees them when it is done.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta

from app.clock import clock_starting_at
from app.config import Settings
from app.graph.client import GraphClient
from app.scheduler.store import Claim, claim_jobs, finish_job

# The agent's own jobs, and the process job that sweeps every agent's tool calls.
AGENT_JOBS = ("idle_sessions", "reflection", "rule_decay", "embeddings", "approval_expiry")
PROCESS_JOBS = ("interrupted_actions",)
# Longer than any run; a run that dies without freeing its leases holds them this long.
HOLD = timedelta(minutes=10)


@asynccontextmanager
async def scheduler_held_off(
    graph: GraphClient, settings: Settings, agent_id: str, *, holder: str = "credence demo"
) -> AsyncIterator[list[str]]:
    """Holds the scheduler's jobs that could touch ``agent_id`` while the block runs.

    Yields:
        The keys of the jobs held (a job another process was running at that moment is not).
    """
    clock = clock_starting_at(settings.clock_start)
    owner = f"{holder} {agent_id}"
    claims = [Claim(job, agent_id) for job in AGENT_JOBS]
    claims += [Claim(job, None) for job in PROCESS_JOBS]
    now = clock.now()
    held = await claim_jobs(
        graph, claims, owner=owner, now=now, due_before=now, lease_until=now + HOLD
    )
    started = time.perf_counter()
    try:
        yield [claim.key for claim in held]
    finally:
        run = {
            "started_at": now,
            "outcome": "skipped",
            "duration_ms": (time.perf_counter() - started) * 1000,
            "detail": f"held while {holder} ran the agent's script",
        }
        for claim in held:
            await finish_job(graph, claim.key, owner, run)
