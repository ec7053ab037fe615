"""An agent at a glance: who it is, how dissatisfied it is and why (its most tense beliefs),
and what it revised lately."""

from __future__ import annotations

from pydantic import BaseModel, Field

from app.agents.models import Agent
from app.agents.store import get_agent
from app.beliefs import history, store
from app.beliefs.dissatisfaction import compute_dissatisfaction
from app.beliefs.mechanics import Mechanics
from app.beliefs.models import Belief, Dissatisfaction, RevisionSummary
from app.graph.client import GraphClient


class AgentOverview(BaseModel):
    agent: Agent
    dissatisfaction: Dissatisfaction = Field(description="D, its band, the largest contributors")
    most_tense: list[Belief] = Field(description="active beliefs, most tense first")
    recent_revisions: list[RevisionSummary] = Field(description="newest first")


async def agent_overview(
    graph: GraphClient, mechanics: Mechanics, agent_id: str, top: int = 5
) -> AgentOverview:
    """The agent, its dissatisfaction with the ``top`` contributors, its ``top`` most tense
    active beliefs and its ``top`` latest revisions.

    Raises:
        AgentNotFound: no such agent.
    """
    agent = await get_agent(graph, agent_id)
    dissatisfaction = await compute_dissatisfaction(graph, mechanics, agent_id, top)
    tense = await store.list_beliefs(graph, agent_id, active=True, sort="tension", limit=top)
    revisions = await history.list_revisions(graph, agent_id, 0, top)
    return AgentOverview(
        agent=agent,
        dissatisfaction=dissatisfaction,
        most_tense=[b for b in tense.data if b.tension > 0],
        recent_revisions=revisions.data,
    )
