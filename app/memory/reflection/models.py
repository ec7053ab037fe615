"""What a reflection is asked and what it reports; the reasoner part it needs; its error."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Protocol

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    model_validator,
)

from app.common import Instant, StrictNumber, not_blank
from app.errors import CredenceError
from app.memory.self_model import CapabilityState
from app.memory.settings import MAX_EPISODES_LIMIT
from app.reasoning.protocol import AbstractedRule, RuleRequest

OUTCOME_KEYS = ("success", "failure", "partial", "neutral", "unknown")
# "since the beginning": a bound the composite index can seek from (a null could not).
EARLIEST = datetime(1, 1, 1, tzinfo=UTC)
# A targeted reflection reads at most this many episodes (seed 003: the last 5 by default, 10 at
# most).
TARGETED_MAX = 10
TARGETED_DEFAULT = 5


class ReflectRequest(BaseModel):
    """What to reflect on; every field is optional (defaults from :class:`ReflectionSettings`)."""

    model_config = ConfigDict(extra="forbid")

    since: Instant | None = Field(
        default=None, description="Only episodes that occurred at or after this time."
    )
    min_cluster_size: Annotated[StrictInt | None, Field(ge=2, le=1000)] = None
    similarity: Annotated[
        StrictNumber | None,
        Field(
            ge=0.0,
            le=1.0,
            description="Cosine similarity at which episodes cluster, on all-MiniLM-L6-v2's "
            "scale (mapped onto the running embedding model's, as every threshold).",
        ),
    ] = None
    max_episodes: Annotated[StrictInt | None, Field(ge=1, le=MAX_EPISODES_LIMIT)] = None
    dry_run: StrictBool = Field(default=False, description="Cluster and abstract, write nothing.")
    episode_ids: (
        list[Annotated[str, Field(min_length=1, max_length=64), AfterValidator(not_blank)]] | None
    ) = Field(
        default=None,
        min_length=1,
        max_length=TARGETED_MAX,
        description="Reflect on these episodes (one to 10) as one group: one rule from them, no "
        "clustering (seed 003's reflection on a specific episode).",
    )
    recent: Annotated[StrictInt | None, Field(ge=1, le=TARGETED_MAX)] = Field(
        default=None,
        description="Reflect on the agent's last N unconsolidated episodes (seed 003: 5 by "
        "default, at most 10) as one group: one rule from them, no clustering.",
    )

    @model_validator(mode="after")
    def _one_target(self) -> ReflectRequest:
        if self.episode_ids is not None and self.recent is not None:
            raise ValueError("give episode_ids or recent, not both")
        return self

    @property
    def targeted(self) -> bool:
        """Whether it reflects on named or recent episodes as one group (no clustering)."""
        return self.episode_ids is not None or self.recent is not None


class ReflectedCluster(BaseModel):
    episode_ids: list[str] = Field(description="Oldest first.")
    size: int
    cohesion: float = Field(description="Mean pairwise cosine similarity of its episodes.")
    outcomes: dict[str, int]
    domain: str = Field(description="The capability its outcomes were recorded in.")
    rule_id: str | None = Field(description="The rule written (null in a dry run).")
    trigger_concept: str
    content: str
    confidence: float
    reasoner: str
    knowledge_gap: str | None = None


class SkippedEpisodes(BaseModel):
    trivial: int = Field(description="Unconsolidated trivial episodes (never consolidated).")
    without_embedding: int = Field(
        description="Non-trivial episodes without a vector (`credence embed backfill`)."
    )
    beyond_limit: int = Field(description="Older eligible episodes past max_episodes.")
    unclustered: int = Field(description="Episodes in no cluster of at least min_cluster_size.")
    raced: int = Field(description="Clustered episodes a concurrent reflection consolidated first.")
    consolidated: int = Field(
        default=0,
        description="Episodes a targeted reflection named that an earlier reflection had "
        "consolidated already (each is consolidated once).",
    )


class CapabilityChange(BaseModel):
    domain: str
    successes: int
    failures: int
    before: CapabilityState
    after: CapabilityState


class ReflectionReport(BaseModel):
    agent_id: str
    dry_run: bool
    since: datetime | None
    similarity: float
    min_cluster_size: int
    considered: int = Field(description="Episodes clustered.")
    clusters: list[ReflectedCluster]
    skipped: SkippedEpisodes
    capabilities: list[CapabilityChange]
    knowledge_gaps_added: list[str]
    suggested_goals: list[str] = Field(
        default_factory=list,
        description="What the introspection after the reflection suggests (when capabilities "
        "moved; app/memory/introspection.py).",
    )
    rules_embedded: bool = Field(description="Whether the new rules got their vectors now.")


class RuleAbstractor(Protocol):
    """The part of :class:`app.reasoning.protocol.Reasoner` reflection needs."""

    async def abstract_rule(self, request: RuleRequest) -> AbstractedRule: ...


class ReflectionFailed(CredenceError):
    """The reasoner could not abstract a rule for a cluster (502: the model behind it failed);
    nothing was written."""

    code = "reflection_failed"
