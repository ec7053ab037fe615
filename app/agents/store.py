"""Creating and reading an agent node (its beliefs and everything else hang off it)."""

from __future__ import annotations

import uuid
from typing import Any

from app.agents.models import Agent, AgentCreate, AgentDeletion, AgentPage, AgentSummary
from app.errors import AgentNotFound, DefaultAgentProtected
from app.graph.client import GraphClient, Transaction

# Nodes deleted per transaction when an agent is deleted: small enough that one batch never
# holds a large transaction state (a born agent has ~1,000 nodes; a benchmark one 100,000s).
DELETE_BATCH_SIZE = 2_000


async def create_agent(graph: GraphClient, data: AgentCreate) -> Agent:
    """Creates an agent with no beliefs yet (birth source ``api``)."""
    params = agent_params(data.name, data.identity_goal, [], "api", None)
    await graph.write("agents/store/create_agent", agent=params)
    return await get_agent(graph, params["id"])


async def get_agent(graph: GraphClient, agent_id: str) -> Agent:
    """One agent with its counts.

    Raises:
        AgentNotFound: no such agent.
    """
    rows = await graph.read("agents/store/get_agent", agent_id=agent_id)
    if not rows:
        raise AgentNotFound(agent_id)
    return Agent.model_validate(
        {**rows[0]["agent"], "beliefs": rows[0]["beliefs"], "revisions": rows[0]["revisions"]}
    )


async def find_agent_identity(graph: GraphClient, agent_id: str) -> dict[str, Any] | None:
    """The agent as a turn needs it (id, name, identity_goal, terminal_creed, and ``skill``: the
    JSON of the skill its packs brought, or None), without the counts of :func:`get_agent`; None
    for an unknown agent."""
    rows = await graph.read("agents/store/get_agent_identity", agent_id=agent_id)
    return dict(rows[0]["agent"]) if rows else None


async def list_agents(
    graph: GraphClient,
    agent_ids: frozenset[str] | None,
    skip: int = 0,
    limit: int = 50,
    *,
    name: str | None = None,
) -> AgentPage:
    """A page of agents, newest first, with their active beliefs and episodes counted.

    Args:
        agent_ids: only these agents (the ones an API key reaches); ``None`` for every agent.
        name: only the agents with exactly this name; ``None`` for any.
    """
    rows = await graph.read(
        "agents/store/list_agents",
        agent_ids=None if agent_ids is None else sorted(agent_ids),
        agent_name=name,
        skip=skip,
        limit=limit,
    )
    return AgentPage(
        data=[AgentSummary.model_validate(agent) for agent in rows[0]["agents"]],
        count=rows[0]["count"],
    )


async def find_default_agent(graph: GraphClient, name: str) -> str | None:
    """The default agent's id: the oldest agent called ``name`` (CREDENCE_DEFAULT_AGENT);
    None when ``name`` is empty or no agent has it."""
    if not name:
        return None
    rows = await graph.read("agents/store/find_agents_by_name", agent_name=name)
    return str(rows[0]["id"]) if rows else None


async def delete_agent(
    graph: GraphClient,
    agent_id: str,
    *,
    default_agent_name: str,
    force: bool = False,
    batch_size: int = DELETE_BATCH_SIZE,
) -> AgentDeletion:
    """Deletes an agent and every node of its mind, ``batch_size`` nodes per transaction, each
    under the agent's write lock, the Agent node last (an interrupted deletion can be run again
    to finish).

    Args:
        default_agent_name: the default agent's name (CREDENCE_DEFAULT_AGENT; empty: none).
        force: delete the default agent too.

    Raises:
        AgentNotFound: no such agent.
        DefaultAgentProtected: the agent is the default agent and ``force`` is not set.
    """
    agent = await get_agent(graph, agent_id)
    if not force and await find_default_agent(graph, default_agent_name) == agent_id:
        raise DefaultAgentProtected(agent_id, agent.name)

    async def one_batch(tx: Transaction) -> tuple[int, bool]:
        # Under the agent's write lock, which every agent-scoped write takes first; the first
        # batch also marks the agent as being deleted, after which lock_agent refuses writes
        # (AgentNotFound), so the batches never race new nodes and an agent under constant
        # writes is still deleted. The last sweep and the Agent node go in one transaction.
        if not await tx.run("agents/store/lock_agent_for_deletion", agent_id=agent_id):
            raise AgentNotFound(agent_id)
        rows = await tx.run(
            "agents/store/delete_agent_nodes", agent_id=agent_id, batch_size=batch_size
        )
        count: int = rows[0]["deleted"]
        if count < batch_size:
            last = await tx.run("agents/store/delete_agent", agent_id=agent_id)
            return count + int(last[0]["deleted"] if last else 0), True
        return count, False

    deleted, batches, done = 0, 0, False
    while not done:
        count, done = await graph.write_transaction(one_batch, action=f"deleting agent {agent_id}")
        deleted += count
        batches += 1
    return AgentDeletion(agent_id=agent_id, nodes_deleted=deleted, batches=batches)


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
