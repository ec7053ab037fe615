"""The pure-Python reference of docs/beliefs.md, checked against hand-computed values."""

from __future__ import annotations

import pytest

from app.beliefs import formulas as f
from app.beliefs.mechanics import Mechanics
from app.beliefs.propagation import propagated_tension

M = Mechanics()


@pytest.mark.parametrize(
    ("category", "strength", "invalid"),
    [
        ("aesthetic", 0.59, True),
        ("aesthetic", 0.60, False),
        ("contextual", 0.74, True),
        ("relational", 0.85, False),
        ("relational", 0.84, True),
        ("ethical", 0.949, True),
        ("ethical", 0.95, False),
    ],
)
def test_acre_invalidation_thresholds(category: str, strength: float, invalid: bool) -> None:
    assert f.is_invalidated(strength, category, M) is invalid


def test_outcome_updates_with_moral_asymmetry() -> None:
    assert f.outcome_update(0.5, "success", "neutral", 0.0, M) == pytest.approx(0.65)
    assert f.outcome_update(0.5, "success", "confirmation", 0.0, M) == pytest.approx(0.95)
    # failure: 0.15 · 1 · (0.5 + 0.5 · 0.2) = 0.09
    assert f.outcome_update(0.5, "failure", "neutral", 0.2, M) == pytest.approx(0.41)
    # violation: 0.15 · 10 · (0.5 + 0.5 · 0) = 0.75
    assert f.outcome_update(0.9, "failure", "violation", 0.0, M) == pytest.approx(0.15)
    assert f.outcome_update(0.9, "failure", "violation", 1.0, M) == 0.0
    assert f.outcome_update(0.5, "neutral", "violation", 1.0, M) == 0.5
    assert f.outcome_update(0.99, "success", "confirmation", 0.0, M) == 1.0


def test_one_violation_outweighs_several_confirmations() -> None:
    strength = 0.5
    for _ in range(3):
        strength = f.outcome_update(strength, "success", "confirmation", 0.0, M)
    assert strength == 1.0
    after = f.outcome_update(strength, "failure", "violation", 0.5, M)
    # three confirmations then one violation: below where it started (0.15·10·0.75 = 1.125)
    assert after == 0.0 < 0.5
    # and a mild violation (severity 0) still costs more than two confirmations gain from 0.5
    assert 1.0 - f.outcome_update(1.0, "failure", "violation", 0.0, M) > 2 * 0.45 - 0.5


def test_distrust_needs_an_ethical_violation_to_zero() -> None:
    assert f.becomes_distrusted("ethical", "violation", 0.0)
    assert not f.becomes_distrusted("ethical", "violation", 0.01)
    assert not f.becomes_distrusted("contextual", "violation", 0.0)
    assert not f.becomes_distrusted("ethical", "neutral", 0.0)


def test_reinforcement_has_diminishing_returns() -> None:
    first = f.reinforce(0.5, 1.0, M)
    second = f.reinforce(first, 1.0, M)
    assert first == pytest.approx(0.55)
    assert second == pytest.approx(0.595)
    assert second - first < first - 0.5
    assert f.reinforce(0.5, 0.5, M) == pytest.approx(0.525)


def test_tension_is_linear_and_capped() -> None:
    tension = 0.0
    for _ in range(4):
        tension = f.add_tension(tension, f.tension_delta(1.0, M))
    assert tension == pytest.approx(0.6)
    assert f.add_tension(0.95, 0.15) == 1.0


def test_derived_strength_is_the_weighted_mean() -> None:
    assert f.derived_strength([(1.0, 0.8), (0.5, 0.2)]) == pytest.approx(0.6)
    assert f.derived_strength([]) is None


