"""Settings of the cognitive loop (``CREDENCE_LOOP__*``)."""

from __future__ import annotations

from typing import Annotated, Protocol

from pydantic import BaseModel, ConfigDict, Field

from app.beliefs.mechanics import Mechanics
from app.common import Unit
from app.embeddings.settings import EmbeddingSettings
from app.guardian.settings import GuardianSettings
from app.memory.settings import MemoryMechanics, ReflectionSettings
from app.reasoning.settings import ReasonerSettings
from app.retrieval.settings import RetrievalSettings
from app.tools.settings import ToolSettings


class LoopSettings(BaseModel):
    """One turn of the cognitive loop and the sessions around it (``CREDENCE_LOOP__*``)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    relevance_floor: Annotated[float, Field(ge=0.0, le=1.0)] = 0.35
    """A retrieved belief is relevant to a request at or above this cosine (docs/retrieval.md
    §8)."""
    relevance_floor_tokens: Annotated[float, Field(ge=0.0, le=1.0)] = 0.15
    """The same floor on token overlap (Jaccard), used when embeddings are unavailable."""
    relevance_embedding_model: str = "all-minilm-l6-v2"
    """The embedding model whose cosine the turn's floors read (relevance, rules, duplicates),
    the one they were chosen on: e5-small-v2's query-to-statement cosines crowd into a narrow
    band where a floor separates related from unrelated statements worse (bench/README.md).
    Empty: the running model's (then the cosines the retrieval computed, mapped by
    app/embeddings/calibration.py)."""
    beliefs_per_turn: Annotated[int, Field(ge=1, le=50)] = 8
    """Beliefs a turn retrieves, judges evidence against and shows the reasoner."""
    approval_ttl_hours: Annotated[float, Field(gt=0)] = 72.0
    """Guidance and proposal approvals expire after this many hours (then resuming is refused)."""
    approval_claim_lease_s: Annotated[int, Field(ge=1)] = 600
    """A resumption claims its approval first; a claim older than this many seconds (its
    process died) can be taken over."""
    approval_authority: Annotated[float, Field(ge=0.0, le=1.0)] = 0.7
    """An approval is answered by the agent's principal, or by a known person with at least
    this authority (seed 000: managers, 0.7, approve standard transactions)."""
    approval_authority_high_stakes: Annotated[float, Field(ge=0.0, le=1.0)] = 0.8
    """The authority a high-stakes approval needs (more than a standard transaction: a
    director, 0.8)."""
    retry_budget: Annotated[int, Field(ge=0, le=10)] = 2
    """A failed verification is retried at most this many times, then escalated."""
    min_evidence_confidence: Annotated[float, Field(ge=0.0, le=1.0)] = 0.3
    """Evidence below this confidence is not applied."""
    rejection_severity: Annotated[float, Field(ge=0.0, le=1.0)] = 0.5
    """A rejected proposal is a failure of this severity on the belief that decided it."""
    # Seed 000: 10 for the appraisal, 5 for the answer; evidence extraction sees the answer's.
    history_turns_appraisal: Annotated[int, Field(ge=0, le=50)] = 10
    """The session's earlier turns the appraisal sees."""
    history_turns_answer: Annotated[int, Field(ge=0, le=50)] = 5
    """The session's earlier turns the answer (and evidence extraction) sees."""
    history_budget_share: Annotated[float, Field(ge=0.0, le=1.0)] = 0.25
    """The history may take at most this share of the frame's context budget; the oldest turns
    are dropped first."""
    rule_relevance_floor: Annotated[float, Field(ge=0.0, le=1.0)] = 0.4
    """A retrieved rule applies to a turn at or above this cosine to the message."""
    rule_relevance_floor_tokens: Annotated[float, Field(ge=0.0, le=1.0)] = 0.15
    """The same floor on token overlap, used when embeddings are unavailable."""
    rules_per_turn: Annotated[int, Field(ge=0, le=20)] = 3
    """At most this many rules apply to a turn, most relevant first."""
    # A turn's query is one message, where the vector index alone ranks episodes as well as the
    # fusion with fulltext (MADial-Bench last-1: R@3 0.473 vector vs 0.448 fused, bench/README)
    # and the fulltext search of the episodes is two thirds of that section's cost at 100k
    # episodes (28 -> 11 ms). Without embeddings the fulltext index is searched as before.
    episode_vector_share: Unit | None = 1.0
    """The vector share of a turn's episode search (retrieval's episode_vector_share)."""
    people_per_turn: Annotated[int, Field(ge=0, le=20)] = 5
    """People shown to the reasoner in a turn."""
    episodes_per_turn: Annotated[int, Field(ge=0, le=20)] = 3
    """Episodes shown to the reasoner in a turn."""
    decisions_per_turn: Annotated[int, Field(ge=0, le=20)] = 3
    """Past decisions related to the message shown to the reasoner in a turn (seed 002)."""
    memory_items_per_turn: Annotated[int, Field(ge=0, le=50)] = 8
    """Working-memory items shown to the reasoner in a turn."""
    outcome_beliefs: Annotated[int, Field(ge=1, le=10)] = 3
    """An outcome moves up to this many of the most relevant beliefs (seed 000: three)."""
    # Learning new beliefs (seed 000: "Learned: …" at 0.5).
    learned_strength: Annotated[float, Field(ge=0.0, le=1.0)] = 0.5
    """A belief learned from a conversation starts at this strength."""
    correction_authority: Annotated[float, Field(ge=0.0, le=1.0)] = 0.7
    """A correction is learned only from a person with at least this authority (or trust)."""
    correction_trust: Annotated[float, Field(ge=0.0, le=1.0)] = 0.7
    """... or from a person whose trust has reached this (docs/memory.md §2): a person of modest
    rank whose word has proven reliable may correct the agent too."""
    learn_novel_claims: bool = True
    """Learn the new facts a person states (corrections are learned either way)."""
    learned_per_turn: Annotated[int, Field(ge=0, le=20)] = 3
    """At most this many beliefs are learned in one turn."""
    duplicate_similarity: Annotated[float, Field(ge=0.0, le=1.0)] = 0.9
    """A claim at or above this cosine to a known belief reinforces it instead of being learned."""
    duplicate_similarity_tokens: Annotated[float, Field(ge=0.0, le=1.0)] = 0.8
    """The same on token overlap, used when embeddings are unavailable."""
    learned_support_weight: Annotated[float, Field(gt=0.0, le=1.0)] = 0.5
    """The weight of a learned belief's SUPPORTS edge to a derived belief it backs."""
    # Sessions close explicitly, at the end of a turn that asks for it, or when idle (seed 003:
    # an idle timeout of 30 minutes).
    session_idle_timeout_minutes: Annotated[float, Field(gt=0)] = 30.0
    """A session without a turn for this many minutes is closed."""
    idle_sessions_per_sweep: Annotated[int, Field(ge=0, le=100)] = 3
    """A turn closes at most this many idle sessions of its agent afterwards."""
    # The sweep reads every session of the agent (~9 ms at 5k sessions).
    idle_sweep_interval_seconds: Annotated[float, Field(ge=0)] = 60.0
    """A process sweeps an agent's idle sessions at most once in this many seconds (0: after
    every turn); an idle session closes at most this much later than its timeout."""
    # Seed 003: reflection_trigger on_session_end, consolidation_min_episodes 5, every 100
    # episodes, clusters of 3+.
    reflect_on_session_close: bool = True
    """Reflect after a session closes, once enough episodes were written since the last time."""
    reflect_min_episodes: Annotated[int, Field(ge=1)] = 5
    """A closed session starts a reflection once this many episodes were written since the last."""
    reflect_every_episodes: Annotated[int, Field(ge=1)] = 100
    """Any turn starts a reflection once this many episodes were written since the last."""
    reflect_min_cluster_size: Annotated[int, Field(ge=2, le=1000)] = 3
    """The fewest episodes a cluster of those reflections needs."""
    # Seed 000: low 0.3, medium 0.6, high 0.9.
    severity_by_issue: dict[str, float] = Field(
        default_factory=lambda: {"low": 0.3, "medium": 0.6, "high": 0.9, "critical": 1.0}
    )
    """A failure's severity by the verification's issues: the largest that applies (none: 0)."""


class LoopConfig(Protocol):
    """The settings a turn reads, one group per package; ``app.config.Settings`` is one (the loop
    does not import the composed settings, so it stays below the API and the CLI)."""

    @property
    def mechanics(self) -> Mechanics: ...
    @property
    def memory(self) -> MemoryMechanics: ...
    @property
    def embeddings(self) -> EmbeddingSettings: ...
    @property
    def retrieval(self) -> RetrievalSettings: ...
    @property
    def reasoner(self) -> ReasonerSettings: ...
    @property
    def guardian(self) -> GuardianSettings: ...
    @property
    def loop(self) -> LoopSettings: ...
    @property
    def reflection(self) -> ReflectionSettings: ...
    @property
    def tools(self) -> ToolSettings: ...
