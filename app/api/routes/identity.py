"""The agent's identity document (seed 003's CLAUDE.md), generated from the graph."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from fastapi.responses import PlainTextResponse, Response

from app.agents.identity import IdentityDocument, read_identity
from app.api.deps import AgentIdDep, GraphDep

router = APIRouter(prefix="/v1/agents/{agent_id}", tags=["identity"])

_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "The identity document (JSON, or markdown with format=markdown)",
        "content": {"text/markdown": {"schema": {"type": "string"}}},
    },
    401: {"description": "API keys are configured and none was sent"},
    403: {"description": "The API key may not touch this agent"},
    404: {"description": "No such agent"},
    422: {"description": "An unknown format"},
    503: {"description": "Neo4j unreachable"},
}


@router.get("/identity", response_model=IdentityDocument, responses=_RESPONSES)
async def identity(
    graph: GraphDep,
    agent_id: AgentIdDep,
    format: Annotated[Literal["json", "markdown"], Query()] = "json",
) -> Response | IdentityDocument:
    """The agent's identity: purpose, creed, capabilities and gaps, strongest beliefs per
    domain, open conflicts, recent revisions and rules (the system prompt of its Claude calls)."""
    document = await read_identity(graph, agent_id)
    if format == "markdown":
        return PlainTextResponse(document.markdown, media_type="text/markdown")
    return document
