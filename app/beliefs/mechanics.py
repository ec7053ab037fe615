"""The numbers of docs/beliefs.md, as settings (``CREDENCE_MECHANICS__<NAME>``)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, Field

from app.common import Unit


class Mechanics(BaseModel):
    """Every constant of the cognitive mechanics; all tunable, all passed to Cypher as ``$m``."""

    # A.C.R.E. invalidation thresholds: is_invalidated = strength < threshold(category).
    threshold_aesthetic: Unit = 0.60
    threshold_contextual: Unit = 0.75
    threshold_relational: Unit = 0.85
    threshold_ethical: Unit = 0.95
    # Strength below threshold − tolerance invalidates: a derived 0.9499999999999998 (three
    # supporters at 0.95) is 0.95, not an invalidated ethical belief.
    invalidation_tolerance: Annotated[float, Field(ge=0.0, le=1e-3)] = 1e-9
    # Outcome updates with moral asymmetry.
    alpha_base: Unit = 0.15
    multiplier_neutral: Annotated[float, Field(gt=0)] = 1.0
    multiplier_confirmation: Annotated[float, Field(gt=0)] = 3.0
    multiplier_violation: Annotated[float, Field(gt=0)] = 10.0
    # Evidence.
    reinforcement_rate: Unit = 0.1
    contradiction_rate: Unit = 0.15
    # Tension propagation along SUPPORTS: rho^k per hop, up to max hops.
    propagation_rho: Unit = 0.5
    propagation_max_hops: Annotated[int, Field(ge=0, le=3)] = 3
    # Revision.
    revision_threshold: Unit = 0.7
    revision_max_cascade_depth: Annotated[int, Field(ge=0, le=3)] = 3
    revision_initial_strength: Unit = 0.5
    meditation_dissatisfaction: Unit = 0.9
    meditation_turns: Annotated[int, Field(ge=1)] = 10
    meditation_min_tension: Unit = 0.5
    # Supervision (competence-based autonomy).
    supervision_guidance_below: Unit = 0.4
    supervision_proposal_below: Unit = 0.7
    # Dissatisfaction bands.
    dissatisfaction_medium_from: Unit = 0.3
    dissatisfaction_high_from: Unit = 0.6
    # Birth strength policy (seed 000: pack knowledge is born "appropriately uncertain", so a
    # new agent proposes before it acts and earns autonomy as outcomes confirm it): a belief
    # that an industry pack gives a newborn agent starts at most at this strength (its
    # supported beliefs derive from the capped ones); the pack's own figure is kept on the
    # belief as ``prior_strength``. None keeps the pack's figures. The birth's own beliefs
    # (creed, ethical core, self, role) are not capped.
    birth_strength_cap: Annotated[float | None, Field(ge=0.0, le=1.0)] = 0.5
    # Matched as substrings of the lower-cased text, as the seed does: "confidential" is in
    # "confidentiality", "audit" in "auditor", "fraud" in "fraudulent".
    moral_topics: list[str] = Field(
        default_factory=lambda: [
            "confidential",
            "privacy",
            "security",
            "compliance",
            "audit",
            "fraud",
        ]
    )

    def thresholds(self) -> dict[str, float]:
        return {
            "aesthetic": self.threshold_aesthetic,
            "contextual": self.threshold_contextual,
            "relational": self.threshold_relational,
            "ethical": self.threshold_ethical,
        }

    def multipliers(self) -> dict[str, float]:
        return {
            "neutral": self.multiplier_neutral,
            "confirmation": self.multiplier_confirmation,
            "violation": self.multiplier_violation,
        }

    def as_params(self) -> dict[str, Any]:
        """The map handed to Cypher as ``$m``."""
        return {
            **self.model_dump(),
            "thresholds": self.thresholds(),
            "multipliers": self.multipliers(),
        }
