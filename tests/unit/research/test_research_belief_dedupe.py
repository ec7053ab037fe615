"""A passage counts once per belief (app/research/beliefs.py drop_counted; no database)."""

from __future__ import annotations

from app.beliefs.models import EvidenceForBelief
from app.research.beliefs import BeliefChange, CountedPassage, drop_counted, normalised_text


def _passage(key: str, text: str, stance: str = "contradicting") -> CountedPassage:
    evidence = EvidenceForBelief.model_validate({"belief_id": "b", "text": text, "stance": stance})
    return CountedPassage(evidence=evidence, passage_key=key)


def test_a_refuting_passage_already_on_the_belief_is_not_applied_again() -> None:
    earlier = _passage("corpus:p1", "The moon has no effect on tides.")
    change = BeliefChange(
        "h", "challenged", "b", "Tides follow the moon", [earlier, _passage("corpus:p2", "New.")]
    )

    drop_counted([change], {"b": earlier.marks()})

    assert [p.passage_key for p in change.passages] == ["corpus:p2"]
    assert change.already_counted == 1


def test_the_same_text_twice_in_one_run_counts_once_across_hypotheses() -> None:
    first = BeliefChange("h1", "reinforced", "b", "s", [_passage("corpus:p1", "Spring  tides.")])
    second = BeliefChange("h2", "reinforced", "b", "s", [_passage("corpus:p9", "spring tides.")])
    other = BeliefChange("h3", "reinforced", "c", "t", [_passage("corpus:p1", "Spring tides.")])

    drop_counted([first, second, other], {})

    assert [len(c.passages) for c in (first, second, other)] == [1, 0, 1]
    assert second.already_counted == 1 and other.already_counted == 0
    assert normalised_text(" Spring\n TIDES. ") == "spring tides."
