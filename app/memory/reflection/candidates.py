"""Reading the episodes a reflection may consolidate, with their unit vectors."""

from __future__ import annotations

from typing import Any

import numpy as np

from app.embeddings.embedder import Embedder
from app.embeddings.settings import EmbeddingSettings
from app.errors import AgentNotFound, NotFound
from app.graph.client import GraphClient
from app.memory.reflection.clustering import unit_rows
from app.memory.reflection.models import EARLIEST, TARGETED_DEFAULT
from app.memory.reflection.plans import CandidateEpisode, Candidates, ReflectionScope


async def read_candidates(
    graph: GraphClient, embedder: Embedder | None, scope: ReflectionScope
) -> Candidates:
    """The agent's unconsolidated episodes with vectors, oldest first (ties in clustering and the
    order of a cluster's episodes follow age).

    Raises:
        AgentNotFound: no such agent.
    """
    rows = await graph.read(
        "memory/reflection/list_reflection_candidates",
        agent_id=scope.agent_id,
        since=scope.request.since or EARLIEST,
        limit=scope.request.max_episodes or scope.settings.max_episodes,
        dimensions=embedder.dimensions if embedder is not None else EmbeddingSettings().dimensions,
        embedding_model=embedder.model_id if embedder is not None else "",
    )
    if not rows:
        raise AgentNotFound(scope.agent_id)
    found = rows[0]
    raw = sorted(found["episodes"], key=lambda e: (e["occurred_at"], e["id"]))
    skipped = {
        "trivial": found["trivial"],
        "without_embedding": found["without_embedding"],
        "beyond_limit": max(0, found["eligible"] - len(raw)),
    }
    return _candidates(raw, skipped)


def _candidates(raw: list[dict[str, Any]], skipped: dict[str, int]) -> Candidates:
    """The read episodes (oldest first) as candidates with their unit vectors."""
    episodes = [
        CandidateEpisode(
            id=e["id"],
            text=e["text"],
            outcome=e["outcome"],
            frame=e["frame"],
            occurred_at=e["occurred_at"],
            counted_by_turn=e.get("kind") == "turn",
        )
        for e in raw
    ]
    unit = (
        unit_rows(np.asarray([e["embedding"].to_numpy() for e in raw], dtype=np.float64))
        if raw
        else np.zeros((0, 0))
    )
    return Candidates(episodes=episodes, unit=unit, skipped=skipped)


async def read_targeted(
    graph: GraphClient, embedder: Embedder | None, scope: ReflectionScope
) -> Candidates:
    """The episodes a targeted reflection reads (named, or the most recent unconsolidated),
    oldest first; trivial ones, those without a vector yet and named ones consolidated already
    are skipped and counted.

    Raises:
        AgentNotFound: no such agent.
        NotFound: a named episode is not one of the agent's (nothing is written).
    """
    ids = scope.request.episode_ids or []
    rows = await graph.read(
        "memory/reflection/list_targeted_episodes",
        agent_id=scope.agent_id,
        ids=ids,
        limit=len(ids) or scope.request.recent or TARGETED_DEFAULT,
        dimensions=embedder.dimensions if embedder is not None else EmbeddingSettings().dimensions,
        embedding_model=embedder.model_id if embedder is not None else "",
    )
    if not rows:
        raise AgentNotFound(scope.agent_id)
    named = {e["id"] for e in rows[0]["episodes"]}
    missing = next((i for i in ids if i not in named), None)
    if missing is not None:
        raise NotFound(
            f"episode {missing!r} does not exist in agent {scope.agent_id!r}",
            episode_id=missing,
            agent_id=scope.agent_id,
        )
    found = [e for e in rows[0]["episodes"] if not e["consolidated"]]
    usable = [e for e in found if not e["trivial"]]
    raw = sorted(
        (e for e in usable if e["embedding"] is not None), key=lambda e: (e["occurred_at"], e["id"])
    )
    skipped = {
        "trivial": len(found) - len(usable),
        "without_embedding": len(usable) - len(raw),
        "beyond_limit": 0,
        "consolidated": len(rows[0]["episodes"]) - len(found),
    }
    return _candidates(raw, skipped)
