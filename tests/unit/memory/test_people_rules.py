"""Pure rules of people, rules and capabilities (no database)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.memory.people.formulas import (
    affect_after,
    authority_for,
    interaction_frequency_after,
    relationship_value,
)
from app.memory.people.models import Affect
from app.memory.rules import effective_confidence
from app.memory.self_model import CapabilityState, capability_after, merged_gaps
from app.memory.settings import SENIORITIES, MemoryMechanics

M = MemoryMechanics()
NOW = datetime(2026, 3, 15, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("seniority", "authority"),
    [
        ("entry", 0.3),
        ("junior", 0.4),
        ("senior", 0.6),
        ("manager", 0.7),
        ("director", 0.8),
        ("vp", 0.85),
        ("c_suite", 0.95),
        ("unknown", 0.5),
        ("intern-ish", 0.5),
    ],
)
def test_authority_follows_seniority(seniority: str, authority: float) -> None:
    assert authority_for(seniority, M) == authority


def test_relationship_value_weights_authority_most() -> None:
    assert relationship_value(0.7, 0.5, 0.25, M) == pytest.approx(0.6 * 0.7 + 0.1 + 0.05)
    assert relationship_value(0.5, 0.0, 0.0, M) == pytest.approx(0.3)


def test_every_seniority_has_an_authority_setting() -> None:
    assert set(M.authority_by_seniority) == set(SENIORITIES)
    with pytest.raises(ValueError, match="lacks"):
        MemoryMechanics(authority_by_seniority={"entry": 0.3})


def test_interaction_frequency_rises_with_diminishing_returns() -> None:
    frequency, steps = 0.0, []
    for _ in range(5):
        frequency = interaction_frequency_after(frequency, NOW, NOW, M)
        steps.append(frequency)
    assert steps[0] == pytest.approx(0.1)
    assert steps[1] == pytest.approx(0.19)
    gains = [b - a for a, b in pairwise([0.0, *steps])]
    assert all(later < earlier for earlier, later in pairwise(gains))


def test_silence_halves_frequency_every_half_life() -> None:
    month_ago = NOW - timedelta(days=30)
    assert interaction_frequency_after(0.8, month_ago, NOW, M) == pytest.approx(0.4 + 0.1 * 0.6)
    # A clock that runs backwards does not raise the frequency through decay.
    assert interaction_frequency_after(0.5, NOW + timedelta(days=3), NOW, M) == pytest.approx(0.55)


@given(
    frequency=st.floats(0, 1),
    idle_days=st.floats(0, 10_000),
    gain=st.floats(0, 1),
)
def test_interaction_frequency_stays_in_unit_interval(
    frequency: float, idle_days: float, gain: float
) -> None:
    mechanics = MemoryMechanics(interaction_gain=gain)
    after = interaction_frequency_after(frequency, NOW - timedelta(days=idle_days), NOW, mechanics)
    assert 0.0 <= after <= 1.0


def test_frustration_raises_stress_and_lowers_valence() -> None:
    affect, frustration, praise = affect_after(Affect(), "This is still broken, I'm frustrated", M)
    assert frustration == ["frustrated", "still broken"]
    assert praise == []
    assert affect.stress == pytest.approx(0.2)
    assert affect.valence == pytest.approx(-0.3)


def test_thanks_raise_valence_and_lower_stress() -> None:
    affect, frustration, praise = affect_after(
        Affect(valence=0.0, stress=0.5), "Thank you, well done!", M
    )
    assert frustration == [] and praise == ["thank", "well done"]
    assert affect.valence == pytest.approx(0.2)
    assert affect.stress == pytest.approx(0.4)


def test_the_seeds_own_cues_stuck_hate_and_love() -> None:
    _, frustration, _ = affect_after(Affect(), "I'm stuck on this and I hate the new ledger", M)
    assert frustration == ["stuck", "hate"]
    affect, _, praise = affect_after(Affect(), "I love the new close checklist", M)
    assert praise == ["love"] and affect.valence == pytest.approx(0.2)


def test_each_kind_of_cue_applies_once_per_text_and_both_can_apply() -> None:
    affect, _, _ = affect_after(
        Affect(), "Annoying, frustrating, useless — but thanks for trying", M
    )
    assert affect.stress == pytest.approx(0.1)  # +0.2 then −0.1
    assert affect.valence == pytest.approx(-0.1)  # −0.3 then +0.2


def test_affect_is_clamped() -> None:
    low = Affect(valence=-0.9, arousal=0.4, stress=0.95)
    affect, _, _ = affect_after(low, "I am angry", M)
    assert affect == Affect(valence=-1.0, arousal=0.4, stress=1.0)
    high = Affect(valence=0.95, stress=0.05)
    affect, _, _ = affect_after(high, "thanks", M)
    assert affect.valence == 1.0 and affect.stress == 0.0


def test_no_cue_no_change_and_cues_need_whole_words() -> None:
    neutral = Affect(valence=0.1, arousal=0.2, stress=0.3)
    assert affect_after(neutral, "Please reconcile the thanksgiving invoices", M)[0] == neutral


def test_rule_confidence_holds_for_thirty_days_then_decays_monthly() -> None:
    created = NOW - timedelta(days=400)
    validated = NOW - timedelta(days=29)
    assert effective_confidence(0.8, validated, created, NOW) == 0.8
    assert effective_confidence(0.8, NOW - timedelta(days=60), created, NOW) == pytest.approx(
        0.8 * 0.95**2
    )
    # Never validated: counted from creation.
    assert effective_confidence(0.8, None, NOW - timedelta(days=90), NOW) == pytest.approx(
        0.8 * 0.95**3
    )
    assert effective_confidence(0.8, None, NOW - timedelta(days=10), NOW) == 0.8


@given(days=st.floats(0, 5000), confidence=st.floats(0, 1))
def test_decay_never_raises_confidence(days: float, confidence: float) -> None:
    decayed = effective_confidence(confidence, NOW - timedelta(days=days), NOW, NOW)
    assert 0.0 <= decayed <= confidence


def test_capability_success_and_failure() -> None:
    start = CapabilityState(proficiency=0.5, success_rate=0.5, experience_count=3)
    win = capability_after(start, True, 0.8, M)
    assert win.proficiency == pytest.approx(0.5 + 0.05 * 0.8)
    assert win.success_rate == pytest.approx(0.9 * 0.5 + 0.1)
    assert win.experience_count == 4
    loss = capability_after(start, False, 0.5, M)
    assert loss.proficiency == pytest.approx(0.5 - 0.02 * 0.5)
    assert loss.success_rate == pytest.approx(0.45)


def test_capability_is_clamped() -> None:
    top = CapabilityState(proficiency=0.99, success_rate=1.0, experience_count=0)
    assert capability_after(top, True, 1.0, M).proficiency == 1.0
    bottom = CapabilityState(proficiency=0.01, success_rate=0.0, experience_count=0)
    assert capability_after(bottom, False, 1.0, M).proficiency == 0.0


def test_knowledge_gaps_deduplicate_and_keep_the_newest() -> None:
    merged = merged_gaps(["Chart of accounts"], ["chart  of ACCOUNTS", "Approval limits"], 10)
    assert merged == ["Chart of accounts", "Approval limits"]
    assert merged_gaps(["a", "b"], ["c"], 2) == ["b", "c"]
