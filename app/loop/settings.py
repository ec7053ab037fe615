"""Settings of the cognitive loop (``CREDENCE_LOOP__*``)."""

from __future__ import annotations

from typing import Annotated, Protocol

from pydantic import BaseModel, Field

from app.beliefs.mechanics import Mechanics
from app.common import Unit
from app.embeddings.settings import EmbeddingSettings
from app.guardian.settings import GuardianSettings
from app.memory.settings import MemoryMechanics, ReflectionSettings
from app.reasoning.settings import ReasonerSettings
from app.retrieval.settings import RetrievalSettings
from app.tools.settings import ToolSettings


class LoopSettings(BaseModel):
    # A retrieved belief is "relevant" to a request at or above this cosine (docs/retrieval.md §8).
    relevance_floor: Annotated[float, Field(ge=0.0, le=1.0)] = 0.35
    # The same floor on token overlap (Jaccard), used when embeddings are unavailable.
    relevance_floor_tokens: Annotated[float, Field(ge=0.0, le=1.0)] = 0.15
    # Beliefs a turn retrieves, judges evidence against and shows the reasoner.
    beliefs_per_turn: Annotated[int, Field(ge=1, le=50)] = 8
    # Guidance and proposal approvals expire after this many hours (then resuming is refused).
    approval_ttl_hours: Annotated[float, Field(gt=0)] = 72.0
    # A resumption claims its approval first; a claim older than this (its process died) can be
    # taken over.
    approval_claim_lease_s: Annotated[int, Field(ge=1)] = 600
    # verify → retry at most this many times, then escalate.
    retry_budget: Annotated[int, Field(ge=0, le=10)] = 2
    # Evidence below this confidence is not applied.
    min_evidence_confidence: Annotated[float, Field(ge=0.0, le=1.0)] = 0.3
    # Outcome of a rejected proposal: a failure on the belief that decided it (learned from).
    rejection_severity: Annotated[float, Field(ge=0.0, le=1.0)] = 0.5
    # The session's earlier turns each judgement sees (seed 000: 10 for the appraisal, 5 for
    # the answer; evidence extraction sees the answer's).
    history_turns_appraisal: Annotated[int, Field(ge=0, le=50)] = 10
    history_turns_answer: Annotated[int, Field(ge=0, le=50)] = 5
    # The history may take at most this share of the frame's context budget (tokens estimated
    # as for the context); the oldest turns are dropped first.
    history_budget_share: Annotated[float, Field(ge=0.0, le=1.0)] = 0.25
    # A retrieved rule applies to a turn at or above this cosine to the message (token overlap
    # without embeddings); at most rules_per_turn apply, most relevant first.
    rule_relevance_floor: Annotated[float, Field(ge=0.0, le=1.0)] = 0.4
    rule_relevance_floor_tokens: Annotated[float, Field(ge=0.0, le=1.0)] = 0.15
    rules_per_turn: Annotated[int, Field(ge=0, le=20)] = 3
    # The vector share of the turn's episode search (retrieval's episode_vector_share): a
    # turn's query is one message, where the vector index alone ranks episodes as well as the
    # fusion with fulltext (MADial-Bench last-1: R@3 0.473 vector vs 0.448 fused, bench/README)
    # and the fulltext search of the episodes is two thirds of that section's cost at 100k
    # episodes (28 -> 11 ms). Without embeddings the fulltext index is searched as before.
    episode_vector_share: Unit | None = 1.0
    # People, episodes and working-memory items shown to the reasoner.
    people_per_turn: Annotated[int, Field(ge=0, le=20)] = 5
    episodes_per_turn: Annotated[int, Field(ge=0, le=20)] = 3
    memory_items_per_turn: Annotated[int, Field(ge=0, le=50)] = 8
    # An outcome moves up to this many of the most relevant beliefs (seed 000: three).
    outcome_beliefs: Annotated[int, Field(ge=1, le=10)] = 3
    # Failure severity from the verification's issues: the largest of this map (seed 000:
    # low 0.3, medium 0.6, high 0.9); no issues: 0.
    # Learning new beliefs (seed 000: "Learned: …" at 0.5): a learned belief's strength; a
    # correction is learned only from a person with at least this authority; novel facts are
    # learned when learn_novel_claims; at most learned_per_turn per turn. A claim at or above
    # the duplicate similarity to a known belief reinforces it instead.
    learned_strength: Annotated[float, Field(ge=0.0, le=1.0)] = 0.5
    correction_authority: Annotated[float, Field(ge=0.0, le=1.0)] = 0.7
    learn_novel_claims: bool = True
    learned_per_turn: Annotated[int, Field(ge=0, le=20)] = 3
    duplicate_similarity: Annotated[float, Field(ge=0.0, le=1.0)] = 0.9
    duplicate_similarity_tokens: Annotated[float, Field(ge=0.0, le=1.0)] = 0.8
    # The weight of a learned belief's SUPPORTS edge to a derived belief it backs.
    learned_support_weight: Annotated[float, Field(gt=0.0, le=1.0)] = 0.5
    # Sessions close explicitly, at the end of a turn that asks for it, or after this long
    # without a turn (seed 003: an idle timeout of 30 minutes); a turn closes at most
    # idle_sessions_per_sweep idle sessions of its agent afterwards.
    session_idle_timeout_minutes: Annotated[float, Field(gt=0)] = 30.0
    idle_sessions_per_sweep: Annotated[int, Field(ge=0, le=100)] = 3
    # The sweep reads every session of the agent (~9 ms at 5k sessions), so a process sweeps
    # an agent's sessions at most once in this many seconds (0: after every turn); an idle
    # session then closes at most this much later than its timeout.
    idle_sweep_interval_seconds: Annotated[float, Field(ge=0)] = 60.0
    # Reflection after a session closes (seed 003: reflection_trigger on_session_end) once at
    # least reflect_min_episodes episodes were written since the last reflection
    # (consolidation_min_episodes 5), and after any turn once reflect_every_episodes were (seed
    # 003: every 100 episodes);
    # clusters need reflect_min_cluster_size episodes (seed 003: 3+).
    reflect_on_session_close: bool = True
    reflect_min_episodes: Annotated[int, Field(ge=1)] = 5
    reflect_every_episodes: Annotated[int, Field(ge=1)] = 100
    reflect_min_cluster_size: Annotated[int, Field(ge=2, le=1000)] = 3
    severity_by_issue: dict[str, float] = Field(
        default_factory=lambda: {"low": 0.3, "medium": 0.6, "high": 0.9, "critical": 1.0}
    )


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
