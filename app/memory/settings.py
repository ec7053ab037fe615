"""Settings of people, working memory, rules, the self-model (``CREDENCE_MEMORY__*``) and of
reflection (``CREDENCE_REFLECTION__*``). Every rule that the design leaves open is defined here,
next to the constant it uses, so the rule and its tunable live in one place (docs/memory.md)."""

from __future__ import annotations

from typing import Annotated, Literal, Protocol

from pydantic import BaseModel, Field, model_validator

from app.common import Unit

Positive = Annotated[float, Field(gt=0.0)]
Seniority = Literal["entry", "junior", "senior", "manager", "director", "vp", "c_suite", "unknown"]
SENIORITIES: tuple[Seniority, ...] = (
    "entry",
    "junior",
    "senior",
    "manager",
    "director",
    "vp",
    "c_suite",
    "unknown",
)


def _default_authority() -> dict[Seniority, float]:
    return {
        "entry": 0.3,
        "junior": 0.4,
        "senior": 0.6,
        "manager": 0.7,
        "director": 0.8,
        "vp": 0.85,
        "c_suite": 0.95,
        "unknown": 0.5,
    }


class MemoryMechanics(BaseModel):
    """Every constant of people, frames, working memory, rules and capabilities."""

    # --- people --------------------------------------------------------------------------------
    authority_by_seniority: dict[Seniority, Unit] = Field(default_factory=_default_authority)
    # relationship value = w_a·authority + w_f·interaction_frequency + w_r·context_relevance
    relationship_weight_authority: Unit = 0.6
    relationship_weight_frequency: Unit = 0.2
    relationship_weight_relevance: Unit = 0.2
    # Interaction frequency (the rule is ours: docs/memory.md §2). Between two
    # interactions the frequency halves every `interaction_half_life_days` of silence; each
    # interaction then closes `interaction_gain` of the gap to 1:
    #   f ← f·0.5^(days since last_seen / half_life);  f ← f + gain·(1 − f)
    # It stays in [0, 1], rises with diminishing returns, and a contact who went quiet fades.
    interaction_gain: Unit = 0.1
    interaction_half_life_days: Positive = 30.0
    # Affect (docs/memory.md §2): frustration raises stress and lowers valence; thanks/praise raise
    # valence and lower stress. Each kind applies once per text, however many of its cues occur.
    affect_frustration_stress: Unit = 0.2
    affect_frustration_valence: Unit = 0.3
    affect_praise_valence: Unit = 0.2
    affect_praise_stress: Unit = 0.1
    # Cues: a cue with a space matches as a substring of the lower-cased text, a single word as a
    # whole token (the same rule as frame patterns).
    frustration_cues: list[str] = Field(
        default_factory=lambda: [
            "frustrated",
            "frustrating",
            "annoyed",
            "annoying",
            "angry",
            "furious",
            "ridiculous",
            "useless",
            "unacceptable",
            "terrible",
            "fed up",
            "waste of time",
            "wrong again",
            "still not",
            "still broken",
            "not what i asked",
            "how many times",
        ]
    )
    praise_cues: list[str] = Field(
        default_factory=lambda: [
            "thanks",
            "thank",
            "thx",
            "appreciate",
            "appreciated",
            "great",
            "excellent",
            "perfect",
            "brilliant",
            "awesome",
            "helpful",
            "well done",
            "nice work",
            "good job",
            "great job",
        ]
    )

    # --- working memory ------------------------------------------------------------------------
    # At most this many active tasks; adding one more evicts the oldest (most recent kept).
    max_active_tasks: Annotated[int, Field(ge=1, le=50)] = 4
    note_default_ttl_s: Annotated[int, Field(ge=1)] = 24 * 3600
    note_max_ttl_s: Annotated[int, Field(ge=1)] = 90 * 24 * 3600
    working_memory_notes: Annotated[int, Field(ge=0, le=500)] = 20
    working_memory_people: Annotated[int, Field(ge=0, le=500)] = 5
    working_memory_entities: Annotated[int, Field(ge=0, le=500)] = 10
    working_memory_beliefs: Annotated[int, Field(ge=0, le=500)] = 10
    high_strength_belief_floor: Unit = 0.8
    # A period "ends" during its last N business days (Mon–Fri; no holiday calendar).
    period_end_business_days: Annotated[int, Field(ge=1, le=15)] = 3
    # Urgency multiplier: 1 outside a period end, else the largest that applies.
    urgency_month_end: Annotated[float, Field(ge=1.0)] = 1.5
    urgency_quarter_end: Annotated[float, Field(ge=1.0)] = 2.0
    urgency_year_end: Annotated[float, Field(ge=1.0)] = 2.5

    # --- rules ---------------------------------------------------------------------------------
    # effective confidence = confidence · decay^(days since validation / month_days), applied only
    # once more than grace_days have passed (never validated: counted from creation).
    rule_decay_per_month: Unit = 0.95
    rule_decay_grace_days: Annotated[float, Field(ge=0.0)] = 30.0
    rule_month_days: Positive = 30.0

    # --- capabilities and self -----------------------------------------------------------------
    capability_success_alpha: Unit = 0.1
    capability_gain: Unit = 0.05
    capability_loss: Unit = 0.02
    capability_initial_proficiency: Unit = 0.3
    # The prior of the success-rate EMA for a capability with no outcome yet.
    capability_initial_success_rate: Unit = 0.5
    max_knowledge_gaps: Annotated[int, Field(ge=1, le=1000)] = 100

    @model_validator(mode="after")
    def _complete(self) -> MemoryMechanics:
        missing = [s for s in SENIORITIES if s not in self.authority_by_seniority]
        if missing:
            raise ValueError(f"authority_by_seniority lacks {', '.join(missing)}")
        if self.note_default_ttl_s > self.note_max_ttl_s:
            raise ValueError("note_default_ttl_s exceeds note_max_ttl_s")
        return self


