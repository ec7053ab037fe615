"""The numbers of docs/beliefs.md, as settings (``CREDENCE_MECHANICS__<NAME>``)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from app.common import Unit


class Mechanics(BaseModel):
    """Every constant of the cognitive mechanics; all tunable, all passed to Cypher as ``$m``."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    # A.C.R.E. invalidation thresholds: is_invalidated = strength < threshold(category).
    threshold_aesthetic: Unit = 0.60
    """An aesthetic belief is invalidated below this strength (docs/beliefs.md §1)."""
    threshold_contextual: Unit = 0.75
    """A contextual belief is invalidated below this strength."""
    threshold_relational: Unit = 0.85
    """A relational belief is invalidated below this strength."""
    threshold_ethical: Unit = 0.95
    """An ethical belief is invalidated below this strength."""
    # Strength below threshold − tolerance invalidates: a derived 0.9499999999999998 (three
    # supporters at 0.95) is 0.95, not an invalidated ethical belief.
    invalidation_tolerance: Annotated[float, Field(ge=0.0, le=1e-3)] = 1e-9
    """How far below its threshold a strength must be to invalidate (rounding slack)."""
    # Outcome updates with moral asymmetry.
    alpha_base: Unit = 0.15
    """The base step of an outcome update (docs/beliefs.md §3)."""
    multiplier_neutral: Annotated[float, Field(gt=0)] = 1.0
    """The outcome step's multiplier for a morally neutral outcome."""
    multiplier_confirmation: Annotated[float, Field(gt=0)] = 3.0
    """The outcome step's multiplier for a moral success (a confirmation)."""
    multiplier_violation: Annotated[float, Field(gt=0)] = 10.0
    """The outcome step's multiplier for a moral failure (a violation)."""
    # Evidence.
    reinforcement_rate: Unit = 0.1
    """How much supporting evidence lowers a belief's tension (docs/beliefs.md §4)."""
    contradiction_rate: Unit = 0.15
    """How much contradicting evidence raises a belief's tension (docs/beliefs.md §4)."""
    # Tension propagation along SUPPORTS: rho^k per hop, up to max hops.
    propagation_rho: Unit = 0.5
    """The share of tension that flows one SUPPORTS hop (rho^k after k hops, docs/beliefs.md §5)."""
    propagation_max_hops: Annotated[int, Field(ge=0, le=3)] = 3
    """The most SUPPORTS hops tension propagates."""
    # Revision.
    revision_threshold: Unit = 0.7
    """A belief whose tension reaches this is revised (docs/beliefs.md §8)."""
    revision_max_cascade_depth: Annotated[int, Field(ge=0, le=3)] = 3
    """The most hops a revision cascades to connected beliefs at the threshold."""
    revision_initial_strength: Unit = 0.5
    """A revised belief's strength when no supporter re-attaches to derive it from."""
    meditation_dissatisfaction: Unit = 0.9
    """Turns with dissatisfaction above this count towards a meditation (docs/beliefs.md §9)."""
    meditation_turns: Annotated[int, Field(ge=1)] = 10
    """A meditation runs when more than this many consecutive turns were that dissatisfied."""
    meditation_min_tension: Unit = 0.5
    """A meditation revises every active belief with at least this tension."""
    # Seed 001's orchestrator, step 2: at high dissatisfaction the turn revises its most urgent
    # beliefs before it answers (docs/beliefs.md §9).
    urgent_revision_beliefs: Annotated[int, Field(ge=0, le=10)] = 2
    """At high dissatisfaction a turn first revises at most this many of the agent's most tense
    beliefs (mutable ones, most tense first) before it answers; 0 turns the step off."""
    urgent_revision_min_tension: Unit = 0.5
    """The least tension that makes a belief urgent for that step."""
    urgent_revision_seconds: Annotated[float, Field(gt=0.0, le=300.0)] = 20.0
    """No further urgent revision starts once the step has run this long (the rest wait for
    the next dissatisfied turn)."""
    # Supervision (competence-based autonomy).
    supervision_guidance_below: Unit = 0.4
    """Below this strength the deciding belief makes the agent ask for guidance."""
    supervision_proposal_below: Unit = 0.7
    """Below this strength (and from the guidance one) the agent proposes instead of acting."""
    # Dissatisfaction bands.
    dissatisfaction_medium_from: Unit = 0.3
    """Dissatisfaction from this on is in the medium band (docs/beliefs.md §7)."""
    dissatisfaction_high_from: Unit = 0.6
    """Dissatisfaction from this on is in the high band (lowers the supervision mode a step)."""
    # Birth strength policy (seed 000: pack knowledge is born "appropriately uncertain", so a
    # new agent proposes before it acts and earns autonomy as outcomes confirm it): a belief
    # that an industry pack gives a newborn agent starts at most at this strength (its
    # supported beliefs derive from the capped ones); the pack's own figure is kept on the
    # belief as ``prior_strength``. None keeps the pack's figures. The birth's own beliefs
    # (creed, ethical core, self, role) are not capped.
    birth_strength_cap: Annotated[float | None, Field(ge=0.0, le=1.0)] = 0.5
    """An industry pack's beliefs start a newborn agent at most at this strength."""
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
    """A turn whose text contains one of these is moral: its outcomes confirm or violate."""

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
