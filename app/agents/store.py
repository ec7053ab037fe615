"""Creating and reading an agent node (its beliefs and everything else hang off it)."""

from __future__ import annotations

import uuid
from typing import Any

from app.agents.models import Agent, AgentCreate
from app.errors import AgentNotFound
from app.graph.client import GraphClient


async def create_agent(graph: GraphClient, data: AgentCreate) -> Agent:
    """Creates an agent with no beliefs yet (birth source ``api``)."""
    params = agent_params(data.name, data.identity_goal, [], "api", None)
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


def agent_params(
    name: str,
    identity_goal: str | None,
    creed: list[str],
    birth_source: str,
    industry: str | None,
) -> dict[str, Any]:
    return {
        "id": str(uuid.uuid4()),
        "name": name,
        "identity_goal": identity_goal,
        "terminal_creed": creed,
        "birth_source": birth_source,
        "industry": industry,
    }
