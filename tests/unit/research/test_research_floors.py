"""The confidence floors of research evidence: the offline reasoner's judgements by a floor per
stance (``offline_support_floor``, ``offline_contradiction_floor``), any other reasoner's by
``evidence_floor`` / ``decision_floor``."""

from __future__ import annotations

from datetime import UTC, datetime

from app.reasoning.protocol import ResearchStance
from app.research.assessment import assess, counted_evidence, decides, floor_of, new_conflicts
from app.research.models import (
    FoundSource,
    Hypothesis,
    Investigation,
    ResearchEvidence,
    ResearchState,
)
from app.research.settings import ResearchSettings, for_offline_judge

# A contradiction counts from 0.55, a support from 0.75; Claude's judgements from 0.7 / 0.8.
FLOORS = ResearchSettings(
    evidence_floor=0.7,
    decision_floor=0.8,
    offline_support_floor=0.75,
    offline_contradiction_floor=0.55,
)
H = Hypothesis(id="h", ordinal=0, statement="X is 5", status="validating", confidence=0.5,
               searches=1)  # fmt: skip
S1 = FoundSource(id="s1", number=1, source_name="corpus", kind="corpus", ref="r1", title="X",
                 origin="o1", text="X is 5")  # fmt: skip
S2 = S1.model_copy(update={"id": "s2", "number": 2, "ref": "r2", "origin": "o2", "text": "X is 6"})


def _evidence(
    source: str, stance: ResearchStance, confidence: float, reasoner: str = "offline"
) -> ResearchEvidence:
    return ResearchEvidence(
        id=f"e-{source}", hypothesis_id="h", source_id=source, stance=stance,
        confidence=confidence, reason="", reasoner=reasoner,
    )  # fmt: skip


def _state(*evidence: ResearchEvidence) -> ResearchState:
    investigation = Investigation(
        id="i", agent_id="a", question="X is 5?", status="running", iteration=3, iteration_cap=10,
        started_by="test", started_at=datetime(2026, 1, 1, tzinfo=UTC),
    )  # fmt: skip
    return ResearchState(
        investigation=investigation, hypotheses=[H], sources=[S1, S2], evidence=list(evidence)
    )


def test_each_offline_stance_has_its_floor_and_other_reasoners_keep_theirs() -> None:
    assert floor_of(_evidence("s1", "supports", 0.9), FLOORS) == (0.75, 0.75)
    assert floor_of(_evidence("s1", "contradicts", 0.9), FLOORS) == (0.55, 0.55)
    assert floor_of(_evidence("s1", "contradicts", 0.9, "claude"), FLOORS) == (0.7, 0.8)
    fallback = _evidence("s1", "contradicts", 0.9, "offline (fallback: refused)")
    assert floor_of(fallback, FLOORS) == (0.55, 0.55)
    assert floor_of(_evidence("s1", "neutral", 0.9), FLOORS) == (0.7, 0.8)
    assert decides(_evidence("s1", "contradicts", 0.55), FLOORS)
    assert not decides(_evidence("s1", "contradicts", 0.549), FLOORS)
    assert not decides(_evidence("s1", "supports", 0.74), FLOORS)


def test_an_offline_contradiction_under_the_old_gate_refutes() -> None:
    state = _state(_evidence("s1", "contradicts", 0.6))
    [refuted] = assess(state, FLOORS)
    assert (refuted.status, refuted.confidence) == ("refuted", 0.2)
    # The same judgement from another reasoner is under evidence_floor: nothing is decided.
    [open_] = assess(_state(_evidence("s1", "contradicts", 0.6, "claude")), FLOORS)
    assert open_.status == "validating"
    # With one floor of 0.7 for everything (the settings before), it does not count either.
    fixed = FLOORS.model_copy(
        update={"offline_support_floor": 0.7, "offline_contradiction_floor": 0.7}
    )
    assert assess(state, fixed)[0].status == "validating"
    assert not counted_evidence(state, "h", fixed)


def test_a_support_under_its_floor_neither_counts_nor_blocks_a_refutation() -> None:
    state = _state(_evidence("s1", "supports", 0.72), _evidence("s2", "contradicts", 0.6))
    assert [e.source_id for e in counted_evidence(state, "h", FLOORS)] == ["s2"]
    assert not new_conflicts(state, FLOORS)
    assert assess(state, FLOORS)[0].status == "refuted"


def test_a_counted_support_and_contradiction_make_a_conflict_not_a_verdict() -> None:
    state = _state(_evidence("s1", "supports", 0.9), _evidence("s2", "contradicts", 0.58))
    [conflict] = new_conflicts(state, FLOORS)
    assert (conflict.supporting.source_id, conflict.contradicting.source_id) == ("s1", "s2")
    assert assess(state, FLOORS)[0].status == "validating"


def test_claude_evidence_between_its_floors_counts_but_does_not_decide() -> None:
    state = _state(_evidence("s1", "supports", 0.75, "claude"))
    assert [e.source_id for e in counted_evidence(state, "h", FLOORS)] == ["s1"]
    assert assess(state, FLOORS)[0].status == "validating"
    decided = _state(_evidence("s1", "supports", 0.85, "claude"))
    assert assess(decided, FLOORS)[0].status == "confirmed"


def test_the_cue_judge_alone_keeps_the_evidence_floor() -> None:
    assert for_offline_judge(FLOORS, learned=True) == FLOORS
    alone = for_offline_judge(FLOORS, learned=False)
    assert (alone.offline_support_floor, alone.offline_contradiction_floor) == (0.7, 0.7)
    state = _state(_evidence("s1", "contradicts", 0.6))
    assert assess(state, FLOORS)[0].status == "refuted"
    assert assess(state, alone)[0].status == "validating"
