"""Agent creation. This is the minimal form (a name); full birth from a profile, with creed,
ethical core and industry packs, is the memory issue's."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from app.errors import AgentNotFound
from app.graph.client import GraphClient


class AgentCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Annotated[str, Field(min_length=1, max_length=200)]
    identity_goal: Annotated[str | None, Field(max_length=2000)] = None


class Agent(BaseModel):
    id: str
    name: str
    identity_goal: str | None = None
    terminal_creed: list[str] = Field(default_factory=list)
    birth_source: str
    created_at: datetime
    beliefs: int = 0
    revisions: int = 0


async def create_agent(graph: GraphClient, data: AgentCreate) -> Agent:
    """Creates an agent with no beliefs yet (birth_source ``api``)."""
    params: dict[str, Any] = {
        "id": str(uuid.uuid4()),
        "name": data.name.strip(),
        "identity_goal": data.identity_goal,
        "terminal_creed": [],
        "birth_source": "api",
    }
    await graph.write("agents/create_agent", agent=params)
    return await get_agent(graph, params["id"])


async def get_agent(graph: GraphClient, agent_id: str) -> Agent:
    """One agent with its counts.

    Raises:
        AgentNotFound: no such agent.
    """
    rows = await graph.read("agents/get_agent", agent_id=agent_id)
    if not rows:
        raise AgentNotFound(agent_id)
    return Agent.model_validate(
        {**rows[0]["agent"], "beliefs": rows[0]["beliefs"], "revisions": rows[0]["revisions"]}
    )
