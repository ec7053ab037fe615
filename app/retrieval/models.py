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
MIN_BUDGET_TOKENS = 100
MAX_BUDGET_TOKENS = 200_000
DEFAULT_K = 10
# What ``k`` means, said alike by the API, the CLI and MCP (docs/retrieval.md §1).
K_DESCRIPTION = (
    "Search hits per section. The beliefs section adds to its k hits (`via: search`) the "
    "active beliefs one SUPPORTS / CONTRADICTS hop from its first hits (5 by default), at most "
    "5 per hit by default, each marked `via: expansion` with `expanded_from`: it can hold more "
    "than k items"
)


class ContextRequest(BaseModel):
    q: Annotated[str, Field(min_length=1, max_length=MAX_QUERY_CHARS)]
    k: Annotated[int, Field(ge=1, le=100)] = DEFAULT_K
    sections: list[SectionName] = Field(default_factory=lambda: list(ALL_SECTIONS))
    mode: Mode = "fused"
    budget_tokens: Annotated[int | None, Field(ge=MIN_BUDGET_TOKENS, le=MAX_BUDGET_TOKENS)] = None


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
