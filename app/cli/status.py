"""``credence status``: the agent's status (docs/loop.md §15), as REST's GET /status gives it."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from app.beliefs.models import Dissatisfaction
from app.cli.common import AgentOption, agent_id_of, console, meter, run_with_runtime, when
from app.runtime import Runtime
from app.status.agent_status import read_agent_status
from app.status.models import AgentStatus

STATE_COLOURS = {"active": "green", "idle": "white", "reflecting": "cyan", "error": "red"}


def status_command(
    agent: AgentOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON")] = False,
) -> None:
    """Print the agent's state, sessions, episodes, last reflection, calls and tokens per
    session, dissatisfaction, open conflicts, pending approvals and the scheduler's runs."""
    agent_id = agent_id_of(agent)

    async def work(runtime: Runtime) -> AgentStatus:
        return await read_agent_status(runtime.loop, agent_id)

    status = run_with_runtime(work)
    if as_json:
        print(status.model_dump_json(indent=2))  # noqa: T201 - plain JSON on stdout
        return
    _print_status(status)


def _print_status(status: AgentStatus) -> None:
    colour = STATE_COLOURS[status.state]
    console.print(
        f"[bold]{escape(status.name or status.agent_id)}[/] ({escape(status.agent_id)}): "
        f"[{colour}]{status.state}[/] — {escape(status.state_reason)}"
    )
    sessions, episodes = status.sessions, status.episodes
    console.print(
        f"sessions: {sessions.open} open ({sessions.active} active), {sessions.closed} closed"
        f"   episodes: {episodes.total} ({episodes.since_reflection} since the last reflection)"
    )
    console.print(f"last reflection: {when(status.last_reflection_at) or 'never'}")
    d = status.dissatisfaction
    console.print(meter(Dissatisfaction(value=d.value, band=d.band, beliefs=None, contributors=[])))
    console.print(
        f"open conflicts: {status.open_conflicts}   pending approvals: {status.pending_approvals}"
    )
    if status.recent_sessions:
        table = Table(title="sessions (newest first)")
        for column in ("key", "last active", "closed", "turns", "calls", "tokens in", "out"):
            table.add_column(column)
        for s in status.recent_sessions:
            closed = f"{when(s.closed_at)} ({s.close_trigger})" if s.closed_at else "open"
            table.add_row(
                escape(s.key),
                when(s.last_active or s.started_at),
                closed,
                str(s.turns),
                str(s.model_calls),
                str(s.input_tokens),
                str(s.output_tokens),
            )
        console.print(table)
    if status.scheduler:
        jobs = Table(title="scheduler")
        for column in ("job", "last run", "outcome", "ms", "detail", "runs", "running"):
            jobs.add_column(column)
        for job in status.scheduler:
            jobs.add_row(
                job.job,
                when(job.last_run_at),
                escape(job.last_outcome or ""),
                f"{job.last_duration_ms:.0f}" if job.last_duration_ms is not None else "",
                escape(job.last_detail or ""),
                str(job.runs),
                escape(job.lease_owner or ""),
            )
        console.print(jobs)
