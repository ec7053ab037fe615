"""The revision engine: a belief at the tension threshold is revised (a phase transition).

The reasoner proposes each revised statement first (it may be slow: Claude); then one write
transaction applies the whole plan, the belief and the connected beliefs that reached the
threshold with it (cascade depth ≤ 3, CASCADED_FROM), so a failure half-way changes nothing.
Immutable (creed) beliefs are never revised automatically: an Approval is requested instead.
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from app.beliefs.cascade import cascade_from
from app.beliefs.mechanics import Mechanics
from app.beliefs.models import ApprovalRequest, RevisionOutcome, RevisionSummary
from app.errors import BeliefNotFound
from app.graph.agent_scope import lock_agent
from app.graph.client import GraphClient, Transaction
from app.metrics import count_revisions
from app.reasoning.protocol import EvidenceNote, Neighbour, Reasoner, RevisedBelief, RevisionRequest
from app.text.lexical import scored_words

log = logging.getLogger(__name__)

# graph.read or tx.run: a query by catalog name with its parameters.
Reader = Callable[..., Awaitable[list[dict[str, Any]]]]


async def apply_revision_in(
    tx: Transaction, mechanics: Mechanics, agent_id: str, revision: dict[str, Any]
) -> list[dict[str, Any]]:
    """Replaces a belief by its revision (beliefs/revision/apply_revision: its header lists the
    ``revision`` map) inside the caller's transaction, which holds the agent's lock; no cascade
    (run :func:`app.beliefs.cascade.cascade_from` from the new belief after).

    Returns:
        One row when the belief was revised; none when it was revised or deactivated meanwhile.
    """
    return await tx.run(
        "beliefs/revision/apply_revision",
        agent_id=agent_id,
        m=mechanics.as_params(),
        # The words the lexical search scores the new belief by.
        revision={**revision, **scored_words(revision["statement"])},
    )


class Reviser(Protocol):
    """The one judgement revision needs (any Reasoner is one)."""

    async def revise(self, request: RevisionRequest) -> RevisedBelief: ...


@dataclass(frozen=True, slots=True)
class PlannedRevision:
    belief_id: str
    depth: int
    parent_id: str | None
    request: RevisionRequest
    is_immutable: bool
    proposal: RevisedBelief
    revision_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    new_belief_id: str = field(default_factory=lambda: str(uuid.uuid4()))


async def revise_tense(
    graph: GraphClient,
    mechanics: Mechanics,
    reasoner: Reasoner,
    agent_id: str,
    candidate_ids: list[str] | None = None,
) -> RevisionOutcome:
    """Revises every active belief (among ``candidate_ids``, or all) at the threshold."""
    if candidate_ids is None:
        rows = await graph.read(
            "beliefs/revision/list_tense_beliefs",
            agent_id=agent_id,
            min_tension=mechanics.revision_threshold,
        )
    else:
        rows = await graph.read(
            "beliefs/revision/list_tense_beliefs_among",
            agent_id=agent_id,
            ids=candidate_ids,
            min_tension=mechanics.revision_threshold,
        )
    return await _revise_each(
        rows, lambda belief_id: revise_belief(graph, mechanics, reasoner, agent_id, belief_id)
    )


async def revise_belief(
    graph: GraphClient,
    mechanics: Mechanics,
    reasoner: Reasoner,
    agent_id: str,
    belief_id: str,
    mode: str = "threshold",
    with_cascade: bool = True,
) -> RevisionOutcome:
    """Revises one belief and, with ``with_cascade``, the connected beliefs at the threshold.

    Raises:
        AgentNotFound, BeliefNotFound.
    """
    planned = await plan_revision(
        graph.read, mechanics, reasoner, agent_id, belief_id, mode, with_cascade
    )

    async def work(tx: Transaction) -> RevisionOutcome:
        await lock_agent(tx, agent_id)
        return await _apply_plan(tx, mechanics, agent_id, planned)

    outcome = await graph.write_transaction(work, action=f"revising belief {belief_id}")
    # Counted once committed; a turn's own revisions are counted with the turn (observe_turn).
    count_revisions(revision.mode for revision in outcome.revisions)
    return outcome


class Proposals(Protocol):
    """Revised statements the reasoner proposed before the caller's transaction."""

    def proposal_for(self, request: RevisionRequest) -> AnsweredRevision | None: ...


