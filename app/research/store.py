"""Research mode's graph access: investigations, their state, and each step's transaction.

Every step commits in one write transaction that takes the agent's lock, then runs
``research/store/claim_step`` (which locks the investigation and checks it is running at the
step's ordinal), then the step's own writes, then its ``ResearchStep`` node: so a step is
recorded whole or not at all, never twice, and never for an agent being deleted.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from app.errors import AgentNotFound, InvestigationNotFound
from app.graph.agent_scope import lock_agent
from app.graph.client import GraphClient, Row, Transaction
from app.research.models import (
    FoundSource,
    Hypothesis,
    Investigation,
    InvestigationDetail,
    InvestigationPage,
    ResearchEvidence,
    ResearchState,
    ResearchStep,
    SourceConflict,
    StepKind,
)

StepWrite = Callable[[Transaction, str], Awaitable[None]]


@dataclass(slots=True)
class StepRecord:
    """A step about to be committed: what it was and what it cost."""

    id: str
    ordinal: int
    kind: StepKind
    started_at: datetime
    duration_ms: float
    summary: str
    model_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    reasoners: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)

    def as_params(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "ordinal": self.ordinal,
            "kind": self.kind,
            "started_at": self.started_at,
            "duration_ms": round(self.duration_ms, 3),
            "model_calls": self.model_calls,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "reasoners": sorted(set(self.reasoners)),
            "summary": self.summary,
            "details": json.dumps(self.details, default=str),
        }


def _step(row: dict[str, Any]) -> ResearchStep:
    data = dict(row)
    data["details"] = json.loads(data.get("details") or "{}")
    return ResearchStep.model_validate(data)


async def create_investigation(
    graph: GraphClient,
    agent_id: str,
    investigation: dict[str, Any],
) -> Investigation:
    """Creates a running investigation with no step taken, under the agent's lock.

    Args:
        investigation: id, question, iteration_cap, started_by, sources.

    Raises:
        AgentNotFound: no such agent, or one being deleted (nothing written).
    """

    async def work(tx: Transaction) -> list[Row]:
        await lock_agent(tx, agent_id)
        return await tx.run(
            "research/store/create_investigation", agent_id=agent_id, investigation=investigation
        )

    rows = await graph.write_transaction(work, action="starting an investigation")
    if not rows:
        raise AgentNotFound(agent_id)
    return Investigation.model_validate(rows[0]["investigation"])


async def get_investigation(
    graph: GraphClient, agent_id: str, investigation_id: str
) -> Investigation:
    """One investigation.

    Raises:
        InvestigationNotFound: no such investigation of this agent.
    """
    rows = await graph.read(
        "research/store/get_investigation", agent_id=agent_id, investigation_id=investigation_id
    )
    if not rows:
        raise InvestigationNotFound(investigation_id, agent_id)
    return Investigation.model_validate(rows[0]["investigation"])


async def list_investigations(
    graph: GraphClient, agent_id: str, status: str | None, skip: int, limit: int
) -> InvestigationPage:
    """A page of the agent's investigations, newest first (reports left out)."""
    rows = await graph.read(
        "research/store/list_investigations",
        agent_id=agent_id,
        status=status,
        skip=skip,
        limit=limit,
    )
    if rows:
        total = int(rows[0]["total"])
    else:
        counted = await graph.read(
            "research/store/count_investigations", agent_id=agent_id, status=status
        )
        total = int(counted[0]["total"])
    return InvestigationPage(
        data=[Investigation.model_validate(row["investigation"]) for row in rows], count=total
    )


async def _state_in(tx: Transaction, agent_id: str, investigation_id: str) -> ResearchState:
    scope = {"agent_id": agent_id, "investigation_id": investigation_id}
    rows = await tx.run("research/store/get_investigation", **scope)
    if not rows:
        raise InvestigationNotFound(investigation_id, agent_id)
    investigation = Investigation.model_validate(rows[0]["investigation"])
    hypotheses = [
        Hypothesis.model_validate(row["hypothesis"])
        for row in await tx.run("research/store/list_hypotheses", **scope)
    ]
    sources = [
        FoundSource.model_validate({**row["source"], "hypothesis_ids": row["hypothesis_ids"]})
        for row in await tx.run("research/store/list_sources", **scope)
    ]
    evidence = [
        ResearchEvidence.model_validate(row["evidence"])
        for row in await tx.run("research/store/list_research_evidence", **scope)
    ]
    conflicts = [
        SourceConflict.model_validate(
            {**row["conflict"], "decisive_evidence_id": row["decisive_evidence_id"]}
        )
        for row in await tx.run("research/store/list_conflicts", **scope)
    ]
    return ResearchState(
        investigation=investigation,
        hypotheses=hypotheses,
        sources=sources,
        evidence=evidence,
        conflicts=conflicts,
    )


