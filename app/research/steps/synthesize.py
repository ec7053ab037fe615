"""Synthesize: the investigation's end. Hypotheses still open become undecided; the reasoner
writes the markdown report citing the sources by number; decided hypotheses enter the agent's
beliefs (:mod:`app.research.beliefs`); the report, the verdict and the belief changes commit
together, and revision of the beliefs brought to the threshold follows."""

from __future__ import annotations

import re

from app.graph.client import Transaction
from app.reasoning.protocol import (
    SynthesisConflict,
    SynthesisHypothesis,
    SynthesisRequest,
    SynthesisSource,
)
from app.research import beliefs
from app.research.assessment import assess, counted_evidence
from app.research.models import ResearchState, Verdict
from app.research.services import ResearchServices, StepPlan, Tally

_CITATION = re.compile(r"\[(\d+)\]")


def final_statuses(
    state: ResearchState, services: ResearchServices
) -> dict[str, tuple[str, float]]:
    """Each hypothesis' final status: as assessed, except that one still open is undecided."""
    final: dict[str, tuple[str, float]] = {}
    for assessment in assess(state, services.research):
        if assessment.status in ("proposed", "validating"):
            final[assessment.hypothesis_id] = ("undecided", 0.5)
        else:
            final[assessment.hypothesis_id] = (assessment.status, assessment.confidence)
    return final


def verdict_of(state: ResearchState, final: dict[str, tuple[str, float]]) -> Verdict:
    """The verdict on the question: the status of its first hypothesis (the question's own claim
    for the offline reasoner)."""
    if not state.hypotheses:
        return "undecided"
    status = final[state.hypotheses[0].id][0]
    return (
        "confirmed" if status == "confirmed" else "refuted" if status == "refuted" else "undecided"
    )


def synthesis_request(
    state: ResearchState, services: ResearchServices, final: dict[str, tuple[str, float]],
    verdict: Verdict,
) -> SynthesisRequest:  # fmt: skip
    numbers = {source.id: source.number for source in state.sources}
    hypotheses = []
    for hypothesis in state.hypotheses:
        counted = counted_evidence(state, hypothesis.id, services.research)
        status, confidence = final[hypothesis.id]
        hypotheses.append(
            SynthesisHypothesis(
                statement=hypothesis.statement,
                status=status,
                confidence=confidence,
                supporting=sorted(numbers[e.source_id] for e in counted if e.stance == "supports"),
                contradicting=sorted(
                    numbers[e.source_id] for e in counted if e.stance == "contradicts"
                ),
                failed_sources=hypothesis.failed_sources,
            )
        )
    cited = {n for h in hypotheses for n in (*h.supporting, *h.contradicting)}
    statements = {h.id: h.statement for h in state.hypotheses}
    conflicts = [
        SynthesisConflict(
            hypothesis=statements[c.hypothesis_id],
            status=c.status,
            resolution=c.resolution,
            sources=sorted([numbers[c.first_source_id], numbers[c.second_source_id]]),
        )
        for c in state.conflicts
    ]
    cited |= {n for c in conflicts for n in c.sources}
    return SynthesisRequest(
        question=state.investigation.question,
        verdict=verdict,
        hypotheses=hypotheses,
        sources=[
            SynthesisSource(number=s.number, title=s.title, origin=s.origin, text=s.text)
            for s in state.sources
            if s.number in cited
        ],
        conflicts=conflicts,
        sources_asked=state.investigation.sources or services.sources.names(),
        failed_sources=list(dict.fromkeys(n for h in state.hypotheses for n in h.failed_sources)),
    )


def cited_numbers(report: str) -> set[int]:
    return {int(number) for number in _CITATION.findall(report)}


async def prepare(services: ResearchServices, state: ResearchState) -> StepPlan:
    """Writes the report, plans the belief changes, and finishes the investigation."""
    tally = Tally()
    final = final_statuses(state, services)
    verdict = verdict_of(state, final)
    request = synthesis_request(state, services, final, verdict)
    answer = await services.reasoner.synthesize(request)
    tally.count(answer)
    report = answer.report
    changes = await beliefs.plan(
        services, state, {hypothesis_id: status for hypothesis_id, (status, _) in final.items()}
    )
    agent_id = state.investigation.agent_id
    hypotheses = [
        {"id": hypothesis_id, "status": status, "confidence": confidence}
        for hypothesis_id, (status, confidence) in final.items()
    ]
    touched: list[str] = []

    async def write(tx: Transaction, step_id: str) -> None:
        scope = {"agent_id": agent_id, "investigation_id": state.investigation.id}
        await tx.run("research/assessment_writes/update_hypotheses", **scope, hypotheses=hypotheses)
        touched[:] = await beliefs.write_in(tx, services, agent_id, changes)
        await tx.run("research/steps/finish_investigation", **scope, verdict=verdict, report=report)

    async def after_commit() -> None:
        await beliefs.after_commit(
            services, agent_id, touched, any(c.effect == "created" for c in changes)
        )

    effects = (
        ", ".join(
            f"{c.effect} belief {c.belief_id}"
            + (f" ({c.already_counted} passage(s) already counted)" if c.already_counted else "")
            for c in changes
        )
        or "no belief changed"
    )
    failed = request.failure_note()
    return StepPlan(
        kind="synthesize",
        summary=f"verdict {verdict}{f' ({failed})' if failed else ''}; "
        f"report of {len(report)} characters citing "
        f"{len(cited_numbers(report))} source(s); {effects}",
        write=write,
        tally=tally,
        details={
            "verdict": verdict,
            "failed_sources": request.failed_sources,
            "beliefs": [
                {
                    "hypothesis_id": c.hypothesis_id,
                    "effect": c.effect,
                    "belief_id": c.belief_id,
                    "evidence_applied": len(c.passages),
                    "already_counted": c.already_counted,
                }
                for c in changes
            ],
        },
        after_commit=after_commit,
    )
