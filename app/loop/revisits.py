"""Revisiting past outputs (seed 001's success criterion): after a revision, the next answer to
a person an earlier answer rested on the old belief for names the change, once.

The episodes of a turn are ``ABOUT`` the beliefs it rested on and ``WITH`` the person, so the
revisions a person has not been told of are a graph read; telling them (or revising while
talking with them) leaves a ``TOLD`` edge from the revision to the person, written in the
turn's transaction (docs/loop.md §10)."""

from __future__ import annotations

from datetime import datetime

from app.graph.client import GraphClient, Transaction
from app.memory.people.names import name_key
from app.reasoning.protocol import RevisitedBelief

# An answer names at most this many changes (the most recent first).
MAX_REVISITED = 3


async def untold_revisions(
    graph: GraphClient, agent_id: str, speaker: str | None
) -> list[RevisitedBelief]:
    """The revisions the speaker has not been told of (none for no speaker or an unknown one)."""
    if not speaker:
        return []
    rows = await graph.read(
        "loop/revisits/find_untold_revisions",
        agent_id=agent_id,
        name_key=name_key(speaker),
        limit=MAX_REVISITED,
    )
    return [
        RevisitedBelief(
            revision_id=row["revision_id"],
            old_statement=row["old_statement"],
            new_statement=row["new_statement"],
        )
        for row in rows
    ]


async def mark_told_in(
    tx: Transaction,
    agent_id: str,
    speaker: str | None,
    revision_ids: list[str],
    episode_id: str,
    now: datetime,
) -> None:
    """Inside the turn's transaction: the speaker has now been told of these revisions."""
    if not speaker or not revision_ids:
        return
    await tx.run(
        "loop/revisits/mark_told",
        agent_id=agent_id,
        name_key=name_key(speaker),
        revision_ids=list(dict.fromkeys(revision_ids)),
        episode_id=episode_id,
        now=now,
    )