async def load_state(graph: GraphClient, agent_id: str, investigation_id: str) -> ResearchState:
    """The investigation as the graph holds it now, read in one transaction.

    Raises:
        InvestigationNotFound: no such investigation of this agent.
    """

    async def work(tx: Transaction) -> ResearchState:
        return await _state_in(tx, agent_id, investigation_id)

    return await graph.read_transaction(work, action="reading an investigation")


async def load_detail(
    graph: GraphClient, agent_id: str, investigation_id: str
) -> InvestigationDetail:
    """The investigation with its hypotheses, sources, evidence, conflicts and steps.

    Raises:
        InvestigationNotFound: no such investigation of this agent.
    """

    async def work(tx: Transaction) -> InvestigationDetail:
        state = await _state_in(tx, agent_id, investigation_id)
        rows = await tx.run(
            "research/store/list_steps",
            agent_id=agent_id,
            investigation_id=investigation_id,
            from_ordinal=0,
        )
        return InvestigationDetail(**dict(state), steps=[_step(row["step"]) for row in rows])

    return await graph.read_transaction(work, action="reading an investigation")


async def list_steps(
    graph: GraphClient, agent_id: str, investigation_id: str, from_ordinal: int = 0
) -> list[ResearchStep]:
    """The investigation's steps from an ordinal on, in order."""
    rows = await graph.read(
        "research/store/list_steps",
        agent_id=agent_id,
        investigation_id=investigation_id,
        from_ordinal=from_ordinal,
    )
    return [_step(row["step"]) for row in rows]


@dataclass(frozen=True, slots=True)
class StatusChange:
    old_status: str
    status: str
    changed: bool


async def change_status(
    graph: GraphClient,
    agent_id: str,
    investigation_id: str,
    allowed_from: list[str],
    to: str,
    error: str | None = None,
) -> StatusChange:
    """Moves the investigation to ``to`` when its status is one of ``allowed_from``, under the
    agent's lock.

    Raises:
        AgentNotFound: no such agent, or one being deleted (nothing written).
        InvestigationNotFound: no such investigation of this agent.
    """

    async def work(tx: Transaction) -> list[Row]:
        await lock_agent(tx, agent_id)
        return await tx.run(
            "research/store/change_investigation_status",
            agent_id=agent_id,
            investigation_id=investigation_id,
            **{"from": allowed_from},
            to=to,
            error=error,
        )

    rows = await graph.write_transaction(work, action="changing an investigation's status")
    if not rows:
        raise InvestigationNotFound(investigation_id, agent_id)
    row = rows[0]
    return StatusChange(str(row["old_status"]), str(row["status"]), bool(row["changed"]))


async def running_investigations(
    graph: GraphClient, agent_id: str | None = None
) -> list[tuple[str, str]]:
    """(agent id, investigation id) of every investigation left running."""
    rows = await graph.read("research/store/list_running_investigations", agent_id=agent_id)
    return [(str(row["agent_id"]), str(row["investigation_id"])) for row in rows]


async def commit_step(
    graph: GraphClient,
    agent_id: str,
    investigation_id: str,
    record: StepRecord,
    write: StepWrite,
) -> ResearchStep | None:
    """Commits one step: its writes and its ``ResearchStep`` node in one transaction.

    Args:
        record: the step (its ordinal is the investigation's iteration when it was planned).
        write: the step's own writes, given the transaction and the step's id.

    Returns:
        The recorded step, or None when the investigation is no longer running at that ordinal
        (paused, cancelled, or another runner took the step): then nothing was written.

    Raises:
        AgentNotFound: no such agent, or one being deleted (nothing written).
        InvestigationNotFound: no such investigation of this agent.
    """

    async def work(tx: Transaction) -> ResearchStep | None:
        # The agent's lock before the investigation's (as a status change takes them), so the
        # step's writes serialise with the agent's others and a step never waits on a pause
        # that waits on it.
        await lock_agent(tx, agent_id)
        scope = {"agent_id": agent_id, "investigation_id": investigation_id}
        rows = await tx.run("research/store/claim_step", **scope, ordinal=record.ordinal)
        if not rows:
            raise InvestigationNotFound(investigation_id, agent_id)
        if not rows[0]["claimed"]:
            return None
        recorded = await tx.run("research/store/record_step", **scope, step=record.as_params())
        await write(tx, record.id)
        return _step(recorded[0]["step"])

    return await graph.write_transaction(work, action=f"recording a {record.kind} step")
