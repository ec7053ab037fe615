"""Work over an agent's stored documents a batch at a time: each batch in its own write
transaction under the agent's lock, so a long backfill never holds one transaction (or the
lock) for the whole of it. And a long parameter in parts (:func:`in_parts`): several queries of
one transaction, so that no one of them holds the event loop while the driver encodes it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Iterator
from typing import TypeVar

from app.graph.agent_scope import lock_agent
from app.graph.client import GraphClient, Transaction

Item = TypeVar("Item")

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


def in_parts(
    items: Iterable[Item], size: Callable[[Item], int], limit: int
) -> Iterator[list[Item]]:
    """``items`` in order, in consecutive parts of at most ``limit`` together by ``size`` (an item
    larger than that is a part of its own). The driver encodes a query's parameters on the event
    loop, and spells them out for its debug log even when that is off: ~0.9 s for one query of
    300 episodes of 3 × 20,000 characters (bench/README.md, "Episode import and the event
    loop")."""
    part: list[Item] = []
    held = 0
    for item in items:
        weight = size(item)
        if part and held + weight > limit:
            yield part
            part, held = [], 0
        part.append(item)
        held += weight
    if part:
        yield part
