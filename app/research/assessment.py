"""What an investigation's evidence says about each hypothesis, and which sources disagree.

Pure functions over a :class:`ResearchState`, so the rules are tested without a database and the
steps write what they return. Evidence counts when its stance is confident enough
(``evidence_floor``; the offline reasoner's judgements by a floor of their own per stance, and only
for the passages about as close to the hypothesis as the closest one judged, the relevance margin,
or revisions of it); a source that lost a resolved conflict no longer counts for that hypothesis. A
hypothesis with an open conflict is still being validated; one with a conflict that cannot be
resolved is undecided; otherwise the surviving evidence decides it.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.reasoning.offline.reasoner import OFFLINE as OFFLINE_REASONER
from app.research.models import HypothesisStatus, ResearchEvidence, ResearchState
from app.research.settings import ResearchSettings
from app.text.words import content_words, jaccard

# A passage whose content words overlap the closest passage's this much is a revision of the
# same sentence (a contested claim's two revisions: 0.76 in tests/integration/research). 0.7 and
# 0.8 gave the same verdicts on the VitaminC validation pages (bench/README.md).
REVISION_OVERLAP = 0.7


@dataclass(frozen=True, slots=True)
class Assessment:
    hypothesis_id: str
    status: HypothesisStatus
    confidence: float


@dataclass(frozen=True, slots=True)
class NewConflict:
    hypothesis_id: str
    supporting: ResearchEvidence
    contradicting: ResearchEvidence

    @property
    def pair(self) -> str:
        return "|".join(sorted((self.supporting.source_id, self.contradicting.source_id)))


def _losers(state: ResearchState, hypothesis_id: str) -> set[str]:
    """Sources that lost a resolved conflict about the hypothesis."""
    losers: set[str] = set()
    for conflict in state.conflicts:
        if conflict.hypothesis_id != hypothesis_id or conflict.status != "resolved":
            continue
        sides = {conflict.first_source_id, conflict.second_source_id}
        losers |= sides - {conflict.winner_source_id}
    return losers


def floor_of(item: ResearchEvidence, settings: ResearchSettings) -> tuple[float, float]:
    """The confidence from which the judgement counts as evidence, and from which it decides its
    hypothesis: the offline reasoner's floors per stance (its answers for a failed Claude call,
    ``offline (fallback: …)``, too), else ``evidence_floor`` and ``decision_floor``."""
    if item.reasoner.startswith(OFFLINE_REASONER) and item.stance != "neutral":
        floor = (
            settings.offline_contradiction_floor
            if item.stance == "contradicts"
            else settings.offline_support_floor
        )
        return floor, floor
    return settings.evidence_floor, settings.decision_floor


def decides(item: ResearchEvidence, settings: ResearchSettings) -> bool:
    """Whether the judgement is confident enough to decide its hypothesis alone."""
    return item.confidence >= floor_of(item, settings)[1]


def relevance_bar(evidence: list[ResearchEvidence], settings: ResearchSettings) -> float | None:
    """The cosine an offline judgement's passage needs to count: the closest passage judged on
    the hypothesis (neutral ones too) less ``offline_relevance_margin``; None when the margin is
    off or no offline judgement carries a cosine."""
    margin = settings.offline_relevance_margin
    closest = [
        item.similarity
        for item in evidence
        if item.similarity is not None and item.reasoner.startswith(OFFLINE_REASONER)
    ]
    if margin is None or not closest:
        return None
    return max(closest) - margin


def relevant_sources(
    state: ResearchState, evidence: list[ResearchEvidence], settings: ResearchSettings
) -> set[str] | None:
    """The sources whose offline judgements count: the passages at the relevance bar or above,
    and the revisions of the closest passage (content words overlapping its own by at least
    ``REVISION_OVERLAP``, Jaccard): two revisions of one sentence are equally about the
    hypothesis, and those of a contested claim can lie further apart than the margin. None when
    every passage counts."""
    bar = relevance_bar(evidence, settings)
    if bar is None:
        return None
    scored = [
        e for e in evidence if e.similarity is not None and e.reasoner.startswith(OFFLINE_REASONER)
    ]
    closest = max(scored, key=lambda e: (e.similarity or 0.0, e.source_id))
    words = set(content_words(state.source(closest.source_id).text))
    return {
        e.source_id
        for e in scored
        if (e.similarity or 0.0) >= bar
        or jaccard(words, content_words(state.source(e.source_id).text)) >= REVISION_OVERLAP
    }


def _relevant(item: ResearchEvidence, relevant: set[str] | None) -> bool:
    if relevant is None or item.similarity is None:
        return True
    return not item.reasoner.startswith(OFFLINE_REASONER) or item.source_id in relevant


def counted_evidence(
    state: ResearchState, hypothesis_id: str, settings: ResearchSettings
) -> list[ResearchEvidence]:
    """The evidence that bears on the hypothesis now: confident, not neutral, close enough to
    the hypothesis (offline judgements), not from a source that lost a conflict about it; most
    confident first."""
    losers = _losers(state, hypothesis_id)
    judged = state.evidence_on(hypothesis_id)
    relevant = relevant_sources(state, judged, settings)
    counted = [
        item
        for item in judged
        if item.stance != "neutral"
        and item.confidence >= floor_of(item, settings)[0]
        and _relevant(item, relevant)
        and item.source_id not in losers
    ]
    return sorted(counted, key=lambda item: (-item.confidence, item.source_id))


def assess(state: ResearchState, settings: ResearchSettings) -> list[Assessment]:
    """Each hypothesis' status and confidence (how likely it is true) from its evidence."""
    assessments: list[Assessment] = []
    for hypothesis in state.hypotheses:
        conflicts = [c for c in state.conflicts if c.hypothesis_id == hypothesis.id]
        counted = counted_evidence(state, hypothesis.id, settings)
        supporting = [e for e in counted if e.stance == "supports"]
        contradicting = [e for e in counted if e.stance == "contradicts"]
        status: HypothesisStatus
        confidence = 0.5
        if any(c.status == "open" for c in conflicts):
            status = "validating"
        elif any(c.status == "unresolvable" for c in conflicts):
            status = "undecided"
        elif not contradicting and any(decides(e, settings) for e in supporting):
            status, confidence = "confirmed", 0.5 + 0.5 * supporting[0].confidence
        elif not supporting and any(decides(e, settings) for e in contradicting):
            status, confidence = "refuted", 0.5 - 0.5 * contradicting[0].confidence
        elif hypothesis.searches >= settings.searches_per_hypothesis:
            status = "undecided"
        else:
            status = "validating" if hypothesis.searches else "proposed"
        assessments.append(Assessment(hypothesis.id, status, round(confidence, 4)))
    return assessments