@dataclass(frozen=True, slots=True)
class AnsweredRevision:
    """A proposal with the ids its revision is written under (fixed when it was asked, so a
    transaction run again writes the same revision)."""

    proposal: RevisedBelief
    revision_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    new_belief_id: str = field(default_factory=lambda: str(uuid.uuid4()))


@dataclass(slots=True)
class TenseRevision:
    """What revising inside a transaction did, and the requests it still needs answered."""

    outcome: RevisionOutcome = field(default_factory=RevisionOutcome)
    unanswered: list[RevisionRequest] = field(default_factory=list)


async def revise_tense_in(
    tx: Transaction,
    mechanics: Mechanics,
    proposals: Proposals,
    agent_id: str,
    candidate_ids: list[str],
) -> TenseRevision:
    """``revise_tense`` inside the caller's transaction (which holds the agent lock), with
    the reasoner's proposals asked before it: the plan reads what the transaction has written
    so far, so a turn's own evidence counts. A tense belief whose plan has a step without a
    proposal is left as it is, and its requests are returned: the caller asks the reasoner
    outside the transaction and runs it again (a transaction never waits on the reasoner, and
    a transient retry never calls it twice)."""
    rows = await tx.run(
        "beliefs/revision/list_tense_beliefs_among",
        agent_id=agent_id,
        ids=candidate_ids,
        min_tension=mechanics.revision_threshold,
    )
    revised = TenseRevision()
    handled: set[str] = set()
    for row in rows:
        if row["id"] in handled:
            continue
        steps = await revision_steps(tx.run, mechanics, agent_id, row["id"])
        answers = [proposals.proposal_for(step.request) for step in steps]
        if any(answer is None for answer in answers):
            revised.unanswered += [
                step.request for step, answer in zip(steps, answers, strict=True) if not answer
            ]
            handled.update(step.belief_id for step in steps)
            continue
        planned = [
            step.answered(answer)
            for step, answer in zip(steps, answers, strict=True)
            if answer is not None
        ]
        _absorb(revised.outcome, handled, await _apply_plan(tx, mechanics, agent_id, planned))
    return revised


async def _revise_each(
    rows: list[dict[str, Any]], revise_one: Callable[[str], Awaitable[RevisionOutcome]]
) -> RevisionOutcome:
    """Revises the tense beliefs in order, skipping any a previous revision's cascade (or
    approval request) already took care of."""
    outcome = RevisionOutcome()
    handled: set[str] = set()
    for row in rows:
        if row["id"] in handled:
            continue
        _absorb(outcome, handled, await revise_one(row["id"]))
    return outcome


def _absorb(outcome: RevisionOutcome, handled: set[str], result: RevisionOutcome) -> None:
    """Adds one belief's revision ``result`` to ``outcome``, and marks every belief it revised
    or asked approval for as handled (a later tense row among them is skipped)."""
    handled.update(r.old_belief_id for r in result.revisions)
    handled.update(a.belief_id for a in result.approvals)
    outcome.revisions.extend(result.revisions)
    outcome.approvals.extend(result.approvals)


@dataclass(frozen=True, slots=True)
class RevisionStep:
    """One belief of a revision's plan (the belief, then its cascade) and what the reasoner is
    asked about it."""

    belief_id: str
    depth: int
    parent_id: str | None
    request: RevisionRequest
    is_immutable: bool

    def answered(self, answer: AnsweredRevision) -> PlannedRevision:
        return PlannedRevision(
            self.belief_id,
            self.depth,
            self.parent_id,
            self.request,
            self.is_immutable,
            answer.proposal,
            answer.revision_id,
            answer.new_belief_id,
        )


async def revision_steps(
    read: Reader,
    mechanics: Mechanics,
    agent_id: str,
    belief_id: str,
    mode: str = "threshold",
    with_cascade: bool = True,
) -> list[RevisionStep]:
    """The belief's (and the cascade's) revision requests; reads only.

    Raises:
        BeliefNotFound.
    """
    plan_rows = await read(
        "beliefs/revision/find_revision_cascade",
        agent_id=agent_id,
        belief_id=belief_id,
        threshold=mechanics.revision_threshold,
        max_depth=mechanics.revision_max_cascade_depth if with_cascade else 0,
    )
    if not plan_rows:
        raise BeliefNotFound(belief_id, agent_id)
    steps: list[RevisionStep] = []
    for step in plan_rows[0]["plan"]:
        request, immutable = await _request_for(
            read, agent_id, step["id"], mode if step["depth"] == 0 else "cascade"
        )
        steps.append(RevisionStep(step["id"], step["depth"], step["parent_id"], request, immutable))
    return steps


