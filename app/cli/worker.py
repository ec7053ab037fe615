"""``credence worker``: the scheduler (docs/loop.md §14) in a process of its own, for
deployments that run it apart from the API (set ``CREDENCE_SCHEDULER__ENABLED=false`` on the
API processes then; with it on, both run it and the lease in the graph keeps each job to one)."""

from __future__ import annotations

import asyncio
import logging
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from app.cli.common import console, run_with_runtime, when
from app.runtime import Runtime
from app.scheduler.models import JobRun

OUTCOME_COLOURS = {"ok": "green", "skipped": "yellow", "failed": "red", "timed_out": "red"}


def worker_command(
    once: Annotated[
        bool, typer.Option("--once", help="Run what is due once and exit (e.g. from cron)")
    ] = False,
) -> None:
    """Run the scheduler: close idle sessions, reflect, decay rules, mark interrupted tool
    calls, embed what waits for a vector; every CREDENCE_SCHEDULER__TICK_SECONDS until stopped."""

    async def work(runtime: Runtime) -> None:
        scheduler = runtime.scheduler
        logging.basicConfig(
            level=runtime.settings.log_level,
            format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        )
        jobs = ", ".join(j.name for j in scheduler.jobs)
        console.print(f"scheduler {escape(scheduler.owner)}: {escape(jobs)}")
        while True:
            _print_runs(await scheduler.tick())
            if once:
                return
            await asyncio.sleep(runtime.settings.scheduler.tick_seconds)

    try:
        run_with_runtime(work)
    except KeyboardInterrupt:
        console.print("scheduler stopped")


def _print_runs(runs: list[JobRun]) -> None:
    if not runs:
        return
    table = Table(show_header=True)
    for column in ("at", "job", "agent", "outcome", "ms", "detail"):
        table.add_column(column)
    for run in runs:
        colour = OUTCOME_COLOURS[run.outcome]
        table.add_row(
            when(run.started_at),
            run.job,
            escape(run.agent_id or ""),
            f"[{colour}]{run.outcome}[/]",
            f"{run.duration_ms:.0f}",
            escape(run.detail),
        )
    console.print(table)
