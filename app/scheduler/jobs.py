"""The jobs the scheduler ships (docs/loop.md §14). Each reuses what the loop already does when
a turn triggers it; the scheduler only makes it happen without a turn.

- ``idle_sessions`` (per agent): closes the sessions idle past ``session_idle_timeout_minutes``
  with their summary, lessons and learned items, and reflection when due
  (:func:`app.loop.sessions.close_idle_sessions`).
- ``reflection`` (per agent): reflects on an agent with at least ``reflect_every_episodes``
  episodes since its last reflection, or at least ``reflect_min_episodes`` once it has gone
  quiet (no session active within the idle timeout): episodes imported without a turn, or
  left by a reflection that failed (:func:`app.loop.sessions.reflect_if_due`).
- ``rule_decay`` (per agent, monthly): records each rule's decayed confidence
  (:func:`app.memory.rules.record_decay`).
- ``interrupted_actions`` (the whole process): marks interrupted the tool calls a stopped process
  left running (:func:`app.loop.call_memory.interrupt_stale_calls`).
- ``embeddings`` (per agent): embeds the beliefs and rules written without a vector
  (:func:`app.embeddings.store.embed_pending`).
- ``approval_expiry`` (per agent): marks the approvals nobody answered in time expired (also
  one left ``resuming`` by a process that died, its claim older than the lease) and cancels
  the tasks that waited on them (:func:`app.loop.approvals.expire_overdue`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from app.embeddings.store import embed_pending
from app.loop.approvals import expire_overdue
from app.loop.call_memory import interrupt_stale_calls
from app.loop.services import LoopServices
from app.loop.sessions import close_idle_sessions, reflect_if_due
from app.memory.rules import record_decay
from app.scheduler.models import JobDone
from app.scheduler.settings import SchedulerSettings


@dataclass(frozen=True, slots=True)
class AgentQuery:
    """What a per-agent job's search for agents is given: agents whose job is due and free."""

    job: str
    now: datetime
    due_before: datetime
    agent_ids: list[str]
    limit: int

    def params(self) -> dict[str, object]:
        return {
            "job": self.job,
            "now": self.now,
            "due_before": self.due_before,
            "agent_ids": self.agent_ids,
            "limit": self.limit,
        }


# A job's work: the services, the agent (None for a process job) and the run's time (when it
# was claimed).
JobWork = Callable[[LoopServices, str | None, datetime], Awaitable[JobDone]]
FindAgents = Callable[[LoopServices, AgentQuery], Awaitable[list[str]]]


@dataclass(frozen=True, slots=True)
class Job:
    """A kind of background work: due every ``every`` on the clock, per agent when
    ``find_agents`` is given (it names the agents with work waiting), else once for the
    process."""

    name: str
    every: timedelta
    work: JobWork
    find_agents: FindAgents | None = None


def _agent(agent_id: str | None) -> str:
    if agent_id is None:  # pragma: no cover - per-agent jobs are always given their agent
        raise ValueError("a per-agent job ran without an agent")
    return agent_id


async def _find(
    services: LoopServices, query_name: str, query: AgentQuery, **extra: object
) -> list[str]:
    rows = await services.graph.read(query_name, **query.params(), **extra)
    return [str(row["agent_id"]) for row in rows]


async def _idle_agents(services: LoopServices, query: AgentQuery) -> list[str]:
    timeout = timedelta(minutes=services.settings.loop.session_idle_timeout_minutes)
    return await _find(
        services, "scheduler/find_idle_session_agents", query, before=query.now - timeout
    )


async def _close_idle_sessions(
    services: LoopServices, agent_id: str | None, now: datetime
) -> JobDone:
    agent = _agent(agent_id)
    await services.call_memories.settled(agent)
    closed = await close_idle_sessions(services, agent, now=now, reflect=True)
    reflected = sum(1 for session in closed if session.reflection.ran)
    return JobDone(
        detail=f"{len(closed)} idle session(s) closed"
        + (f", reflection ran after {reflected}" if reflected else "")
    )


async def _reflection_agents(services: LoopServices, query: AgentQuery) -> list[str]:
    loop = services.settings.loop
    quiet_since = query.now - timedelta(minutes=loop.session_idle_timeout_minutes)
    return await _find(
        services,
        "scheduler/find_reflection_agents",
        query,
        minimum=loop.reflect_min_episodes,
        every=loop.reflect_every_episodes,
        active_after=quiet_since,
    )


