"""The pure rules of the person model (app/memory/people/user_model.py, learning.py): trust moves
bounded and recorded, knowledge per domain, goals, patterns and the answer's depth."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from app.memory.people.learning import (
    AnswerAction,
    ProposalAnswer,
    TurnSignals,
    WayOfWorking,
    person_after_answer,
    person_after_turn,
)
from app.memory.people.models import Affect, Person
from app.memory.people.user_model import (
    answer_depth,
    goals_after,
    knowledge_after,
    knowledge_signal,
    patterns_after,
    trust_after,
    with_trust_change,
)
from app.memory.settings import MemoryMechanics

MECHANICS = MemoryMechanics()
NOW = datetime(2027, 2, 10, 9, 0, tzinfo=UTC)


def _person(trust: float = 0.5) -> Person:
    return Person(
        id="p1",
        agent_id="a1",
        name="Dana Fox",
        role="unknown",
        seniority="unknown",
        authority=0.5,
        interaction_frequency=0.0,
        interaction_count=0,
        context_relevance=0.5,
        relationship_value=0.4,
        trust=trust,
        affect=Affect(),
        knowledge_level="unknown",
        preferences={},
        birth_source="micro",
    )


@given(st.floats(0.0, 1.0), st.lists(st.booleans(), max_size=60))
def test_trust_stays_in_the_unit_interval_whatever_happens(start: float, moves: list[bool]) -> None:
    trust = start
    for gained in moves:
        after = trust_after(trust, gained, MECHANICS)
        assert 0.0 <= after <= 1.0
        assert (after >= trust) if gained else (after <= trust)
        trust = after


def test_a_loss_weighs_more_than_a_gain() -> None:
    assert trust_after(0.5, True, MECHANICS) == 0.55
    assert trust_after(0.5, False, MECHANICS) == 0.4


def test_each_trust_change_is_recorded_newest_first_and_bounded() -> None:
    person = _person()
    for step in range(MECHANICS.trust_history_kept + 5):
        after = trust_after(person.trust, True, MECHANICS)
        person = with_trust_change(
            person,
            "approval",
            after,
            f"step {step}",
            None,
            NOW + timedelta(minutes=step),
            MECHANICS,
        )
    assert len(person.trust_history) == MECHANICS.trust_history_kept
    latest = person.trust_history[0]
    assert latest.reason == f"step {MECHANICS.trust_history_kept + 4}"
    assert latest.after == person.trust and latest.delta == round(latest.after - latest.before, 10)
    # A move to the same value records nothing.
    assert with_trust_change(person, "edit", person.trust, "same", None, NOW, MECHANICS) == person


def test_knowledge_signals_and_levels() -> None:
    assert knowledge_signal("What is an accrual?", False, MECHANICS) == 0.0
    assert knowledge_signal("In my experience we accrue monthly.", False, MECHANICS) == 1.0
    assert knowledge_signal("What is it? Always attach receipts.", True, MECHANICS) == 1.0
    assert knowledge_signal("Reconcile Chase please.", False, MECHANICS) is None
    novice = knowledge_after({}, "accruals", 0.0, NOW, MECHANICS)
    assert novice["accruals"].level == "novice" and novice["accruals"].score == 0.3
    back = knowledge_after(novice, "accruals", 1.0, NOW, MECHANICS)
    assert back["accruals"].level == "intermediate" and back["accruals"].signals == 2
    expert = knowledge_after({}, "tax", 1.0, NOW, MECHANICS)
    assert expert["tax"].level == "expert" and "accruals" not in expert


def test_goals_and_patterns_count_again_and_move_first() -> None:
    goals = goals_after([], "Reconcile the Chase account", "reconcile", NOW, MECHANICS)
    goals = goals_after(goals, "Close March", None, NOW, MECHANICS)
    goals = goals_after(goals, "reconcile the  Chase account", "reconcile", NOW, MECHANICS)
    assert [(g.goal, g.count) for g in goals] == [
        ("reconcile the Chase account", 2),
        ("Close March", 1),
    ]
    patterns = patterns_after([], "task", "proposal", "remember", "standard", NOW, MECHANICS)
    patterns = patterns_after(patterns, "task", "proposal", "remember", "standard", NOW, MECHANICS)
    [pattern] = patterns
    assert pattern.count == 2 and pattern.pattern == "proposal of remember in task, standard answer"


def test_the_answer_depth_follows_knowledge_then_what_worked() -> None:
    worked = patterns_after([], "question", "autonomous", None, "detailed", NOW, MECHANICS)
    assert answer_depth("novice", [], "question") == "detailed"
    assert answer_depth("expert", worked, "question") == "brief"
    assert answer_depth("intermediate", worked, "question") == "detailed"
    assert answer_depth(None, worked, "task") == "detailed"  # no pattern in this frame: any
    assert answer_depth(None, [], "task") == "standard"


def test_a_turn_moves_trust_only_for_a_learned_correction() -> None:
    person = _person()
    quiet = person_after_turn(person, TurnSignals(text="Hello there"), MECHANICS, NOW)
    assert quiet == person
    corrected = person_after_turn(
        person,
        TurnSignals(text="No, it is two people.", corrections=["It is two people"], taught=True),
        MECHANICS,
        NOW,
    )
    [change] = corrected.trust_history
    assert change.cause == "correction" and corrected.trust == 0.55


def test_answers_to_proposals_move_trust_by_what_came_of_them() -> None:
    way = WayOfWorking(frame="task", mode="proposal", verb="remember")

    def answered(action: AnswerAction, outcome: str) -> Person:
        answer = ProposalAnswer(
            action=action,
            outcome=outcome,
            approval_id="ap1",
            question="May I go ahead?",
            way=way,
        )
        return person_after_answer(_person(), answer, MECHANICS, NOW)

    succeeded = answered("approve", "success")
    assert succeeded.trust == 0.55 and succeeded.successful_patterns[0].verb == "remember"
    failed = answered("approve", "failure")
    assert failed.trust == 0.4 and failed.trust_history[0].delta < 0
    assert failed.successful_patterns == []
    assert answered("approve", "neutral").trust_history == []
    rejected = answered("reject", "failure")
    assert rejected.trust == 0.55 and rejected.trust_history[0].cause == "rejection"
