"""Research mode's domain models: an investigation and what it holds (hypotheses, sources,
evidence, conflicts, steps), as read from the graph."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from app.reasoning.protocol import ResearchStance

InvestigationStatus = Literal["running", "paused", "finished", "failed", "cancelled"]
HypothesisStatus = Literal["proposed", "validating", "confirmed", "refuted", "undecided"]
ConflictStatus = Literal["open", "resolved", "unresolvable"]
StepKind = Literal["supervisor", "search", "judge", "resolve", "synthesize"]
Verdict = Literal["confirmed", "refuted", "undecided"]
# What a decided hypothesis did to a belief.
BeliefEffect = Literal["created", "reinforced", "challenged"]


class Investigation(BaseModel):
    id: str
    agent_id: str
    question: str
    status: InvestigationStatus
    iteration: int
    iteration_cap: int
    started_by: str
    sources: list[str] = Field(default_factory=list, description="source names searched")
    started_at: datetime
    finished_at: datetime | None = None
    verdict: Verdict | None = None
    report: str | None = None
    error: str | None = None


class Hypothesis(BaseModel):
    id: str
    ordinal: int
    statement: str
    status: HypothesisStatus
    confidence: float = Field(description="how likely it is true, 0.5 when nothing is known")
    searches: int = Field(default=0, description="searches in which a source answered")
    failed_searches: int = Field(
        default=0,
        description="searches in which every source failed (they do not count in `searches`)",
    )
    failed_sources: list[str] = Field(
        default_factory=list,
        description="the sources (or `<source>/<part>`) that failed in its searches and have "
        "not answered one since",
    )


class FoundSource(BaseModel):
    id: str
    number: int = Field(description="citation number in the report")
    source_name: str
    kind: str
    ref: str
    title: str
    origin: str
    text: str
    published: date | None = None
    score: float | None = None
    hypothesis_ids: list[str] = Field(default_factory=list)


class ResearchEvidence(BaseModel):
    id: str
    hypothesis_id: str
    source_id: str
    stance: ResearchStance
    confidence: float
    reason: str
    reasoner: str
    similarity: float | None = Field(
        default=None,
        description="cosine of the passage's and the hypothesis' embeddings (offline judge)",
    )


class SourceConflict(BaseModel):
    id: str
    hypothesis_id: str
    status: ConflictStatus
    first_source_id: str = Field(description="the source that supports the hypothesis")
    second_source_id: str = Field(description="the source that contradicts it")
    resolution: str | None = None
    basis: str | None = None
    winner_source_id: str | None = None
    decisive_evidence_id: str | None = None


class ResearchStep(BaseModel):
    id: str
    ordinal: int
    kind: StepKind
    started_at: datetime
    duration_ms: float
    model_calls: int
    input_tokens: int
    output_tokens: int
    reasoners: list[str] = Field(default_factory=list)
    summary: str
    details: dict[str, Any] = Field(default_factory=dict)


class ResearchState(BaseModel):
    """Everything the supervisor decides from: the investigation as the graph holds it now."""

    investigation: Investigation
    hypotheses: list[Hypothesis] = Field(default_factory=list)
    sources: list[FoundSource] = Field(default_factory=list)
    evidence: list[ResearchEvidence] = Field(default_factory=list)
    conflicts: list[SourceConflict] = Field(default_factory=list)

    def source(self, source_id: str) -> FoundSource:
        return next(source for source in self.sources if source.id == source_id)

    def evidence_on(self, hypothesis_id: str) -> list[ResearchEvidence]:
        return [item for item in self.evidence if item.hypothesis_id == hypothesis_id]


class InvestigationDetail(ResearchState):
    """An investigation with everything it found and every step it took."""

    steps: list[ResearchStep] = Field(default_factory=list)


class InvestigationPage(BaseModel):
    data: list[Investigation]
    count: int
