"""The scheduler's jobs in the graph (cypher/scheduler/): claiming due jobs with a lease,
recording a run, reading an agent's jobs."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.graph.client import GraphClient, native
from app.scheduler.models import JobState


@dataclass(frozen=True, slots=True)
class Claim:
    """A job to claim: its key ("<job>" or "<job>:<agent id>"), name and agent."""

    job: str
    agent_id: str | None

    @property
    def key(self) -> str:
        return job_key(self.job, self.agent_id)


def job_key(job: str, agent_id: str | None) -> str:
    return job if agent_id is None else f"{job}:{agent_id}"


async def claim_jobs(
    graph: GraphClient,
    claims: list[Claim],
    *,
    owner: str,
    now: datetime,
    due_before: datetime,
    lease_until: datetime,
) -> list[Claim]:
    """Claims, in one write, those of ``claims`` that are due (never ran, or last ran at or
    before ``due_before``) and free (no lease, or one that ended by ``now``); returns them.
    Two processes claiming the same job at once: only one gets it."""
    if not claims:
        return []
    ordered = sorted(claims, key=lambda claim: claim.key)
    rows = await graph.write_alone(
        "scheduler/claim_jobs",
        claims=[{"key": c.key, "job": c.job, "agent_id": c.agent_id} for c in ordered],
        owner=owner,
        now=now,
        due_before=due_before,
        lease_until=lease_until,
    )
    claimed = {str(row["key"]) for row in rows}
    return [claim for claim in ordered if claim.key in claimed]


async def finish_job(graph: GraphClient, key: str, owner: str, run: dict[str, Any]) -> bool:
    """Records a run and frees the lease; False when the lease was no longer ``owner``'s."""
    rows = await graph.write_alone("scheduler/finish_job", key=key, owner=owner, run=run)
    return bool(rows)


async def agent_jobs(graph: GraphClient, agent_id: str, process_jobs: list[str]) -> list[JobState]:
    """The agent's jobs and the process jobs (``process_jobs``: their names), by name."""
    rows = await graph.read("scheduler/list_job_runs", agent_id=agent_id, process_jobs=process_jobs)
    return [JobState.model_validate(native(row["job"])) for row in rows]
