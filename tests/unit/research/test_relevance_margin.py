"""The relevance margin of offline research evidence: an offline judgement counts only when its
passage is about as close to the hypothesis (cosine) as the closest passage judged on it;
Claude's judgements and judgements without a cosine are not held to it."""

from __future__ import annotations

from datetime import UTC, datetime

from app.research.assessment import (
    assess,
    counted_evidence,
    new_conflicts,
    relevance_bar,
    relevant_sources,
)
from app.research.models import (
    FoundSource,
    Hypothesis,
    Investigation,
    ResearchEvidence,
    ResearchState,
)
from app.research.settings import ResearchSettings, for_offline_judge

SETTINGS = ResearchSettings(
    offline_support_floor=0.8, offline_contradiction_floor=0.8, offline_relevance_margin=0.02
)
H = Hypothesis(id="h", ordinal=0, statement="Book Club earned less than $73 million globally",
               status="validating", confidence=0.5, searches=1)  # fmt: skip
# The sentence that states the claim's figure, and another sentence of its page with another figure.
S1 = FoundSource(id="s1", number=1, source_name="corpus", kind="corpus", ref="r1",
                 title="Book Club", origin="o1",
                 text="The film was released by Paramount Pictures and has grossed $72 million "
                      "worldwide.")  # fmt: skip
S2 = S1.model_copy(
    update={"id": "s2", "number": 2, "ref": "r2", "origin": "o2",
            "text": "The film was a box office success grossing over $93.4 million."}
)  # fmt: skip
S3 = S1.model_copy(update={"id": "s3", "number": 3, "ref": "r3", "origin": "o3", "text": "Cast."})
# Another revision of the closest sentence: only the figure differs.
S4 = S1.model_copy(
    update={"id": "s4", "number": 4, "ref": "r4", "origin": "o4",
            "text": "The film was released by Paramount Pictures and has grossed $75 million "
                    "worldwide."}
)  # fmt: skip


def _evidence(
    source: str,
    stance: str,
    confidence: float,
    similarity: float | None,
    reasoner: str = "offline",
) -> ResearchEvidence:
    return ResearchEvidence(
        id=f"e-{source}", hypothesis_id="h", source_id=source, stance=stance,
        confidence=confidence, reason="", reasoner=reasoner, similarity=similarity,
    )  # fmt: skip


def _state(*evidence: ResearchEvidence) -> ResearchState:
    investigation = Investigation(
        id="i", agent_id="a", question=H.statement, status="running", iteration=3,
        iteration_cap=10, started_by="test", started_at=datetime(2026, 1, 1, tzinfo=UTC),
    )  # fmt: skip
    return ResearchState(
        investigation=investigation,
        hypotheses=[H],
        sources=[S1, S2, S3, S4],
        evidence=list(evidence),
    )


def test_a_less_related_sentence_of_the_page_does_not_outvote_the_closest_one() -> None:
    state = _state(
        _evidence("s1", "supports", 0.91, similarity=0.83),
        _evidence("s2", "contradicts", 0.86, similarity=0.71),
    )
    assert relevance_bar(state.evidence, SETTINGS) == 0.83 - 0.02
    assert [e.source_id for e in counted_evidence(state, "h", SETTINGS)] == ["s1"]
    assert not new_conflicts(state, SETTINGS)
    assert assess(state, SETTINGS)[0].status == "confirmed"
    # Every passage counting (the settings before), the two make a conflict.
    before = SETTINGS.model_copy(update={"offline_relevance_margin": None})
    assert relevance_bar(state.evidence, before) is None
    assert len(new_conflicts(state, before)) == 1
    assert assess(state, before)[0].status == "validating"


def test_two_passages_within_the_margin_still_make_a_conflict() -> None:
    state = _state(
        _evidence("s1", "supports", 0.91, similarity=0.83),
        _evidence("s2", "contradicts", 0.86, similarity=0.815),
    )
    assert {e.source_id for e in counted_evidence(state, "h", SETTINGS)} == {"s1", "s2"}
    assert len(new_conflicts(state, SETTINGS)) == 1


def test_a_closer_neutral_passage_sets_the_bar() -> None:
    state = _state(
        _evidence("s3", "neutral", 0.7, similarity=0.9),
        _evidence("s1", "supports", 0.91, similarity=0.83),
    )
    assert not counted_evidence(state, "h", SETTINGS)
    assert assess(state, SETTINGS)[0].status == "validating"


def test_claude_and_judgements_without_a_cosine_are_not_held_to_the_margin() -> None:
    state = _state(
        _evidence("s1", "supports", 0.91, similarity=0.83),
        _evidence("s2", "contradicts", 0.86, similarity=None, reasoner="claude"),
        _evidence("s3", "contradicts", 0.86, similarity=None),
    )
    assert {e.source_id for e in counted_evidence(state, "h", SETTINGS)} == {"s1", "s2", "s3"}
    # Claude's cosine (none is recorded today) would not set the bar either.
    claude_only = _state(_evidence("s2", "contradicts", 0.9, similarity=0.95, reasoner="claude"))
    assert relevance_bar(claude_only.evidence, SETTINGS) is None


def test_the_cue_judge_alone_counts_every_passage() -> None:
    alone = for_offline_judge(SETTINGS, learned=False)
    assert alone.offline_relevance_margin is None
    assert for_offline_judge(SETTINGS, learned=True).offline_relevance_margin == 0.02


def test_a_revision_of_the_closest_sentence_counts_though_further_than_the_margin() -> None:
    # The two revisions of a contested claim: a real conflict, whatever their cosines.
    state = _state(
        _evidence("s1", "supports", 0.91, similarity=0.83),
        _evidence("s4", "contradicts", 0.9, similarity=0.78),
        _evidence("s2", "contradicts", 0.86, similarity=0.78),
    )
    assert relevant_sources(state, state.evidence, SETTINGS) == {"s1", "s4"}
    assert {e.source_id for e in counted_evidence(state, "h", SETTINGS)} == {"s1", "s4"}
    [conflict] = new_conflicts(state, SETTINGS)
    assert (conflict.supporting.source_id, conflict.contradicting.source_id) == ("s1", "s4")
