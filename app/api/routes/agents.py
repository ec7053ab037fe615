"""Agents (minimal creation; full birth comes with knowledge packs)."""

from __future__ import annotations

from fastapi import APIRouter, status

from app.agents.birth import birth
from app.agents.models import Agent, AgentCreate, BornAgent
from app.agents.store import get_agent
from app.api.deps import AgentIdDep, AllowedAgentsDep, EmbedderDep, GraphDep, SettingsDep
from app.api.security import ALL_AGENTS
from app.errors import AgentForbidden

router = APIRouter(prefix="/v1/agents", tags=["agents"])


@router.post("", status_code=status.HTTP_201_CREATED)
async def create(
    graph: GraphDep,
    embedder: EmbedderDep,
    settings: SettingsDep,
    allowed: AllowedAgentsDep,
    body: AgentCreate,
) -> BornAgent:
    """Birth: with a ``profile``, a full birth (creed, principal, packs for the industry, frames,
    censors, capabilities); with only a name, an empty agent."""
    if allowed is not None and ALL_AGENTS not in allowed:
        raise AgentForbidden("<new agent>")
    return await birth(graph, embedder, settings.mechanics, body, memory_mechanics=settings.memory)


@router.get("/{agent_id}")
async def read(graph: GraphDep, agent_id: AgentIdDep) -> Agent:
    """One agent with its counts."""
    return await get_agent(graph, agent_id)