# One reflection looks at this many episodes at most.
MAX_EPISODES_LIMIT = 2000


class ReflectionSettings(BaseModel):
    """Settings of reflection and consolidation (``CREDENCE_REFLECTION__*``)."""

    # Two clusters merge while the mean cosine between their episodes is at least this.
    similarity: Unit = 0.6
    min_cluster_size: Annotated[int, Field(ge=2, le=1000)] = 2
    # The most recent unconsolidated episodes one reflection looks at.
    max_episodes: Annotated[int, Field(ge=1, le=MAX_EPISODES_LIMIT)] = 500
    # The reasoner sees at most this many episodes of a cluster (the most central), each cut to
    # brief_chars characters, and at most existing_rules of the agent's rules.
    max_briefs_per_cluster: Annotated[int, Field(ge=1, le=100)] = 12
    brief_chars: Annotated[int, Field(ge=80, le=20000)] = 800
    existing_rules: Annotated[int, Field(ge=0, le=500)] = 20
    # Reasoner calls in flight at once (Claude: clusters are abstracted in parallel).
    reasoner_concurrency: Annotated[int, Field(ge=1, le=32)] = 4
    # Where a cluster's capability lives: its episodes' most common frame (falling back to the
    # rule's trigger concept when none has a frame), or always the trigger concept.
    capability_domain: Literal["frame", "trigger_concept"] = "frame"
    # The complexity each consolidated outcome counts with in the proficiency step.
    outcome_complexity: Unit = 0.5
    # A cluster whose failure share (of success/failure/partial outcomes) exceeds this adds a
    # knowledge gap.
    gap_failure_share: Unit = 0.5


class EpisodeWriting(Protocol):
    """What writing and ending episodes reads from the retrieval settings (interference at write
    time, peak-end salience when a session ends); ``RetrievalSettings`` is one, and memory does
    not import the retrieval package above it."""

    @property
    def interference_neighbours(self) -> int: ...
    @property
    def interference_similarity(self) -> float: ...
    @property
    def salience_peak(self) -> float: ...
    @property
    def salience_end(self) -> float: ...
    @property
    def salience_plain(self) -> float: ...
