"""Request and answer of context retrieval (docs/retrieval.md §1): what is asked (query, sections,
mode, budget) and what comes back (each section's items within its token share, the frame)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

SectionName = Literal[
    "beliefs", "episodes", "rules", "people", "working_memory", "conflicts", "decisions"
]
ALL_SECTIONS: tuple[SectionName, ...] = (
    "beliefs",
    "episodes",
    "rules",
    "people",
    "working_memory",
    "conflicts",
    "decisions",
)
Mode = Literal["fused", "vector", "fulltext"]
MAX_QUERY_CHARS = 8000


class ContextRequest(BaseModel):
    q: Annotated[str, Field(min_length=1, max_length=MAX_QUERY_CHARS)]
    k: Annotated[int, Field(ge=1, le=100)] = 10
    sections: list[SectionName] = Field(default_factory=lambda: list(ALL_SECTIONS))
    mode: Mode = "fused"
    budget_tokens: Annotated[int | None, Field(ge=100, le=200_000)] = None


class Section(BaseModel):
    items: list[dict[str, Any]] = Field(default_factory=list)
    tokens: int = 0
    budget_tokens: int = 0
    dropped_for_budget: int = 0
    error: str | None = None
    ms: float = 0.0


class FrameChoice(BaseModel):
    key: str
    name: str
    budget_tokens: int


class Context(BaseModel):
    query: str
    k: int
    mode: Mode
    frame: FrameChoice | None
    budget_tokens: int
    degraded: bool
    degraded_reason: str | None = None
    sections: dict[str, Section]
    timings_ms: dict[str, float]
