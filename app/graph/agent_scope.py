"""An agent's scope in the graph: check that it exists, or take its write lock.

Every agent-scoped write starts by taking the agent's lock (its :AgentLock node), so concurrent
writes to one agent are serialised in one place, whatever package they come from.
"""

from __future__ import annotations

from app.errors import AgentNotFound
from app.graph.client import GraphClient, Transaction


async def lock_agent(tx: Transaction, agent_id: str) -> None:
    """Takes the agent's write lock for the transaction.

    Raises:
        AgentNotFound: no such agent, or one being deleted.
    """
    # One round trip: the lock, then the agent read again once it is held (a deletion that
    # committed meanwhile is seen).
    if not await tx.run("graph/agent_scope/lock_agent", agent_id=agent_id):
        raise AgentNotFound(agent_id)


async def require_agent(graph: GraphClient, agent_id: str) -> None:
    """Raises AgentNotFound unless the agent exists (one index look-up)."""
    if not await graph.read("graph/agent_scope/agent_exists", agent_id=agent_id):
        raise AgentNotFound(agent_id)
