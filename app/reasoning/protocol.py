"""The Reasoner protocol: one method per judgement, each returning a pydantic model.

The belief engine needs ``revise``; the loop issue adds appraise, extract_evidence,
classify_stance, propose_work_unit, verify, audit, abstract_rule and respond.
"""

from __future__ import annotations

from typing import Any, Protocol

from pydantic import BaseModel, Field


class EvidenceNote(BaseModel):
    text: str
    weight: float
    source_person: str | None = None


class Neighbour(BaseModel):
    id: str
    statement: str
    strength: float
    tension: float
    relation: str
    hops: int


class RevisionRequest(BaseModel):
    """Everything the reasoner sees when a belief reaches the revision threshold."""

    belief_id: str
    statement: str
    category: str
    strength: float
    tension: float
    against: list[EvidenceNote]
    supporting: list[EvidenceNote]
    neighbours: list[Neighbour]
    episodes: list[dict[str, Any]] = Field(default_factory=list)
    mode: str = "threshold"


class RevisedBelief(BaseModel):
    """The reasoner's revision: the new statement and why."""

    statement: str = Field(min_length=1, max_length=2000)
    reasoning: str
    evidence_summary: str
    behavioral_changes: list[str] = Field(default_factory=list)
    connected_actions: list[str] = Field(default_factory=list)
    reasoner: str


class Reasoner(Protocol):
    name: str

    async def revise(self, request: RevisionRequest) -> RevisedBelief:
        """Proposes the revised belief for one at the threshold."""
        ...
