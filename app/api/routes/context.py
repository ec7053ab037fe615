"""The context of a query: relevance retrieval over beliefs, episodes, rules, people, working
memory, research conflicts and past decisions (docs/retrieval.md)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from app.api.deps import AgentIdDep, RetrievalDep
from app.retrieval.models import (
    ALL_SECTIONS,
    MAX_QUERY_CHARS,
    Context,
    ContextRequest,
    Mode,
    SectionName,
)

router = APIRouter(prefix="/v1/agents/{agent_id}", tags=["context"])


@router.get("/context")
async def context(
    retrieval: RetrievalDep,
    agent_id: AgentIdDep,
    q: Annotated[str, Query(min_length=1, max_length=MAX_QUERY_CHARS, description="The query")],
    k: Annotated[int, Query(ge=1, le=100, description="Items per section")] = 10,
    section: Annotated[
        list[SectionName] | None,
        Query(
            description="Sections to return (default: all). Only the sections asked for are "
            "computed. `decisions`: the agent's recent past decisions that bear on the query, "
            "most relevant then newest first, each with its seed-002 line "
            "`- [outcome] description (confidence: c)`"
        ),
    ] = None,
    mode: Annotated[Mode, Query(description="fused, vector only or fulltext only")] = "fused",
    budget_tokens: Annotated[int | None, Query(ge=100, le=200_000)] = None,
) -> Context:
    """Sections with scores, within the frame's token budget."""
    request = ContextRequest(
        q=q, k=k, sections=section or list(ALL_SECTIONS), mode=mode, budget_tokens=budget_tokens
    )
    return await retrieval.context(agent_id, request)