async def plan_revision(
    read: Reader,
    mechanics: Mechanics,
    reasoner: Reviser,
    agent_id: str,
    belief_id: str,
    mode: str = "threshold",
    with_cascade: bool = True,
) -> list[PlannedRevision]:
    """Asks the reasoner for the belief's (and the cascade's) revised statements; writes nothing.

    Raises:
        BeliefNotFound.
    """
    steps = await revision_steps(read, mechanics, agent_id, belief_id, mode, with_cascade)
    return [step.answered(AnsweredRevision(await reasoner.revise(step.request))) for step in steps]


async def _request_for(
    read: Reader, agent_id: str, belief_id: str, mode: str
) -> tuple[RevisionRequest, bool]:
    row = (
        await read(
            "beliefs/revision/get_revision_context",
            agent_id=agent_id,
            belief_id=belief_id,
            limit=10,
        )
    )[0]
    belief = row["belief"]
    request = RevisionRequest(
        belief_id=belief_id,
        statement=belief["statement"],
        category=belief["category"],
        strength=belief["strength"],
        tension=belief["tension"],
        against=[EvidenceNote.model_validate(e) for e in row["against"]],
        supporting=[EvidenceNote.model_validate(e) for e in row["supporting"]],
        neighbours=[Neighbour.model_validate(n) for n in row["neighbours"]],
        episodes=row["episodes"],
        mode=mode,
    )
    return request, bool(belief["is_immutable"])


async def _apply_plan(
    tx: Transaction, mechanics: Mechanics, agent_id: str, planned: list[PlannedRevision]
) -> RevisionOutcome:
    outcome = RevisionOutcome()
    revision_of: dict[str, str] = {}
    for step in planned:
        if step.is_immutable:
            outcome.approvals.append(await _request_approval(tx, agent_id, step))
            continue
        parent_revision = revision_of.get(step.parent_id) if step.parent_id else None
        params: dict[str, Any] = {
            "id": step.revision_id,
            "old_id": step.belief_id,
            "new_id": step.new_belief_id,
            "statement": step.proposal.statement,
            "reasoning": step.proposal.reasoning,
            "evidence_summary": step.proposal.evidence_summary,
            "behavioral_changes": step.proposal.behavioral_changes,
            "depth": step.depth,
            "mode": step.request.mode,
            "reasoner": step.proposal.reasoner,
            "parent_revision_id": parent_revision,
        }
        rows = await apply_revision_in(tx, mechanics, agent_id, params)
        if not rows:
            log.info("belief %s was revised meanwhile; skipped", step.belief_id)
            continue
        revision_of[step.belief_id] = params["id"]
        await cascade_from(tx, mechanics, agent_id, [params["new_id"]], f"revision {params['id']}")
        outcome.revisions.append(
            RevisionSummary(
                id=params["id"],
                old_belief_id=step.belief_id,
                new_belief_id=params["new_id"],
                old_statement=step.request.statement,
                new_statement=step.proposal.statement,
                trigger_tension=rows[0]["trigger_tension"],
                mode=step.request.mode,
                depth=step.depth,
                reasoner=step.proposal.reasoner,
                parent_revision_id=parent_revision,
            )
        )
    return outcome


async def _request_approval(
    tx: Transaction, agent_id: str, step: PlannedRevision
) -> ApprovalRequest:
    payload = json.dumps(
        {
            "request": step.request.model_dump(mode="json"),
            "proposal": step.proposal.model_dump(mode="json"),
        }
    )
    row = (
        await tx.run(
            "beliefs/revision/create_revision_approval",
            agent_id=agent_id,
            approval={
                "id": str(uuid.uuid4()),
                "belief_id": step.belief_id,
                "payload": payload,
                "proposed_statement": step.proposal.statement,
            },
        )
    )[0]
    return ApprovalRequest(
        id=row["id"],
        belief_id=step.belief_id,
        kind="revision",
        status=row["status"],
        proposed_statement=row["proposed_statement"],
    )


async def meditate(
    graph: GraphClient, mechanics: Mechanics, reasoner: Reasoner, agent_id: str
) -> RevisionOutcome:
    """The runaway guard: reviews every active belief with tension ≥ meditation_min_tension."""
    outcome = RevisionOutcome()
    rows = await graph.read(
        "beliefs/revision/list_tense_beliefs",
        agent_id=agent_id,
        min_tension=mechanics.meditation_min_tension,
    )
    for row in rows:
        result = await revise_belief(
            graph, mechanics, reasoner, agent_id, row["id"], mode="meditation", with_cascade=False
        )
        outcome.revisions.extend(result.revisions)
        outcome.approvals.extend(result.approvals)
    return outcome


