"""Pure-Python reference of every formula of docs/beliefs.md.

The Cypher in ``cypher/beliefs/`` computes the same things inside Neo4j;
unit and property-based tests hold the two equal. Nothing here touches the database.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from app.beliefs.mechanics import Mechanics

Outcome = Literal["success", "failure", "neutral"]
MoralValence = Literal["neutral", "confirmation", "violation"]
SupervisionMode = Literal["guidance", "proposal", "autonomous"]
Band = Literal["low", "medium", "high"]

SIGNAL: Mapping[str, int] = {"success": 1, "failure": -1, "neutral": 0}


def clip(value: float, low: float = 0.0, high: float = 1.0) -> float:
    return max(low, min(high, value))


def is_invalidated(strength: float, category: str, m: Mechanics) -> bool:
    """A belief is invalidated when its strength falls below its category's threshold."""
    return strength < m.thresholds()[category] - m.invalidation_tolerance


def effective_alpha(outcome: str, valence: str, severity: float, m: Mechanics) -> float:
    """alpha_base · multiplier(valence), scaled by (0.5 + 0.5 · severity) for a failure."""
    alpha = m.alpha_base * m.multipliers()[valence]
    return alpha * (0.5 + 0.5 * severity) if outcome == "failure" else alpha


def outcome_update(
    strength: float, outcome: str, valence: str, severity: float, m: Mechanics
) -> float:
    """new = clip(old + alpha_eff · signal, 0, 1)."""
    return clip(strength + effective_alpha(outcome, valence, severity, m) * SIGNAL[outcome])


def becomes_distrusted(category: str, valence: str, new_strength: float) -> bool:
    """A violation that drives an ethical belief to 0 distrusts it for good."""
    return category == "ethical" and valence == "violation" and new_strength <= 0.0


def reinforce(strength: float, weight: float, m: Mechanics) -> float:
    """Diminishing returns: strength += (1 − strength) · rate · weight."""
    return clip(strength + (1.0 - strength) * m.reinforcement_rate * weight)


def trust_factor(trust: float) -> float:
    """How a person's trust scales the weight of their evidence: 0.5 + trust, so the default
    trust (0.5) leaves it as it was, a trusted person (1.0) weighs half again as much and a
    distrusted one (0) half as much (the weight is capped at 1)."""
    return 0.5 + min(1.0, max(0.0, trust))


def tension_delta(weight: float, m: Mechanics) -> float:
    """δ = rate · weight (linear; tension never decays)."""
    return m.contradiction_rate * weight


def add_tension(tension: float, delta: float) -> float:
    return min(1.0, tension + delta)


def derived_strength(supporters: Iterable[tuple[float, float]]) -> float | None:
    """Σ w · strength / Σ w over (weight, strength) pairs; None without supporters."""
    pairs = list(supporters)
    total = sum(weight for weight, _ in pairs)
    if not pairs or total <= 0:
        return None
    return sum(weight * strength for weight, strength in pairs) / total


def strength_in_context(
    default: float, own: Mapping[str, float], parents: Mapping[str, str], context: str | None
) -> float:
    """HOLDS_IN strength for the context, else for its WITHIN ancestors, else the default."""
    seen: set[str] = set()
    while context is not None and context not in seen:
        if context in own:
            return own[context]
        seen.add(context)
        context = parents.get(context)
    return default


def supervision_mode(strength: float | None, m: Mechanics) -> SupervisionMode:
    """< 0.4 guidance, < 0.7 proposal, otherwise autonomous; no relevant belief → guidance."""
    if strength is None or strength < m.supervision_guidance_below:
        return "guidance"
    if strength < m.supervision_proposal_below:
        return "proposal"
    return "autonomous"


@dataclass(frozen=True, slots=True)
class Edge:
    source: str
    target: str
    weight: float


def dependency_order(changed: Iterable[str], supports: Sequence[Edge]) -> list[str]:
    """Beliefs above the changed ones, ordered by their longest SUPPORTS distance from a changed
    belief (then id), so every belief comes after all of its affected supporters."""
    outgoing: dict[str, list[str]] = {}
    for edge in supports:
        outgoing.setdefault(edge.source, []).append(edge.target)
    distance: dict[str, int] = {}
    frontier = list(dict.fromkeys(changed))
    depth = 0
    while frontier:
        depth += 1
        next_frontier: list[str] = []
        for node in frontier:
            for target in outgoing.get(node, []):
                if distance.get(target, 0) < depth:
                    distance[target] = depth
                    next_frontier.append(target)
        frontier = next_frontier
    return sorted(distance, key=lambda node: (distance[node], node))


def cascade(
    changed: Iterable[str],
    strengths: dict[str, float],
    supports: Sequence[Edge],
    distrusted: Iterable[str] = (),
) -> dict[str, float]:
    """Re-derives every belief above ``changed`` in dependency order, updating ``strengths`` in
    place; returns the beliefs that moved. ``supports`` holds the edges among active beliefs;
    distrusted beliefs keep their strength (but still support others)."""
    frozen = set(distrusted)
    incoming: dict[str, list[Edge]] = {}
    for edge in supports:
        incoming.setdefault(edge.target, []).append(edge)
    moved: dict[str, float] = {}
    for node in dependency_order(changed, supports):
        if node in frozen:
            continue
        derived = derived_strength((e.weight, strengths[e.source]) for e in incoming[node])
        if derived is not None and abs(derived - strengths[node]) > 1e-12:
            strengths[node] = derived
            moved[node] = derived
    return moved


@dataclass(frozen=True, slots=True)
class Contribution:
    belief_id: str
    tension: float
    weight: float
    share: float


def dissatisfaction(
    beliefs: Sequence[tuple[str, float, float, int]],
) -> tuple[float, list[Contribution]]:
    """D = Σ tension·w / Σ w over active beliefs given as (id, tension, importance, degree),
    w = importance · (0.5 + 0.5 · degree / max_degree). Returns D and each belief's share of it,
    largest first."""
    if not beliefs:
        return 0.0, []
    max_degree = max(degree for *_, degree in beliefs)
    weights = [
        importance * (0.5 + (0.5 * degree / max_degree if max_degree else 0.0))
        for _, _, importance, degree in beliefs
    ]
    total = sum(weights)
    if total <= 0:
        return 0.0, []
    contributions = [
        Contribution(belief_id, tension, weight, tension * weight / total)
        for (belief_id, tension, _, _), weight in zip(beliefs, weights, strict=True)
    ]
    contributions.sort(key=lambda c: (-c.share, c.belief_id))
    return sum(c.share for c in contributions), contributions


def band(value: float, m: Mechanics) -> Band:
    if value < m.dissatisfaction_medium_from:
        return "low"
    if value < m.dissatisfaction_high_from:
        return "medium"
    return "high"
