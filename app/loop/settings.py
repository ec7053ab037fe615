"""Settings of the cognitive loop (``CREDENCE_LOOP__*``)."""

from __future__ import annotations

from typing import Annotated, Protocol

from pydantic import BaseModel, Field

from app.beliefs.mechanics import Mechanics
from app.embeddings.settings import EmbeddingSettings
from app.guardian.settings import GuardianSettings
from app.memory.settings import MemoryMechanics
from app.reasoning.settings import ReasonerSettings
from app.retrieval.settings import RetrievalSettings


class LoopSettings(BaseModel):
    # A retrieved belief is "relevant" to a request at or above this cosine similarity (DESIGN §5).
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