async def revise_urgent(
    graph: GraphClient,
    mechanics: Mechanics,
    reasoner: Reasoner,
    agent_id: str,
    monotonic: Callable[[], float] = time.monotonic,
) -> RevisionOutcome:
    """Seed 001's orchestrator step 2, for a turn at high dissatisfaction: revises the agent's
    most urgent beliefs (mutable, tension ≥ ``urgent_revision_min_tension``, most tense first,
    at most ``urgent_revision_beliefs``, with their cascades; mode ``urgent``), starting no new
    revision once ``urgent_revision_seconds`` have passed by ``monotonic`` (the runtime's
    seconds, ``LoopServices.monotonic``; a test's own counter). Each revision asks the reasoner
    before its own transaction, as every revision does."""
    outcome = RevisionOutcome()
    if mechanics.urgent_revision_beliefs == 0:
        return outcome
    rows = await graph.read(
        "beliefs/revision/list_tense_beliefs",
        agent_id=agent_id,
        min_tension=mechanics.urgent_revision_min_tension,
    )
    urgent = [row["id"] for row in rows if not row["is_immutable"]]
    started = monotonic()
    revised: set[str] = set()
    chosen = 0
    for belief_id in urgent:
        if chosen >= mechanics.urgent_revision_beliefs:
            break
        if monotonic() - started >= mechanics.urgent_revision_seconds:
            log.info("urgent revisions of agent %s stopped at the time bound", agent_id)
            break
        if belief_id in revised:  # revised already by an earlier one's cascade
            continue
        chosen += 1
        result = await revise_belief(graph, mechanics, reasoner, agent_id, belief_id, "urgent")
        outcome.revisions.extend(result.revisions)
        outcome.approvals.extend(result.approvals)
        revised.update(summary.old_belief_id for summary in result.revisions)
        revised.add(belief_id)
    return outcome


async def record_dissatisfaction_in(
    tx: Transaction, mechanics: Mechanics, agent_id: str, *, restart: bool = False
) -> tuple[float, int]:
    """Inside the caller's transaction: a sample of D as it stands now, and the runaway guard's
    streak of consecutive samples above ``meditation_dissatisfaction`` (returned; ``restart``:
    the streak restarts whatever D is)."""
    rows = await tx.run(
        "beliefs/dissatisfaction/record_dissatisfaction",
        agent_id=agent_id,
        medium_from=mechanics.dissatisfaction_medium_from,
        high_from=mechanics.dissatisfaction_high_from,
        level=mechanics.meditation_dissatisfaction,
        restart=restart,
    )
    value = float(rows[0]["value"])
    return value, int(rows[0]["streak"])


async def meditate_if_runaway(
    graph: GraphClient,
    mechanics: Mechanics,
    reasoner: Reasoner,
    agent_id: str,
    streak: int,
) -> RevisionOutcome | None:
    """After more than ``meditation_turns`` samples in a row above the line, a meditation runs
    and the streak restarts; otherwise nothing happens."""
    if streak <= mechanics.meditation_turns:
        return None
    outcome = await meditate(graph, mechanics, reasoner, agent_id)
    # The sample after the meditation: D as the meditation left it, the streak restarted.
    await graph.write_transaction(
        lambda tx: record_dissatisfaction_in(tx, mechanics, agent_id, restart=True),
        action="recording dissatisfaction after a meditation",
    )
    return outcome


async def observe_turn(
    graph: GraphClient, mechanics: Mechanics, reasoner: Reasoner, agent_id: str
) -> tuple[float, int, RevisionOutcome | None]:
    """Records this turn's dissatisfaction; after more than ``meditation_turns`` consecutive
    turns above ``meditation_dissatisfaction`` a meditation runs (and the streak restarts).
    (A chat turn records its sample inside its own transaction instead.)

    Returns:
        D, the streak after this turn, and the meditation's outcome if one ran.
    """
    value, streak = await graph.write_transaction(
        lambda tx: record_dissatisfaction_in(tx, mechanics, agent_id),
        action="recording dissatisfaction",
    )
    outcome = await meditate_if_runaway(graph, mechanics, reasoner, agent_id, streak)
    return value, (0 if outcome is not None else streak), outcome
