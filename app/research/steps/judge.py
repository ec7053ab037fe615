"""Judge: the stance of each source not yet judged towards each hypothesis (the reasoner's
``judge_passage``), recorded as ``ResearchEvidence``; then new conflicts and hypothesis statuses."""

from __future__ import annotations

import uuid

from app.graph.client import Transaction
from app.reasoning.protocol import PassageRequest
from app.research.assessment import unjudged
from app.research.assessment_writes import assessment_params, write_assessment
from app.research.models import ResearchEvidence, ResearchState
from app.research.services import ResearchServices, StepPlan, Tally


async def prepare(services: ResearchServices, state: ResearchState) -> StepPlan:
    """Judges up to ``judgements_per_step`` pairs, in citation order."""
    tally = Tally()
    pairs = unjudged(state)[: services.research.judgements_per_step]
    statements = {h.id: h.statement for h in state.hypotheses}
    judged: list[ResearchEvidence] = []
    for hypothesis_id, source_id in pairs:
        source = state.source(source_id)
        answer = await services.reasoner.judge_passage(
            PassageRequest(
                hypothesis=statements[hypothesis_id],
                passage=source.text,
                title=source.title,
                published=source.published,
            )
        )
        tally.count(answer)
        judged.append(
            ResearchEvidence(
                id=str(uuid.uuid4()),
                hypothesis_id=hypothesis_id,
                source_id=source_id,
                stance=answer.stance,
                confidence=answer.confidence,
                reason=answer.reason[:1000],
                reasoner=answer.reasoner,
                similarity=answer.similarity,
            )
        )
    after = state.model_copy(update={"evidence": [*state.evidence, *judged]})
    conflicts, hypotheses = assessment_params(after, services.research)
    judgements = [item.model_dump() for item in judged]

    async def write(tx: Transaction, step_id: str) -> None:
        await tx.run(
            "research/steps/record_judgements",
            agent_id=state.investigation.agent_id,
            investigation_id=state.investigation.id,
            step_id=step_id,
            judgements=judgements,
        )
        await write_assessment(tx, state, step_id, conflicts, hypotheses)

    counts = {stance: sum(1 for j in judged if j.stance == stance) for stance in
              ("supports", "contradicts", "neutral")}  # fmt: skip
    return StepPlan(
        kind="judge",
        summary=f"judged {len(judged)} passage(s): {counts['supports']} support, "
        f"{counts['contradicts']} contradict, {counts['neutral']} neutral; "
        f"{len(conflicts)} new conflict(s)",
        write=write,
        tally=tally,
        details={"judged": len(judged), **counts, "new_conflicts": len(conflicts)},
    )
