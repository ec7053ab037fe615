"""Domain models of the belief engine (pydantic): what services take and return."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, field_validator

from app.beliefs.formulas import Band, MoralValence, Outcome, SupervisionMode
from app.common import Category, StrictNumber, StrictUnit, not_blank

EdgeWeight = Annotated[StrictNumber, Field(gt=0.0, le=1.0)]
Statement = Annotated[str, Field(min_length=1, max_length=2000)]
ContextName = Annotated[
    str, Field(min_length=1, max_length=200, pattern=r"^[a-z0-9_]+(/[a-z0-9_]+)*$")
]
Stance = Literal["reinforcing", "contradicting", "neutral", "novel"]
EvidenceKind = Literal["factual", "feedback", "outcome"]
BeliefSource = Literal["pack", "birth", "learned", "revision", "api", "tool"]


class StrictModel(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ContextStrength(StrictModel):
    """A context-conditional strength. ``acme/month_end`` falls back to ``month_end``."""

    name: ContextName
    strength: StrictUnit


class BeliefCreate(StrictModel):
    statement: Statement
    category: Category
    domain: str | None = Field(default=None, max_length=200)
    strength: StrictUnit = 0.5
    importance: StrictUnit = 0.5
    is_core: StrictBool = False
    is_immutable: StrictBool = False
    contexts: list[ContextStrength] = Field(default_factory=list, max_length=100)
    source: BeliefSource = "api"

    _check = field_validator("statement")(not_blank)

    @field_validator("contexts")
    @classmethod
    def _one_strength_per_context(cls, value: list[ContextStrength]) -> list[ContextStrength]:
        seen: set[str] = set()
        for context in value:
            if context.name in seen:
                raise ValueError(f"context {context.name!r} is given twice")
            seen.add(context.name)
        return value


class BeliefUpdate(StrictModel):
    """Edit a statement or importance, deactivate (never delete), or set the supervision mode."""

    statement: Statement | None = None
    importance: StrictUnit | None = None
    is_active: Literal[False] | None = None
    supervision_mode: SupervisionMode | Literal["derived"] | None = None


class Belief(BaseModel):
    id: str
    agent_id: str
    statement: str
    category: Category
    domain: str | None = None
    strength: float
    tension: float
    importance: float
    is_core: bool
    is_immutable: bool
    is_active: bool
    is_invalidated: bool
    is_distrusted: bool
    reinforcement_count: int
    source: str | None = None
    prior_strength: float | None = Field(
        default=None,
        description="A pack belief's own figure when the birth strength policy started it lower.",
    )
    learned_kind: str | None = Field(
        default=None, description="How a learned belief was learned: guidance/correction/novel."
    )
    supervision_mode: SupervisionMode | None = None
    created_at: datetime | None = None
    last_reinforced: datetime | None = None
    last_challenged: datetime | None = None
    revised_at: datetime | None = None


class LinkedBelief(BaseModel):
    id: str
    statement: str
    weight: float | None = None
    revision_id: str | None = None


class Contradiction(BaseModel):
    id: str
    statement: str
    strength: float | None
    status: str | None
    resolution: str | None = None
    direction: Literal["outgoing", "incoming"]


class BeliefDetail(BaseModel):
    belief: Belief
    contexts: list[ContextStrength]
    context: str | None
    strength_in_context: float
    supervision_mode: SupervisionMode
    evidence: list[dict[str, Any]]
    events: list[dict[str, Any]]
    predecessors: list[LinkedBelief]
    successors: list[LinkedBelief]
    supports: list[LinkedBelief]
    supported_by: list[LinkedBelief]
    contradictions: list[Contradiction]


class BeliefPage(BaseModel):
    data: list[Belief]
    count: int


class OutcomeIn(StrictModel):
    outcome: Outcome
    moral_valence: MoralValence = "neutral"
    severity: StrictUnit = 0.5
    context: ContextName | None = None


class EvidenceIn(StrictModel):
    text: Statement
    stance: Stance
    kind: EvidenceKind = "factual"
    confidence: StrictUnit = 1.0
    # Source weight when no person is named; with source_person_id the weight is that person's
    # relationship value (read in the same transaction).
    source_weight: StrictUnit = 1.0
    source_person_id: str | None = Field(default=None, max_length=64)
    episode_id: str | None = Field(default=None, max_length=64)

    @property
    def weight(self) -> float:
        return self.confidence * self.source_weight


class EvidenceForBelief(EvidenceIn):
    belief_id: str = Field(min_length=1, max_length=64)


class EvidenceBatch(StrictModel):
    items: list[EvidenceForBelief] = Field(min_length=1, max_length=10_000)


class StrengthMove(BaseModel):
    id: str
    old: float
    new: float


class TensionMove(BaseModel):
    id: str
    old: float
    new: float
    added: float


class EvidenceResult(BaseModel):
    evidence_id: str
    belief_id: str
    stance: Stance
    old_strength: float
    new_strength: float
    old_tension: float
    new_tension: float


class RevisionSummary(BaseModel):
    id: str
    old_belief_id: str
    new_belief_id: str | None
    old_statement: str
    new_statement: str | None
    trigger_tension: float
    mode: str
    depth: int
    reasoner: str
    parent_revision_id: str | None = None
    at: datetime | None = None


class ApprovalRequest(BaseModel):
    id: str
    belief_id: str
    kind: Literal["revision"]
    status: str
    proposed_statement: str


class RevisionOutcome(BaseModel):
    revisions: list[RevisionSummary] = Field(default_factory=list)
    approvals: list[ApprovalRequest] = Field(default_factory=list)


class EvidenceOutcome(BaseModel):
    results: list[EvidenceResult]
    propagated: list[TensionMove]
    cascade: list[StrengthMove]
    revision: RevisionOutcome


class OutcomeResult(BaseModel):
    belief_id: str
    context: str | None
    old_strength: float
    new_strength: float
    multiplier: float
    is_distrusted: bool
    is_invalidated: bool
    cascade: list[StrengthMove]


class EdgeCreate(StrictModel):
    type: Literal["SUPPORTS", "CONTRADICTS"]
    source_id: str = Field(min_length=1, max_length=64)
    target_id: str = Field(min_length=1, max_length=64)
    weight: EdgeWeight = 1.0
    strength: StrictUnit | None = None
    status: Literal["open", "resolved"] | None = None
    resolution: str | None = Field(default=None, max_length=2000)


class EdgeResult(BaseModel):
    type: Literal["SUPPORTS", "CONTRADICTS"]
    source_id: str
    target_id: str
    created: bool
    weight: float | None = None
    strength: float | None = None
    status: str | None = None
    resolution: str | None = None
    cascade: list[StrengthMove] = Field(default_factory=list)


class EdgeRemoved(BaseModel):
    """A SUPPORTS edge removed by hand: its weight, and the target re-derived from the
    supporters it has left (none left: it keeps its strength)."""

    source_id: str
    target_id: str
    weight: float
    cascade: list[StrengthMove] = Field(default_factory=list)


class Contributor(BaseModel):
    id: str
    statement: str
    tension: float
    importance: float
    degree: int
    weight: float
    share: float


class Dissatisfaction(BaseModel):
    value: float
    band: Band
    beliefs: int | None = Field(description="active beliefs (null when not counted)")
    contributors: list[Contributor]