def test_context_strength_backs_off_along_within() -> None:
    own = {"month_end": 0.3}
    parents = {"acme/month_end": "month_end"}
    assert f.strength_in_context(0.8, own, parents, "acme/month_end") == 0.3
    assert (
        f.strength_in_context(0.8, {"acme/month_end": 0.9, **own}, parents, "acme/month_end") == 0.9
    )
    assert f.strength_in_context(0.8, own, parents, "quarter_end") == 0.8
    assert f.strength_in_context(0.8, own, parents, None) == 0.8


@pytest.mark.parametrize(
    ("strength", "mode"),
    [
        (None, "guidance"),
        (0.0, "guidance"),
        (0.39, "guidance"),
        (0.4, "proposal"),
        (0.69, "proposal"),
        (0.7, "autonomous"),
        (1.0, "autonomous"),
    ],
)
def test_supervision_mode_from_strength(strength: float | None, mode: str) -> None:
    assert f.supervision_mode(strength, M) == mode


def test_tension_propagates_three_hops_with_rho_and_weights() -> None:
    edges = [
        f.Edge("a", "b", 0.5),
        f.Edge("b", "c", 1.0),
        f.Edge("c", "d", 1.0),
        f.Edge("d", "e", 1.0),
        f.Edge("a", "c", 1.0),
    ]
    active = dict.fromkeys("abcde", True)

    received = propagated_tension("a", 0.15, edges, active, M)

    assert received["b"] == pytest.approx(0.15 * 0.5 * 0.5)
    # c: via b (2 hops, 0.5 · 1) and directly (1 hop, weight 1)
    assert received["c"] == pytest.approx(0.15 * 0.25 * 0.5 + 0.15 * 0.5)
    assert received["d"] == pytest.approx(0.15 * 0.125 * 0.5 + 0.15 * 0.25)
    assert received["e"] == pytest.approx(0.15 * 0.125)  # only the 3-hop path a→c→d→e
    assert "a" not in received


def test_inactive_beliefs_block_propagation() -> None:
    edges = [f.Edge("a", "b", 1.0), f.Edge("b", "c", 1.0)]
    received = propagated_tension("a", 0.15, edges, {"a": True, "b": False, "c": True}, M)
    assert received == {}


def test_cascade_rederives_in_dependency_order() -> None:
    # a, b support c; c and a support d: d must be computed after c.
    edges = [
        f.Edge("a", "c", 1.0),
        f.Edge("b", "c", 1.0),
        f.Edge("c", "d", 1.0),
        f.Edge("a", "d", 1.0),
    ]
    strengths = {"a": 0.9, "b": 0.5, "c": 0.0, "d": 0.0}

    assert f.dependency_order(["a"], edges) == ["c", "d"]
    moved = f.cascade(["a"], strengths, edges)

    assert moved == {"c": pytest.approx(0.7), "d": pytest.approx(0.8)}


def test_cascade_leaves_distrusted_beliefs_alone() -> None:
    edges = [f.Edge("a", "b", 1.0), f.Edge("b", "c", 1.0)]
    strengths = {"a": 0.2, "b": 0.9, "c": 0.9}
    assert f.cascade(["a"], strengths, edges, distrusted=["b"]) == {}


def test_dissatisfaction_weights_importance_and_centrality() -> None:
    value, contributions = f.dissatisfaction(
        [("hub", 0.8, 1.0, 4), ("leaf", 0.0, 1.0, 1), ("quiet", 0.0, 0.5, 0)]
    )
    weights = {"hub": 1.0, "leaf": 0.625, "quiet": 0.25}
    assert value == pytest.approx(0.8 * 1.0 / sum(weights.values()))
    assert contributions[0].belief_id == "hub"
    assert f.dissatisfaction([]) == (0.0, [])


@pytest.mark.parametrize(
    ("value", "band"),
    [(0.0, "low"), (0.29, "low"), (0.3, "medium"), (0.59, "medium"), (0.6, "high"), (1.0, "high")],
)
def test_dissatisfaction_bands(value: float, band: str) -> None:
    assert f.band(value, M) == band
