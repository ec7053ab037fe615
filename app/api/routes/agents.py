"""Agents (minimal creation; full birth comes with knowledge packs)."""

from __future__ import annotations

from fastapi import APIRouter, status

from app.api.deps import AgentIdDep, AllowedAgentsDep, GraphDep
from app.api.security import ALL_AGENTS
from app.errors import AgentForbidden
from app.packs.birth import Agent, AgentCreate, create_agent, get_agent

router = APIRouter(prefix="/v1/agents", tags=["agents"])


@router.post("", status_code=status.HTTP_201_CREATED)
async def create(graph: GraphDep, allowed: AllowedAgentsDep, body: AgentCreate) -> Agent:
    """Create an agent with a name (no beliefs yet)."""
    if allowed is not None and ALL_AGENTS not in allowed:
        raise AgentForbidden("<new agent>")
    return await create_agent(graph, body)


@router.get("/{agent_id}")
async def read(graph: GraphDep, agent_id: AgentIdDep) -> Agent:
    """One agent with its counts."""
    return await get_agent(graph, agent_id)
