"""Settings of people, working memory, rules, the self-model (``CREDENCE_MEMORY__*``) and of
reflection (``CREDENCE_REFLECTION__*``). Every rule that the design leaves open is defined here,
next to the constant it uses, so the rule and its tunable live in one place (docs/memory.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, model_validator

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


def _cues(*phrases: str) -> Any:
    """A field of cue words and phrases (docs/memory.md §2), ``phrases`` by default; each model
    gets a list of its own."""
    return Field(default_factory=lambda: list(phrases))


class MemoryMechanics(BaseModel):
    """Every constant of people, frames, working memory, rules and capabilities."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    # --- people --------------------------------------------------------------------------------
    authority_by_seniority: dict[Seniority, Unit] = Field(default_factory=_default_authority)
    """A person's authority by their seniority (every seniority must be given)."""
    # relationship value = w_a·authority + w_f·interaction_frequency + w_r·context_relevance
    relationship_weight_authority: Unit = 0.6
    """The weight of authority in a person's relationship value."""
    relationship_weight_frequency: Unit = 0.2
    """The weight of interaction frequency in a person's relationship value."""
    relationship_weight_relevance: Unit = 0.2
    """The weight of context relevance in a person's relationship value."""
    micro_birth_context_relevance: Unit = 0.5
    """The context relevance of a person micro-born on first mention (seed 000: 0.5, so an
    unknown person's relationship value starts at 0.40)."""
    # Interaction frequency (the rule is ours: docs/memory.md §2). Between two
    # interactions the frequency halves every `interaction_half_life_days` of silence; each
    # interaction then closes `interaction_gain` of the gap to 1:
    #   f ← f·0.5^(days since last_seen / half_life);  f ← f + gain·(1 − f)
    # It stays in [0, 1], rises with diminishing returns, and a contact who went quiet fades.
    interaction_gain: Unit = 0.1
    """Each interaction closes this share of the gap between a person's frequency and 1."""
    interaction_half_life_days: Positive = 30.0
    """A person's interaction frequency halves every this many days of silence."""
    # Affect (docs/memory.md §2): frustration raises stress and lowers valence; thanks/praise raise
    # valence and lower stress. Each kind applies once per text, however many of its cues occur.
    affect_frustration_stress: Unit = 0.2
    """How much a frustrated message raises the person's stress."""
    affect_frustration_valence: Unit = 0.3
    """How much a frustrated message lowers the person's valence."""
    affect_praise_valence: Unit = 0.2
    """How much thanks or praise raises the person's valence."""
    affect_praise_stress: Unit = 0.1
    """How much thanks or praise lowers the person's stress."""
    # Cues: a cue with a space matches as a substring of the lower-cased text, a single word as a
    # whole token (the same rule as frame patterns).
    frustration_cues: list[str] = _cues(
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
        # Seed 003's own cues.
        "stuck",
        "hate",
        "hates",
    )
    """Words and phrases that mark a message as frustrated."""
    praise_cues: list[str] = _cues(
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
        # Seed 003's own cue.
        "love",
        "loved",
    )
    """Words and phrases that mark a message as thanks or praise."""

    # --- the person model (docs/memory.md §2): trust, knowledge per domain, goals, patterns ------
    # Trust moves by a share of the room it has: a gain closes `trust_gain` of the gap to 1, a
    # loss takes `trust_loss` of what is there, so it stays in [0, 1] and a loss weighs more.
    trust_gain: Unit = 0.1
    """A correction learned from the person, a rejection, or approved work that succeeded closes
    this share of the gap between their trust and 1."""
    trust_loss: Unit = 0.2
    """Approved work that failed takes this share of the person's trust."""
    trust_history_kept: Annotated[int, Field(ge=1, le=200)] = 20
    """The latest trust changes kept on the person, each with its reason."""
    knowledge_rate: Unit = 0.4
    """Each signal moves a person's score in a domain this share of the way to 0 (a novice's
    question) or 1 (an expert's teaching); a new domain starts at 0.5."""
    novice_below: Unit = 0.35
    """A domain score below this is ``novice``."""
    expert_from: Unit = 0.65
    """A domain score at or above this is ``expert``; in between, ``intermediate``."""
    novice_cues: list[str] = _cues(
        "what is",
        "what's",
        "what are",
        "what does",
        "what do you mean",
        "explain",
        "how do i",
        "how does",
        "i don't understand",
        "i do not understand",
        "new to",
        "never done",
        "not sure what",
        "difference between",
    )
    """Words and phrases of a person who asks to be taught (a novice signal in the turn's
    domain)."""
    expert_cues: list[str] = _cues(
        "in my experience",
        "as a rule",
        "best practice",
        "we always",
        "standard practice",
        "per policy",
        "make sure to",
        "remember that",
    )
    """Words and phrases of a person who teaches (an expert signal in the turn's domain, as is
    a correction or guidance the turn learns from them)."""
    goals_kept: Annotated[int, Field(ge=1, le=100)] = 10
    """Inferred goals kept per person, most recent first."""
    patterns_kept: Annotated[int, Field(ge=1, le=100)] = 10
    """Successful patterns kept per person, most recent first."""
    topics_shown: Annotated[int, Field(ge=0, le=100)] = 10
    """Topics shown of a person (and given to a turn for its speaker), most recent first."""
    topic_episodes: Annotated[int, Field(ge=1, le=10_000)] = 200
    """A person's topics are counted over their latest this many episodes."""

    # --- working memory ------------------------------------------------------------------------
    max_active_tasks: Annotated[int, Field(ge=1, le=50)] = 4
    """At most this many active tasks; adding one more evicts the oldest (one awaiting a person
    last)."""
    note_default_ttl_s: Annotated[int, Field(ge=1)] = 24 * 3600
    """Seconds a working-memory note lives when it is written without a ttl."""
    note_max_ttl_s: Annotated[int, Field(ge=1)] = 90 * 24 * 3600
    """The longest ttl a note may be given (seconds)."""
    working_memory_notes: Annotated[int, Field(ge=0, le=500)] = 20
    """Notes shown in working memory."""
    working_memory_people: Annotated[int, Field(ge=0, le=500)] = 5
    """People shown in working memory."""
    working_memory_entities: Annotated[int, Field(ge=0, le=500)] = 10
    """Entities shown in working memory."""
    working_memory_beliefs: Annotated[int, Field(ge=0, le=500)] = 10
    """Strong beliefs shown in working memory."""
    high_strength_belief_floor: Unit = 0.8
    """The least strength of a belief working memory shows."""
    period_end_business_days: Annotated[int, Field(ge=1, le=15)] = 3
    """A period "ends" during its last this many business days (Mon–Fri; no holidays)."""
    # Urgency multiplier: 1 outside a period end, else the largest that applies.
    urgency_month_end: Annotated[float, Field(ge=1.0)] = 1.5
    """The urgency multiplier at a month end."""
    urgency_quarter_end: Annotated[float, Field(ge=1.0)] = 2.0
    """The urgency multiplier at a quarter end."""
    urgency_year_end: Annotated[float, Field(ge=1.0)] = 2.5
    """The urgency multiplier at a year end."""

    # --- rules ---------------------------------------------------------------------------------
    # effective confidence = confidence · decay^(days since validation / month_days), applied only
    # once more than grace_days have passed (never validated: counted from creation).
    rule_decay_per_month: Unit = 0.95
    """A rule's confidence is multiplied by this per month since it was last validated."""
    rule_decay_grace_days: Annotated[float, Field(ge=0.0)] = 30.0
    """A rule's confidence decays only once this many days have passed."""
    rule_month_days: Positive = 30.0
    """Days in a month of rule decay."""

    # --- capabilities and self -----------------------------------------------------------------
    capability_success_alpha: Unit = 0.1
    """The step of a capability's success-rate moving average per outcome."""
    capability_gain: Unit = 0.05
    """A success raises a capability's proficiency by this × the work's complexity."""
    capability_loss: Unit = 0.02
    """A failure lowers a capability's proficiency by this × the work's complexity."""
    capability_initial_proficiency: Unit = 0.5
    """A new capability's proficiency (seed 003: 0.5)."""
    capability_initial_success_rate: Unit = 0.5
    """The success rate of a capability with no outcome yet (the moving average's prior)."""
    introspection_min_experience: Annotated[int, Field(ge=1)] = 3
    """Introspection judges a capability only after this many outcomes in it."""
    introspection_weak_success_rate: Unit = 0.5
    """Below this success rate (or the weak proficiency) a capability is a gap to work on."""
    introspection_weak_proficiency: Unit = 0.35
    """Below this proficiency a capability is a gap to work on."""
    introspection_strong_proficiency: Unit = 0.7
    """From this proficiency (with the strong success rate) the agent suggests taking on more."""
    introspection_strong_success_rate: Unit = 0.8
    """From this success rate (with the strong proficiency) the agent suggests taking on more."""
    max_knowledge_gaps: Annotated[int, Field(ge=1, le=1000)] = 100
    """Knowledge gaps the self-model keeps (the oldest go)."""

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

    model_config = ConfigDict(use_attribute_docstrings=True)

    similarity: Unit = 0.6
    """Two clusters merge while the mean cosine between their episodes is at least this."""
    min_cluster_size: Annotated[int, Field(ge=2, le=1000)] = 3
    """Smaller clusters are left alone (not consolidated); seed 003 consolidates clusters of 3 or
    more."""
    max_episodes: Annotated[int, Field(ge=1, le=MAX_EPISODES_LIMIT)] = 500
    """The most recent unconsolidated episodes one reflection looks at."""
    max_briefs_per_cluster: Annotated[int, Field(ge=1, le=100)] = 12
    """The reasoner sees at most this many episodes of a cluster (the most central)."""
    brief_chars: Annotated[int, Field(ge=80, le=20000)] = 800
    """Each episode shown to the reasoner is cut to this many characters."""
    existing_rules: Annotated[int, Field(ge=0, le=500)] = 20
    """The reasoner sees at most this many of the agent's rules."""
    reasoner_concurrency: Annotated[int, Field(ge=1, le=32)] = 4
    """Reasoner calls in flight at once (Claude: clusters are abstracted in parallel)."""
    capability_domain: Literal["frame", "trigger_concept"] = "frame"
    """Where a cluster's capability lives: frame (its episodes' most common frame, else the
    rule's trigger concept) or trigger_concept."""
    outcome_complexity: Unit = 0.5
    """The complexity each consolidated outcome counts with in the proficiency step."""
    gap_failure_share: Unit = 0.5
    """A cluster whose share of failures exceeds this adds a knowledge gap."""


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
