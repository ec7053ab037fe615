"""Approvals (human in the loop): a guidance or proposal turn persists the question, the
proposed work unit and the turn's state in Neo4j, so a person can answer it later, through any
API process, also after a restart. Approvals expire after ``loop.approval_ttl_hours``: an
expired approval is marked ``expired`` and the task that waited on it is cancelled
(:func:`expire_overdue`), by the scheduler's ``approval_expiry`` job or by an answer that comes
too late, whichever notices first."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from pydantic import BaseModel, Field

from app.common import Category
from app.errors import AgentNotFound, ApprovalClosed, ApprovalNotAuthorized, ApprovalNotFound
from app.graph.agent_scope import lock_agent, require_agent
from app.graph.client import GraphClient, Transaction
from app.loop.models import (
    ApprovalAnswer,
    ApprovalPublic,
    ApprovalsPublic,
    ChatRequest,
    TurnMode,
)
from app.loop.settings import LoopSettings
from app.memory.people.names import name_key
from app.memory.working_memory import move_task_in
from app.reasoning.protocol import Appraisal, WorkUnit
from app.tools.actions import expire_pending_actions_in
from app.tools.calls import described_as_called


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
    # The beliefs an outcome of the resumed turn moves (the most relevant, at most three) and
    # the rules the paused turn applied (validated when the resumed turn succeeds).
    outcome_belief_ids: list[str] = Field(default_factory=list)
    rule_ids: list[str] = Field(default_factory=list)
    # The category of what the resumed turn learns (the paused turn's frame's default_category).
    learned_category: Category = "contextual"


class StoredApproval(BaseModel):
    public: ApprovalPublic
    state: TurnState | None


def _public(row: dict[str, Any]) -> ApprovalPublic:
    work_unit = row.get("work_unit")
    modified = row.get("modified_work_unit")
    response = row.get("response")
    if isinstance(response, str):
        try:
            parsed = json.loads(response)
            response = parsed.get("text") or parsed.get("action")
            if parsed.get("error"):  # closed after its work ran, its turn not written
                response = f"{response}: {parsed['error']}"
        except (json.JSONDecodeError, AttributeError):
            pass
    return ApprovalPublic(
        id=row["id"],
        kind=row.get("kind", "proposal"),
        status=row.get("status", "pending"),
        question=row.get("question") or row.get("proposed_statement") or "",
        work_unit=WorkUnit.model_validate_json(work_unit) if work_unit else None,
        modified_work_unit=WorkUnit.model_validate_json(modified) if modified else None,
        belief_id=row.get("belief_id"),
        created_at=row.get("created_at"),
        expires_at=row.get("expires_at"),
        resolved_at=row.get("resolved_at"),
        response=response,
        required_authority=row.get("required_authority"),
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
    required_authority: float,
) -> ApprovalPublic:
    """Persists a pending approval inside the turn's transaction; ``required_authority``: the
    least authority of a person other than the principal who may answer it."""
    rows = await tx.run(
        "loop/approvals/create_approval",
        agent_id=agent_id,
        approval={
            "id": str(uuid.uuid4()),
            "kind": kind,
            "question": question,
            "work_unit": work_unit.model_dump_json() if work_unit else None,
            "belief_id": state.belief_id,
            "turn_state": state.model_dump_json(),
            "episode_id": episode_id,
            "expires_at": tx.clock.now() + timedelta(hours=ttl_hours),
            "required_authority": required_authority,
        },
    )
    return _public(rows[0]["approval"])


def required_authority(stakes: str, loop: LoopSettings) -> float:
    """The authority an approval of a turn at ``stakes`` needs from whoever is not the
    principal: a manager's for standard work, a director's for high stakes."""
    return loop.approval_authority_high_stakes if stakes == "high" else loop.approval_authority


async def check_authority(
    graph: GraphClient,
    loop: LoopSettings,
    agent_id: str,
    stored: StoredApproval,
    speaker: str | None,
) -> None:
    """Refuses an answer from someone without the authority for the approval, before anything
    is written. ``speaker``: who answers (the answer's speaker, else the paused turn's); nobody
    named answers as the principal (the API's caller acts for them). The principal may answer
    any approval; anyone else must be a known person of the agent with at least the approval's
    required authority. An agent born without a principal checks nobody (there is no one whose
    authority an answer could be measured against); one whose principal was deleted still
    checks everyone named (nobody answers as the deleted principal).

    Raises:
        AgentNotFound; ApprovalNotAuthorized.
    """
    key = name_key(speaker) if speaker else None
    rows = await graph.read("loop/approvals/read_answerer", agent_id=agent_id, name_key=key)
    if not rows:
        raise AgentNotFound(agent_id)
    principal, person = rows[0]["principal"], rows[0]["person"]
    if principal is None and not rows[0]["principal_deleted"]:
        return
    if speaker is None or (principal is not None and key == principal["name_key"]):
        return
    if principal is not None and person is not None and person["id"] == principal["id"]:
        return  # the principal by a name merged into them (an alias, docs/memory.md §2)
    needed = stored.public.required_authority
    if needed is None:
        needed = required_authority(stored.state.stakes if stored.state else "low", loop)
    authority = person["authority"] if person is not None else None
    if authority is not None and authority >= needed:
        return
    raise ApprovalNotAuthorized(
        stored.public.id,
        speaker,
        authority,
        needed,
        (principal["name"] or "the principal") if principal else "the principal (deleted)",
    )


async def get_approval(graph: GraphClient, agent_id: str, approval_id: str) -> StoredApproval:
    """One approval with its stored turn state.

    Raises:
        AgentNotFound, ApprovalNotFound.
    """
    rows = await graph.read(
        "loop/approvals/get_approval", agent_id=agent_id, approval_id=approval_id
    )
    if not rows:
        await require_agent(graph, agent_id)
        raise ApprovalNotFound(approval_id, agent_id)
    stored = _stored(rows[0]["approval"])
    if stored.public.status == "pending" and _expired(stored.public, graph.clock.now()):
        stored.public.status = "expired"
    return stored


def _expired(approval: ApprovalPublic, now: datetime) -> bool:
    return approval.expires_at is not None and approval.expires_at < now


async def list_approvals(
    graph: GraphClient, agent_id: str, status: str | None = None, limit: int = 50
) -> ApprovalsPublic:
    """The agent's approvals, newest first (pending ones past expiry show as expired).

    Raises:
        AgentNotFound.
    """
    await require_agent(graph, agent_id)
    rows = await graph.read(
        "loop/approvals/list_approvals", agent_id=agent_id, status=status, limit=limit
    )
    data = [_public(row["approval"]) for row in rows]
    return ApprovalsPublic(data=data, count=len(data))


async def claim(
    graph: GraphClient, agent_id: str, approval_id: str, claim_id: str, lease_s: int
) -> None:
    """Claims a pending approval for one resumption, in a transaction of its own, before its
    work unit runs: a second answer to the same approval is refused instead of executing the
    work again. An expired approval is marked expired.

    Raises:
        ApprovalNotFound; ApprovalClosed (answered, being answered, or expired).
    """

    async def work(tx: Transaction) -> list[dict[str, Any]]:
        # Under the agent's lock: two claims cannot both read "pending".
        await lock_agent(tx, agent_id)
        return await tx.run(
            "loop/approvals/claim_approval",
            agent_id=agent_id,
            approval_id=approval_id,
            claim=claim_id,
            lease_s=lease_s,
        )

    rows = await graph.write_transaction(work, action="claiming an approval")
    if not rows:
        raise ApprovalNotFound(approval_id, agent_id)
    if not rows[0]["claimed"]:
        raise ApprovalClosed(approval_id, rows[0]["status"])


async def release(graph: GraphClient, agent_id: str, approval_id: str, claim_id: str) -> None:
    """Gives a claimed approval back (its resumption failed and wrote nothing): pending again."""
    await graph.write(
        "loop/approvals/release_approval",
        agent_id=agent_id,
        approval_id=approval_id,
        claim=claim_id,
    )


# An approval's status once answered, by the answer's action.
ANSWERED_STATUS = {
    "approve": "approved",
    "modify": "modified",
    "answer": "answered",
    "reject": "rejected",
}


def modified_unit(answer: ApprovalAnswer) -> WorkUnit | None:
    """The unit a ``modify`` answer runs instead of the one proposed, described as it runs (a
    tool call's words say the person's call: app/tools/calls.py); None for any other answer."""
    if answer.action != "modify" or answer.work_unit is None:
        return None
    return described_as_called(answer.work_unit)


async def close_after_work(
    graph: GraphClient,
    agent_id: str,
    approval_id: str,
    claim_id: str,
    answer: ApprovalAnswer,
    error: str,
) -> None:
    """Closes a claimed approval whose work ran but whose turn could not be written (its own
    transaction): answered as ``action`` answers it, the failure in its response, so that no
    second answer can run the work again (release would make it pending). A lost claim is left
    as it is."""
    response = {"action": answer.action, "error": error}
    status = ANSWERED_STATUS[answer.action]

    async def work(tx: Transaction) -> None:
        await lock_agent(tx, agent_id)
        try:
            await resolve_in(
                tx, agent_id, approval_id, claim_id, status, response, modified_unit(answer)
            )
        except ApprovalClosed:
            return

    await graph.write_transaction(work, action="closing an approval after its work")


async def resolve_in(
    tx: Transaction,
    agent_id: str,
    approval_id: str,
    claim_id: str,
    status: str,
    response: dict[str, Any],
    modified: WorkUnit | None = None,
) -> StoredApproval:
    """Resolves the approval this resumption claimed, inside the resumed turn's transaction;
    ``modified``: the unit a ``modify`` answer ran, kept beside the one proposed.

    Raises:
        ApprovalNotFound; ApprovalClosed when the claim was lost (taken over after its lease).
    """
    rows = await tx.run(
        "loop/approvals/resolve_approval",
        agent_id=agent_id,
        approval_id=approval_id,
        claim=claim_id,
        status=status,
        response=json.dumps(response),
        modified_work_unit=modified.model_dump_json() if modified is not None else None,
    )
    if not rows:
        raise ApprovalNotFound(approval_id, agent_id)
    row = rows[0]
    if not row["resolved"]:
        raise ApprovalClosed(approval_id, row["approval"]["status"])
    return _stored(row["approval"])


@dataclass(frozen=True, slots=True)
class Expiry:
    """What :func:`expire_overdue` did: the approvals it marked expired, those whose waiting
    task it cancelled, and the tool calls (Action ids) it marked not executed."""

    expired: list[str]
    cancelled: list[str]
    actions: list[str]


def expired_cause(approval_id: str) -> str:
    """The cause a task records when its approval expired."""
    return f"approval {approval_id} expired before anyone answered it"


async def expire_overdue(graph: GraphClient, agent_id: str, now: datetime, lease_s: int) -> Expiry:
    """Marks the agent's pending approvals past their expiry at ``now`` expired (and those left
    ``resuming`` by a process that died: a claim older than ``lease_s``; a live claim's
    resumption is never expired under it), cancels the
    tasks still awaiting input on an expired approval (the transition at ``now``, its cause the
    approval's expiry) and marks a tool call still pending on one ``not_executed``, in one
    transaction under the agent's lock. Idempotent: run again, it
    finds nothing to do; the transaction only writes, so a re-run after a transient error does
    the same."""

    async def work(tx: Transaction) -> Expiry:
        await lock_agent(tx, agent_id)
        [row] = await tx.run(
            "loop/approvals/expire_approvals", agent_id=agent_id, now=now, lease_s=lease_s
        )
        cancelled: list[str] = []
        for approval_id in row["waiting"]:
            moved = await move_task_in(
                tx,
                agent_id,
                approval_id,
                [("cancelled", expired_cause(approval_id))],
                now,
                ("awaiting_input",),
            )
            if moved is not None:
                cancelled.append(approval_id)
        expired = list(row["expired"])
        # A tool call that waited on one of them never ran.
        ended = sorted(set(expired) | set(row["waiting"]))
        actions = await expire_pending_actions_in(tx, agent_id, ended, now)
        return Expiry(expired=expired, cancelled=cancelled, actions=actions)

    return await graph.write_transaction(work, action="expiring approvals")