def new_conflicts(state: ResearchState, settings: ResearchSettings) -> list[NewConflict]:
    """Per hypothesis, the most confident supporting and contradicting sources still counted,
    when no conflict holds that pair yet (and none about the hypothesis is open or
    unresolvable: one disagreement is settled before the next is raised)."""
    found: list[NewConflict] = []
    for hypothesis in state.hypotheses:
        conflicts = [c for c in state.conflicts if c.hypothesis_id == hypothesis.id]
        if any(c.status in ("open", "unresolvable") for c in conflicts):
            continue
        counted = counted_evidence(state, hypothesis.id, settings)
        supporting = next((e for e in counted if e.stance == "supports"), None)
        contradicting = next((e for e in counted if e.stance == "contradicts"), None)
        if supporting is None or contradicting is None:
            continue
        conflict = NewConflict(hypothesis.id, supporting, contradicting)
        pairs = {"|".join(sorted((c.first_source_id, c.second_source_id))) for c in conflicts}
        if conflict.pair not in pairs:
            found.append(conflict)
    return found


def unjudged(state: ResearchState) -> list[tuple[str, str]]:
    """(hypothesis id, source id) pairs no judge step has decided yet, in citation order."""
    judged = {(item.hypothesis_id, item.source_id) for item in state.evidence}
    return [
        (hypothesis.id, source.id)
        for source in state.sources
        for hypothesis in state.hypotheses
        if (hypothesis.id, source.id) not in judged
    ]
