"""How two people's user models combine when one is merged into the other (docs/memory.md §2)."""

from __future__ import annotations

from datetime import UTC, datetime

from app.memory.people.merging import merged_knowledge, merged_person, merged_preferences
from app.memory.people.models import (
    MAX_PREFERENCES,
    Affect,
    DomainKnowledge,
    InferredGoal,
    Person,
)
from app.memory.settings import MemoryMechanics

M = MemoryMechanics()
T1 = datetime(2026, 3, 1, tzinfo=UTC)
T2 = datetime(2026, 4, 1, tzinfo=UTC)


def _person(name: str, **values: object) -> Person:
    base: dict[str, object] = {
        "id": name.lower(),
        "agent_id": "a",
        "name": name,
        "role": "unknown",
        "seniority": "unknown",
        "authority": 0.5,
        "interaction_frequency": 0.0,
        "interaction_count": 0,
        "context_relevance": 0.5,
        "relationship_value": 0.4,
        "trust": 0.5,
        "affect": Affect(),
        "knowledge_level": "unknown",
        "preferences": {},
        "birth_source": "micro",
    }
    return Person.model_validate({**base, **values})


def test_the_survivor_wins_gaps_are_filled_and_counts_added() -> None:
    keep = _person("Bob Jones", role="CFO", interaction_count=2, last_seen=T1, trust=0.6)
    gone = _person(
        "Bob",
        role="Clerk",
        seniority="vp",
        email="b@x.io",
        interaction_count=3,
        interaction_frequency=0.4,
        last_seen=T2,
        affect=Affect(stress=0.5),
        trust=0.2,
    )
    merged = merged_person(keep, gone, M)
    assert (merged.id, merged.name, merged.role, merged.seniority) == (
        "bob jones",
        "Bob Jones",
        "CFO",
        "vp",
    )
    assert (merged.email, merged.interaction_count, merged.interaction_frequency) == (
        "b@x.io",
        5,
        0.4,
    )
    assert (merged.trust, merged.affect.stress, merged.last_seen) == (0.2, 0.5, T2)


def test_shared_knowledge_is_weighed_by_signals_and_goals_counted_once() -> None:
    ours = {"tax": DomainKnowledge(level="novice", score=0.2, signals=1)}
    theirs = {
        "tax": DomainKnowledge(level="expert", score=0.8, signals=3),
        "law": DomainKnowledge(level="expert", score=0.9, signals=1),
    }
    combined = merged_knowledge(ours, theirs, M)
    assert combined["tax"].signals == 4 and abs(combined["tax"].score - 0.65) < 1e-9
    assert combined["tax"].level == "expert" and combined["law"] == theirs["law"]
    keep = _person("A", inferred_goals=[InferredGoal(goal="close", count=2, last_at=T1)])
    gone = _person(
        "B",
        inferred_goals=[
            InferredGoal(goal="close", count=1, last_at=T2),
            InferredGoal(goal="audit", count=1, last_at=T1),
        ],
    )
    goals = merged_person(keep, gone, M).inferred_goals
    assert [(g.goal, g.count, g.last_at) for g in goals] == [("close", 3, T2), ("audit", 1, T1)]


def test_preferences_keep_the_survivors_and_fill_up_to_the_limit() -> None:
    keep = {f"k{i:02}": i for i in range(MAX_PREFERENCES - 1)} | {"tone": "long"}
    merged = merged_preferences(keep, {"tone": "brief", "zz": 1, "aa": 2})
    assert merged["tone"] == "long" and len(merged) == MAX_PREFERENCES
    assert "aa" not in merged and "zz" not in merged  # the survivor's 50 keys fill it
    assert merged_preferences({"tone": "long"}, {"tone": "brief", "a": 1}) == {
        "tone": "long",
        "a": 1,
    }
