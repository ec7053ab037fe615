"""Agents (minimal creation; full birth comes with knowledge packs)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, status

from app.agents.birth import birth
from app.agents.models import Agent, AgentCreate, AgentDeletion, AgentPage, BornAgent
from app.agents.overview import AgentOverview, agent_overview
from app.agents.store import delete_agent, get_agent, list_agents
from app.api.deps import (
    AgentIdDep,
    AllowedAgentsDep,
    EmbedderDep,
    GraphDep,
    MechanicsDep,
    SettingsDep,
    SkipQuery,
    get_runtime,
)
from app.api.security import ALL_AGENTS
from app.errors import AgentForbidden
from app.tools.enrichment import enrichment_provider

router = APIRouter(prefix="/v1/agents", tags=["agents"])

# Every status these routes answer besides 200/201, for OpenAPI.
_AUTH: dict[int | str, dict[str, Any]] = {
    401: {"description": "API keys are configured and the X-API-Key is missing or unknown"},
    403: {"description": "the API key does not reach this agent"},
}
_AGENT: dict[int | str, dict[str, Any]] = {**_AUTH, 404: {"description": "no such agent"}}


@router.get("", responses={**_AUTH, 422: {"description": "skip, limit or name out of range"}})
async def list_all(
    graph: GraphDep,
    allowed: AllowedAgentsDep,
    skip: SkipQuery = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    name: Annotated[
        str | None,
        Query(min_length=1, max_length=200, description="Only the agents with exactly this name"),
    ] = None,
) -> AgentPage:
    """The agents this API key reaches, newest first, with active beliefs and episodes."""
    visible = None if allowed is None or ALL_AGENTS in allowed else allowed
    return await list_agents(graph, visible, skip, limit, name=name)


_BIRTH: dict[int | str, dict[str, Any]] = {
    **_AUTH,
    409: {
        "description": "censor_key_taken: two of the birth's packs bring one censor key; "
        "frame_key_taken: a pack of the birth brings a shipped default frame's key or another "
        "pack's frame key (nothing written)"
    },
    422: {"description": "invalid request, or enrich without a directory server configured"},
    502: {"description": "the directory server of the enrichment failed (nothing written)"},
    504: {"description": "the directory server of the enrichment timed out (nothing written)"},
}


@router.post("", status_code=status.HTTP_201_CREATED, responses=_BIRTH)
async def create(
    graph: GraphDep,
    embedder: EmbedderDep,
    settings: SettingsDep,
    request: Request,
    allowed: AllowedAgentsDep,
    body: AgentCreate,
) -> BornAgent:
    """Birth: with a ``profile``, a full birth (creed, principal, packs for the industry, frames,
    censors, capabilities), enriched first from a directory server with ``enrich``; with only a
    name, an empty agent."""
    if allowed is not None and ALL_AGENTS not in allowed:
        raise AgentForbidden("<new agent>")
    enrichment = (
        enrichment_provider(
            get_runtime(request).mcp_clients, body.enrichment, settings.enrichment, settings.tools
        )
        if body.enrich
        else None
    )
    return await birth(
        graph,
        embedder,
        settings.mechanics,
        body,
        enrichment=enrichment,
        memory_mechanics=settings.memory,
    )


@router.get("/{agent_id}", responses=_AGENT)
async def read(graph: GraphDep, agent_id: AgentIdDep) -> Agent:
    """One agent with its counts."""
    return await get_agent(graph, agent_id)


@router.get("/{agent_id}/overview", responses={**_AGENT, 422: {"description": "top out of range"}})
async def overview(
    graph: GraphDep,
    mechanics: MechanicsDep,
    agent_id: AgentIdDep,
    top: Annotated[int, Query(ge=1, le=50)] = 5,
) -> AgentOverview:
    """The agent at a glance: dissatisfaction and its largest contributors, the most tense
    beliefs, the latest revisions."""
    return await agent_overview(graph, mechanics, agent_id, top)


@router.delete(
    "/{agent_id}",
    responses={
        **_AGENT,
        409: {"description": "the default agent, without force=true"},
        422: {"description": "the agent id is malformed"},
    },
)
async def delete(
    graph: GraphDep,
    settings: SettingsDep,
    agent_id: AgentIdDep,
    force: Annotated[bool, Query(description="also delete the default agent")] = False,
) -> AgentDeletion:
    """Delete an agent and every node of its mind (in bounded batches)."""
    return await delete_agent(
        graph, agent_id, default_agent_name=settings.default_agent, force=force
    )
