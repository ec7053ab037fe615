"""The context of a query: relevance retrieval over beliefs, episodes, rules, people, working
memory, research conflicts and past decisions (docs/retrieval.md)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from app.api.deps import AgentIdDep, RetrievalDep
from app.api.query_parameters import route_query_parameters
from app.retrieval.models import (
    ALL_SECTIONS,
    K_DESCRIPTION,
    MAX_BUDGET_TOKENS,
    MAX_QUERY_CHARS,
    MIN_BUDGET_TOKENS,
    Context,
    ContextRequest,
    Mode,
    SectionName,
)

router = APIRouter(prefix="/v1/agents/{agent_id}", tags=["context"])


@router.get(
    "/context",
    responses={
        422: {
            "description": "A query parameter is out of range, or unknown (each named in the "
            "error's details: e.g. `sections`, where the route takes `section`)"
        }
    },
)
async def context(
    retrieval: RetrievalDep,
    agent_id: AgentIdDep,
    q: Annotated[str, Query(min_length=1, max_length=MAX_QUERY_CHARS, description="The query")],
    k: Annotated[int, Query(ge=1, le=100, description=K_DESCRIPTION)] = 10,
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
    budget_tokens: Annotated[
        int | None,
        Query(
            ge=MIN_BUDGET_TOKENS,
            le=MAX_BUDGET_TOKENS,
            description="The token budget shared by the sections (default: the frame's)",
        ),
    ] = None,
) -> Context:
    """Sections with scores, within the frame's token budget."""
    request = ContextRequest(
        q=q, k=k, sections=section or list(ALL_SECTIONS), mode=mode, budget_tokens=budget_tokens
    )
    return await retrieval.context(agent_id, request)


# The query parameters the route takes, read from its own signature (a parameter added to it is
# taken at once): any other is refused by the app's check of every /v1 route
# (app/api/query_parameters.py; a misspelt `sections=beliefs` would otherwise be ignored and
# every section returned).
PARAMETERS = route_query_parameters(router, context)
