"""Research mode's pure rules: the supervisor's choice, hypothesis assessment and conflicts, the
offline conflict resolution and hypothesis."""

from __future__ import annotations

from datetime import UTC, date, datetime

from app.reasoning.offline.research import hypothesis_from, resolve_conflict
from app.reasoning.protocol import ConflictRequest, ConflictSide, ResearchStance
from app.research.assessment import assess, new_conflicts, unjudged
from app.research.models import (
    FoundSource,
    Hypothesis,
    Investigation,
    ResearchEvidence,
    ResearchState,
    SourceConflict,
)
from app.research.settings import ResearchSettings
from app.research.supervisor import next_step

SETTINGS = ResearchSettings()


def _state(**parts: object) -> ResearchState:
    investigation = Investigation(
        id="i", agent_id="a", question="Q?", status="running", iteration=3, iteration_cap=10,
        started_by="test", started_at=datetime(2026, 1, 1, tzinfo=UTC),
    )  # fmt: skip
    return ResearchState.model_validate({"investigation": investigation, **parts})


H = Hypothesis(id="h", ordinal=0, statement="X is 5", status="validating", confidence=0.5,
               searches=1)  # fmt: skip
S1 = FoundSource(id="s1", number=1, source_name="corpus", kind="corpus", ref="r1", title="X",
                 origin="o", text="X is 5")  # fmt: skip
S2 = S1.model_copy(update={"id": "s2", "number": 2, "ref": "r2", "text": "X is 6"})


def _evidence(source: str, stance: ResearchStance, confidence: float) -> ResearchEvidence:
    return ResearchEvidence(
        id=f"e-{source}", hypothesis_id="h", source_id=source, stance=stance,
        confidence=confidence, reason="", reasoner="offline",
    )  # fmt: skip


def _kind(state: ResearchState) -> str | None:
    """The kind of the supervisor's next step, None when it gives none."""
    step = next_step(state, SETTINGS)
    return None if step is None else step.kind


def test_the_supervisor_proposes_first_then_resolves_judges_searches_synthesizes() -> None:
    fresh = _state()
    fresh.investigation.iteration = 0
    assert _kind(fresh) == "supervisor"
    assert _kind(_state(hypotheses=[H])) == "search"
    assert _kind(_state(hypotheses=[H], sources=[S1])) == "judge"
    conflict = SourceConflict(id="c", hypothesis_id="h", status="open", first_source_id="s1",
                              second_source_id="s2")  # fmt: skip
    state = _state(hypotheses=[H], sources=[S1, S2], conflicts=[conflict])
    assert _kind(state) == "resolve"
    searched = H.model_copy(update={"searches": SETTINGS.searches_per_hypothesis})
    assert _kind(_state(hypotheses=[searched])) == "synthesize"
    capped = _state(hypotheses=[H], sources=[S1], conflicts=[conflict])
    capped.investigation.iteration = 10
    assert _kind(capped) == "synthesize"
    capped.investigation.status = "paused"
    assert next_step(capped, SETTINGS) is None


def test_a_proposal_that_gave_no_hypothesis_is_not_asked_again() -> None:
    """A question the reasoner finds no hypothesis in (a blank one, offline) once made the
    supervisor propose again at every step, past the iteration cap, forever."""
    proposed = _state()
    proposed.investigation.iteration = 1
    step = next_step(proposed, SETTINGS)
    assert step is not None and step.kind == "synthesize"
    assert step.why == "the question gave no hypothesis to investigate"
    proposed.investigation.iteration = proposed.investigation.iteration_cap
    assert _kind(proposed) == "synthesize"


def test_disagreeing_sources_make_one_conflict_and_its_resolution_decides() -> None:
    evidence = [_evidence("s1", "supports", 0.8), _evidence("s2", "contradicts", 0.9)]
    state = _state(hypotheses=[H], sources=[S1, S2], evidence=evidence)
    [conflict] = new_conflicts(state, SETTINGS)
    assert (conflict.supporting.source_id, conflict.contradicting.source_id) == ("s1", "s2")
    assert not unjudged(state)
    resolved = SourceConflict(id="c", hypothesis_id="h", status="resolved", first_source_id="s1",
                              second_source_id="s2", winner_source_id="s2")  # fmt: skip
    [after] = assess(state.model_copy(update={"conflicts": [resolved]}), SETTINGS)
    assert after.status == "refuted" and after.confidence == 0.05
    unresolvable = resolved.model_copy(update={"status": "unresolvable", "winner_source_id": None})
    [stuck] = assess(state.model_copy(update={"conflicts": [unresolvable]}), SETTINGS)
    assert stuck.status == "undecided"
    assert not new_conflicts(state.model_copy(update={"conflicts": [unresolvable]}), SETTINGS)


def test_weak_stances_do_not_count() -> None:
    state = _state(hypotheses=[H], sources=[S1], evidence=[_evidence("s1", "supports", 0.6)])
    [assessment] = assess(state, SETTINGS)
    assert assessment.status == "validating"


def _side(source: str, stance: str, **extra: object) -> ConflictSide:
    return ConflictSide.model_validate(
        {"source_id": source, "stance": stance, "confidence": 0.8, "text": "t", **extra}
    )


def test_offline_resolution_prefers_the_newer_then_the_authoritative_then_the_majority() -> None:
    first, second = _side("s1", "supports"), _side("s2", "contradicts")
    dated = ConflictRequest(
        hypothesis="h",
        first=first.model_copy(update={"published": date(2020, 1, 1)}),
        second=second.model_copy(update={"published": date(2021, 1, 1)}),
    )
    assert (resolve_conflict(dated).outcome, resolve_conflict(dated).basis) == ("second", "date")
    authority = ConflictRequest(hypothesis="h", first=first, second=_side("s2", "contradicts",
                                kind="episode"))  # fmt: skip
    assert resolve_conflict(authority).basis == "authority"
    majority = ConflictRequest(
        hypothesis="h", first=first, second=second, others=[_side("s3", "contradicts")]
    )
    assert resolve_conflict(majority).outcome == "second"
    weak = ConflictRequest(
        hypothesis="h", first=first, second=second,
        others=[_side("s3", "contradicts").model_copy(update={"confidence": 0.72})],
    )  # fmt: skip
    answer = resolve_conflict(weak)
    assert answer.outcome == "unresolvable" and "no publication dates" in answer.reason


def test_the_offline_hypothesis_is_the_question_as_a_statement() -> None:
    assert hypothesis_from("Is it true that the bridge opened in 1932?") == (
        "The bridge opened in 1932"
    )
    assert hypothesis_from("Cats sleep 16 hours a day.") == "Cats sleep 16 hours a day."
