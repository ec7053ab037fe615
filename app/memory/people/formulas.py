"""The pure rules of people (docs/memory.md §2): authority from seniority, the relationship
value, interaction frequency and the affect cues of a text. Nothing here touches the database."""

from __future__ import annotations

from datetime import datetime

from app.memory.people.models import Affect
from app.memory.settings import MemoryMechanics
from app.text.patterns import matched_patterns


def authority_for(seniority: str, mechanics: MemoryMechanics) -> float:
    """Authority from seniority (docs/memory.md §2); an unknown seniority counts as ``unknown``."""
    table: dict[str, float] = {str(k): v for k, v in mechanics.authority_by_seniority.items()}
    return table.get(seniority, table["unknown"])


def relationship_value(
    authority: float,
    interaction_frequency: float,
    context_relevance: float,
    mechanics: MemoryMechanics,
) -> float:
    """0.6·authority + 0.2·interaction_frequency + 0.2·context_relevance (weights are settings)."""
    return (
        mechanics.relationship_weight_authority * authority
        + mechanics.relationship_weight_frequency * interaction_frequency
        + mechanics.relationship_weight_relevance * context_relevance
    )


def interaction_frequency_after(
    frequency: float,
    last_seen: datetime | None,
    now: datetime,
    mechanics: MemoryMechanics,
) -> float:
    """Frequency after one more interaction at ``now``.

    Silence since ``last_seen`` first halves the frequency every ``interaction_half_life_days``;
    the interaction then closes ``interaction_gain`` of the gap to 1. The result stays in [0, 1].
    """
    current = min(1.0, max(0.0, frequency))
    if last_seen is not None:
        idle_days = max(0.0, (now - last_seen).total_seconds() / 86400.0)
        current *= 0.5 ** (idle_days / mechanics.interaction_half_life_days)
    return min(1.0, current + mechanics.interaction_gain * (1.0 - current))


def affect_after(
    affect: Affect, text: str, mechanics: MemoryMechanics
) -> tuple[Affect, list[str], list[str]]:
    """The affect after reading ``text``, and the frustration and praise cues found in it.

    Frustration (any of its cues, once per text) raises stress by 0.2 and lowers valence by 0.3;
    thanks/praise raise valence by 0.2 and lower stress by 0.1. Frustration is applied first; each
    step is clamped (valence to [−1, 1], stress to [0, 1]). Arousal has no cue rule.
    """
    frustration = matched_patterns(mechanics.frustration_cues, text)
    praise = matched_patterns(mechanics.praise_cues, text)
    valence, stress = affect.valence, affect.stress
    if frustration:
        stress = _clamp(stress + mechanics.affect_frustration_stress, 0.0, 1.0)
        valence = _clamp(valence - mechanics.affect_frustration_valence, -1.0, 1.0)
    if praise:
        valence = _clamp(valence + mechanics.affect_praise_valence, -1.0, 1.0)
        stress = _clamp(stress - mechanics.affect_praise_stress, 0.0, 1.0)
    return (
        Affect(valence=round(valence, 10), arousal=affect.arousal, stress=round(stress, 10)),
        frustration,
        praise,
    )


def _clamp(value: float, low: float, high: float) -> float:
    return min(high, max(low, value))
