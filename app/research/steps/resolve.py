"""Resolve: one open conflict between two sources, by the reasoner's ``resolve_conflict`` (which
source to trust and why: date, authority, agreement of the other sources), or marked
unresolvable with the reason; then new conflicts and hypothesis statuses."""

from __future__ import annotations

from app.graph.client import Transaction
from app.reasoning.protocol import ConflictRequest, ConflictSide
from app.research.assessment import counted_evidence
from app.research.assessment_writes import assessment_params, write_assessment
from app.research.models import ResearchEvidence, ResearchState
from app.research.services import ResearchServices, StepPlan, Tally
from app.research.settings import ResearchSettings


def _side(state: ResearchState, evidence: ResearchEvidence) -> ConflictSide:
    source = state.source(evidence.source_id)
    return ConflictSide(
        source_id=source.id,
        stance=evidence.stance,
        confidence=evidence.confidence,
        text=source.text,
        title=source.title,
        origin=source.origin,
        kind=source.kind,
        published=source.published,
    )


def conflict_request(
    state: ResearchState,
    statement: str,
    first: ResearchEvidence,
    second: ResearchEvidence,
    settings: ResearchSettings,
) -> ConflictRequest:
    """What the reasoner is asked about a conflict between ``first`` and ``second`` on one
    hypothesis: both sides, and the other counted evidence on that hypothesis (for agreement)."""
    others = [
        _side(state, e)
        for e in counted_evidence(state, first.hypothesis_id, settings)
        if e.source_id not in (first.source_id, second.source_id)
    ]
    return ConflictRequest(
        hypothesis=statement,
        first=_side(state, first),
        second=_side(state, second),
        others=others,
    )


async def prepare(services: ResearchServices, state: ResearchState, conflict_id: str) -> StepPlan:
    """Resolves the conflict or says why it cannot be."""
    tally = Tally()
    conflict = next(c for c in state.conflicts if c.id == conflict_id)
    hypothesis = next(h for h in state.hypotheses if h.id == conflict.hypothesis_id)
    on_hypothesis = {e.source_id: e for e in state.evidence_on(hypothesis.id)}
    first = on_hypothesis[conflict.first_source_id]
    second = on_hypothesis[conflict.second_source_id]
    answer = await services.reasoner.resolve_conflict(
        conflict_request(state, hypothesis.statement, first, second, services.research)
    )
    tally.count(answer)
    winner = {"first": first, "second": second}.get(answer.outcome)
    status = "unresolvable" if winner is None else "resolved"
    resolution = answer.reason[:2000]
    after_conflict = conflict.model_copy(
        update={
            "status": status,
            "resolution": resolution,
            "basis": answer.basis,
            "winner_source_id": winner.source_id if winner else None,
            "decisive_evidence_id": winner.id if winner else None,
        }
    )
    after = state.model_copy(
        update={
            "conflicts": [after_conflict if c.id == conflict.id else c for c in state.conflicts]
        }
    )
    conflicts, hypotheses = assessment_params(after, services.research)
    params = {
        "id": conflict.id,
        "status": status,
        "resolution": resolution,
        "basis": answer.basis,
        "winner_source_id": winner.source_id if winner else None,
        "decisive_evidence_id": winner.id if winner else None,
        "reasoner": answer.reasoner,
    }

    async def write(tx: Transaction, step_id: str) -> None:
        await tx.run(
            "research/steps/resolve_conflict",
            agent_id=state.investigation.agent_id,
            investigation_id=state.investigation.id,
            step_id=step_id,
            conflict=params,
        )
        await write_assessment(tx, state, step_id, conflicts, hypotheses)

    trusted = f"trusted [{state.source(winner.source_id).number}]" if winner else "unresolvable"
    return StepPlan(
        kind="resolve",
        summary=f"conflict on “{hypothesis.statement}”: {trusted} ({answer.basis}): {resolution}",
        write=write,
        tally=tally,
        details={"conflict_id": conflict.id, "status": status, "basis": answer.basis},
    )
