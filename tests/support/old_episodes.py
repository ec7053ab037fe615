"""Episodes as code older than migration V0018 wrote them (``probe/create_old_episodes``: no
search text, no session order, no embedding scheme), for the tests of the migrations and
backfills that bring stored episodes up to date."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from app.graph.client import GraphClient

# A unit vector of the embedder's width, for old episodes whose vector no test reads.
PLAIN_VECTOR = [1.0] + [0.0] * 383


async def write_old_episodes(
    test_graph: GraphClient,
    agent_id: str,
    turns: Sequence[tuple[str, str]],
    *,
    start: datetime,
    session: str = "old",
    vectors: Sequence[Sequence[float]] | None = None,
) -> list[str]:
    """Writes ``turns`` (speaker, text) as old episodes of ``session``, one minute apart from
    ``start``, with ids ``<agent_id>-<i>`` and ``vectors`` (default: each ``PLAIN_VECTOR``);
    returns their ids in order."""
    embeddings = [list(v) for v in vectors] if vectors is not None else [PLAIN_VECTOR] * len(turns)
    ids = [f"{agent_id}-{i}" for i in range(len(turns))]
    await test_graph.write(
        "probe/create_old_episodes",
        agent_id=agent_id,
        session=session,
        episodes=[
            {
                "id": episode_id,
                "speaker": speaker,
                "text": text,
                "occurred_at": start + timedelta(minutes=i),
                "embedding": vector,
            }
            for i, (episode_id, (speaker, text), vector) in enumerate(
                zip(ids, turns, embeddings, strict=True)
            )
        ],
    )
    return ids