async def _reflect(services: LoopServices, agent_id: str | None, now: datetime) -> JobDone:
    agent = _agent(agent_id)
    await services.call_memories.settled(agent)
    # The agent was chosen with at least reflect_min_episodes waiting (see _reflection_agents).
    reflection = await reflect_if_due(
        services, agent, services.settings.loop.reflect_min_episodes, "on the schedule"
    )
    if reflection.why.startswith("reflection failed"):
        # Nothing of it was written; the episodes wait for the next run.
        return JobDone(detail=reflection.why, outcome="failed")
    return JobDone(detail=reflection.why, outcome="ok" if reflection.ran else "skipped")


async def _rule_agents(services: LoopServices, query: AgentQuery) -> list[str]:
    return await _find(services, "scheduler/find_rule_agents", query)


async def _decay_rules(services: LoopServices, agent_id: str | None, now: datetime) -> JobDone:
    decay = await record_decay(services.graph, _agent(agent_id), now, services.settings.memory)
    mean = "" if decay.mean_confidence is None else f", mean confidence {decay.mean_confidence:.3f}"
    return JobDone(detail=f"{decay.rules} rule(s), {decay.decaying} decaying{mean}")


async def _interrupt_actions(
    services: LoopServices, agent_id: str | None, now: datetime
) -> JobDone:
    interrupted = await interrupt_stale_calls(services, now)
    return JobDone(detail=f"{interrupted} tool call(s) left running marked interrupted")


async def _embedding_agents(services: LoopServices, query: AgentQuery) -> list[str]:
    return await _find(services, "scheduler/find_embedding_agents", query)


async def _embed(services: LoopServices, agent_id: str | None, now: datetime) -> JobDone:
    report = await embed_pending(services.graph, services.embedder, _agent(agent_id))
    if not report.available:
        return JobDone(detail=f"embeddings unavailable: {report.reason}", outcome="skipped")
    stored = ", ".join(f"{count} {label.lower()}(s)" for label, count in report.stored.items())
    return JobDone(detail=f"embedded {stored}")


async def _expiry_agents(services: LoopServices, query: AgentQuery) -> list[str]:
    lease_s = services.settings.loop.approval_claim_lease_s
    return await _find(services, "scheduler/find_expired_approval_agents", query, lease_s=lease_s)


async def _expire_approvals(services: LoopServices, agent_id: str | None, now: datetime) -> JobDone:
    lease_s = services.settings.loop.approval_claim_lease_s
    expiry = await expire_overdue(services.graph, _agent(agent_id), now, lease_s)
    calls = f", {len(expiry.actions)} tool call(s) not executed" if expiry.actions else ""
    return JobDone(
        detail=f"{len(expiry.expired)} approval(s) expired, "
        f"{len(expiry.cancelled)} waiting task(s) cancelled{calls}",
        outcome="ok" if expiry.expired or expiry.cancelled else "skipped",
    )


def shipped_jobs(settings: SchedulerSettings) -> list[Job]:
    """The jobs that ship with Credence (those ``settings.jobs`` names, when it names any),
    with their intervals from ``settings``."""
    jobs = [
        Job(
            "idle_sessions",
            timedelta(seconds=settings.idle_sessions_every_seconds),
            _close_idle_sessions,
            _idle_agents,
        ),
        Job(
            "reflection",
            timedelta(seconds=settings.reflection_every_seconds),
            _reflect,
            _reflection_agents,
        ),
        Job(
            "rule_decay",
            timedelta(days=settings.rule_decay_every_days),
            _decay_rules,
            _rule_agents,
        ),
        Job(
            "interrupted_actions",
            timedelta(seconds=settings.interrupted_actions_every_seconds),
            _interrupt_actions,
        ),
        Job(
            "embeddings",
            timedelta(seconds=settings.embeddings_every_seconds),
            _embed,
            _embedding_agents,
        ),
        Job(
            "approval_expiry",
            timedelta(seconds=settings.approval_expiry_every_seconds),
            _expire_approvals,
            _expiry_agents,
        ),
    ]
    return [job for job in jobs if not settings.jobs or job.name in settings.jobs]


# Names of the shipped jobs that run once for the process, not per agent.
PROCESS_JOBS = ("interrupted_actions",)
