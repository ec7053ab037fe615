"""Reading an agent's status (docs/loop.md §15) from the graph: one query for its sessions,
episodes, conflicts and approvals, the dissatisfaction service for D and its band, and the
scheduler's nodes for its jobs' last runs; the state is derived from them."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from app.beliefs.dissatisfaction import compute_dissatisfaction
from app.errors import AgentNotFound
from app.graph.client import native
from app.loop.services import LoopServices
from app.scheduler.jobs import PROCESS_JOBS
from app.scheduler.models import JobState
from app.scheduler.store import agent_jobs
from app.status.models import (
    AgentState,
    AgentStatus,
    EpisodeCounts,
    SessionCounts,
    SessionUsage,
    StatusDissatisfaction,
)

# The latest sessions listed with their calls and tokens.
RECENT_SESSIONS = 10
# The agent's jobs that consolidate its memory: while one holds a lease, it is "reflecting".
CONSOLIDATING_JOBS = frozenset({"reflection", "idle_sessions"})
FAILED_OUTCOMES = frozenset({"failed", "timed_out"})


async def read_agent_status(
    services: LoopServices, agent_id: str, now: datetime | None = None
) -> AgentStatus:
    """The agent's status at ``now`` (the clock's time by default).

    Raises:
        AgentNotFound: no such agent.
    """
    at = now or services.clock.now()
    timeout = timedelta(minutes=services.settings.loop.session_idle_timeout_minutes)
    rows = await services.graph.read(
        "status/get_agent_status",
        agent_id=agent_id,
        now=at,
        active_after=at - timeout,
        sessions=RECENT_SESSIONS,
    )
    if not rows:
        raise AgentNotFound(agent_id)
    row: dict[str, Any] = native(rows[0])
    agent = row["agent"]
    dissatisfaction = await compute_dissatisfaction(
        services.graph, services.settings.mechanics, agent_id, top=0, count_beliefs=False
    )
    jobs = await agent_jobs(services.graph, agent_id, list(PROCESS_JOBS))
    sessions = [SessionUsage.model_validate(s) for s in row["sessions"] if s]
    counts = SessionCounts(
        open=int(row["open_sessions"]),
        active=int(row["active_sessions"]),
        closed=int(row["closed_sessions"]),
        total=int(row["open_sessions"]) + int(row["closed_sessions"]),
    )
    state, reason = agent_state(agent_id, counts, jobs, at)
    return AgentStatus(
        agent_id=agent_id,
        name=agent.get("name"),
        at=at,
        state=state,
        state_reason=reason,
        sessions=counts,
        episodes=EpisodeCounts(
            total=int(row["episodes"]),
            since_reflection=int(agent.get("episodes_since_reflection") or 0),
        ),
        last_session=sessions[0] if sessions else None,
        recent_sessions=sessions,
        last_reflection_at=agent.get("reflected_at"),
        dissatisfaction=StatusDissatisfaction(
            value=dissatisfaction.value, band=dissatisfaction.band
        ),
        open_conflicts=int(row["open_conflicts"]),
        pending_approvals=int(row["pending_approvals"]),
        scheduler=jobs,
    )


def agent_state(
    agent_id: str, sessions: SessionCounts, jobs: list[JobState], now: datetime
) -> tuple[AgentState, str]:
    """The state, first that applies: reflecting (a consolidating job of the agent holds a
    lease), error (the agent's latest scheduler run failed or timed out), active (a session open
    and recent), idle; with the reason. Pure."""
    own = [job for job in jobs if job.agent_id == agent_id]
    for job in own:
        if job.job in CONSOLIDATING_JOBS and job.lease_until is not None and job.lease_until > now:
            return "reflecting", f"the scheduler's {job.job} job is running ({job.lease_owner})"
    ran = [job for job in own if job.last_run_at is not None]
    if ran:
        latest = max(ran, key=lambda job: job.last_run_at or now)
        if latest.last_outcome in FAILED_OUTCOMES:
            return "error", f"the scheduler's {latest.job} job {latest.last_outcome}: " + (
                latest.last_detail or ""
            )
    if sessions.active:
        return "active", f"{sessions.active} session(s) open and active within the idle timeout"
    if sessions.open:
        return "idle", f"{sessions.open} session(s) open, none active within the idle timeout"
    return "idle", "no open session"
