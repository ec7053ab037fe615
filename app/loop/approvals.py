"""Approvals (human in the loop): a guidance or proposal turn persists the question, the
proposed work unit and the turn's state in Neo4j, so a person can answer it later, through any
API process, also after a restart. Approvals expire after ``loop.approval_ttl_hours``."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from pydantic import BaseModel, Field

from app.beliefs.store import require_agent
from app.errors import ApprovalClosed, ApprovalNotFound
from app.graph.client import GraphClient, Transaction
from app.loop.models import ApprovalPublic, ApprovalsPublic, ChatRequest, TurnMode
from app.reasoning.protocol import Appraisal, WorkUnit


class TurnState(BaseModel):
    """What a paused turn needs to resume."""

    request: ChatRequest
    mode: TurnMode
    frame: str
    stakes: str
    band: str
    dissatisfaction: float
    context_name: str | None = None
    belief_id: str | None = None
    belief_strength: float | None = None
    belief_statement: str | None = None
    decision_id: str | None = None
    appraisal: Appraisal | None = None
    used_belief_ids: list[str] = Field(default_factory=list)


class StoredApproval(BaseModel):
    public: ApprovalPublic
    state: TurnState | None


def _public(row: dict[str, Any]) -> ApprovalPublic:
    work_unit = row.get("work_unit")
    response = row.get("response")
    if isinstance(response, str):
        try:
            parsed = json.loads(response)
            response = parsed.get("text") or parsed.get("action")
        except (json.JSONDecodeError, AttributeError):
            pass
    return ApprovalPublic(
        id=row["id"],
        kind=row.get("kind", "proposal"),
        status=row.get("status", "pending"),
        question=row.get("question") or row.get("proposed_statement") or "",
        work_unit=WorkUnit.model_validate_json(work_unit) if work_unit else None,
        belief_id=row.get("belief_id"),
        created_at=row.get("created_at"),
        expires_at=row.get("expires_at"),
        resolved_at=row.get("resolved_at"),
        response=response,
    )


def _stored(row: dict[str, Any]) -> StoredApproval:
    state = row.get("turn_state")
    return StoredApproval(
        public=_public(row),
        state=TurnState.model_validate_json(state) if state else None,
    )


async def create_approval_in(
    tx: Transaction,
    agent_id: str,
    *,
    kind: str,
    question: str,
    work_unit: WorkUnit | None,
    state: TurnState,
    episode_id: str,
    ttl_hours: float,
) -> ApprovalPublic:
    """Persists a pending approval inside the turn's transaction."""
    rows = await tx.run(
        "approvals/create_approval",
        agent_id=agent_id,
        approval={
            "id": str(uuid.uuid4()),
            "kind": kind,
            "question": question,
            "work_unit": work_unit.model_dump_json() if work_unit else None,
            "belief_id": state.belief_id,
            "turn_state": state.model_dump_json(),
            "episode_id": episode_id,
            "expires_at": datetime.now(UTC) + timedelta(hours=ttl_hours),
        },
    )
    return _public(rows[0]["approval"])


async def get_approval(graph: GraphClient, agent_id: str, approval_id: str) -> StoredApproval:
    """One approval with its stored turn state.

    Raises:
        AgentNotFound, ApprovalNotFound.
    """
    rows = await graph.read("approvals/get_approval", agent_id=agent_id, approval_id=approval_id)
    if not rows:
        await require_agent(graph, agent_id)
        raise ApprovalNotFound(approval_id, agent_id)
    stored = _stored(rows[0]["approval"])
    if stored.public.status == "pending" and _expired(stored.public):
        stored.public.status = "expired"
    return stored


def _expired(approval: ApprovalPublic) -> bool:
    return approval.expires_at is not None and approval.expires_at < datetime.now(UTC)


async def list_approvals(
    graph: GraphClient, agent_id: str, status: str | None = None, limit: int = 50
) -> ApprovalsPublic:
    """The agent's approvals, newest first (pending ones past expiry show as expired).

    Raises:
        AgentNotFound.
    """
    await require_agent(graph, agent_id)
    rows = await graph.read(
        "approvals/list_approvals", agent_id=agent_id, status=status, limit=limit
    )
    data = [_public(row["approval"]) for row in rows]
    return ApprovalsPublic(data=data, count=len(data))


async def resolve_in(
    tx: Transaction, agent_id: str, approval_id: str, status: str, response: dict[str, Any]
) -> StoredApproval:
    """Marks a pending approval resolved inside the caller's transaction (holding the agent
    lock), so two answers to one approval cannot both resume it.

    Raises:
        ApprovalNotFound; ApprovalClosed when it was not pending (or has just expired: that
        status is still written, by a transaction of its own).
    """
    rows = await tx.run(
        "approvals/resolve_approval",
        agent_id=agent_id,
        approval_id=approval_id,
        status=status,
        response=json.dumps(response),
    )
    if not rows:
        raise ApprovalNotFound(approval_id, agent_id)
    row = rows[0]
    if not row["resolved"]:
        raise ApprovalClosed(approval_id, row["approval"]["status"])
    return _stored(row["approval"])


async def expire_if_due(graph: GraphClient, agent_id: str, approval_id: str) -> None:
    """Writes the ``expired`` status of a pending approval past its expiry (no-op otherwise)."""
    await graph.write("approvals/expire_approval", agent_id=agent_id, approval_id=approval_id)
