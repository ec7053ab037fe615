"""Work over an agent's stored documents a batch at a time: each batch in its own write
transaction under the agent's lock, so a long backfill never holds one transaction (or the
lock) for the whole of it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from app.graph.agent_scope import lock_agent
from app.graph.client import GraphClient, Transaction

# One batch: given the cursor the batch before returned ("" for the first), how many items it
# did and the cursor to go on from (None: nothing is left).
BatchStep = Callable[[Transaction, str], Awaitable[tuple[int, str | None]]]


async def in_locked_batches(
    graph: GraphClient, agent_id: str, step: BatchStep, *, action: str
) -> int:
    """Runs ``step`` in write transactions under the agent's lock, one batch each, until it
    returns no cursor; returns the sum of the counts it returned.

    Raises:
        AgentNotFound: no such agent, or one being deleted.
    """
    after: str | None = ""
    total = 0
    while after is not None:

        async def work(tx: Transaction, start: str = after) -> tuple[int, str | None]:
            await lock_agent(tx, agent_id)
            return await step(tx, start)

        count, after = await graph.write_transaction(work, action=action)
        total += count
    return total
