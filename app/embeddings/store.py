"""Vectors on nodes: beliefs and rules are marked ``embedding_pending`` when they are written and
get their vector right after (``embed_pending``); ``backfill`` fills every missing vector of
beliefs, rules and episodes, and replaces episode vectors of an older embedding scheme
(``credence embed backfill``), in batches, reporting progress."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from app.embeddings.embedder import Embedder
from app.graph.client import GraphClient, Transaction
from app.graph.vectors import vector_param

EmbeddedLabel = Literal["Belief", "Rule", "Episode"]
LABELS: tuple[EmbeddedLabel, ...] = ("Belief", "Rule", "Episode")
# The queries per label, written out so that every query name used appears in the code
# (tests/unit/test_cypher_ownership.py).
_SET_QUERY = {
    "Belief": "embeddings/store/set_belief_embeddings",
    "Rule": "embeddings/store/set_rule_embeddings",
    "Episode": "embeddings/store/set_episode_embeddings",
}
_PENDING_QUERY = {
    "Belief": "embeddings/store/pending_beliefs",
    "Rule": "embeddings/store/pending_rules",
}
_MISSING_QUERY = {
    "Belief": "embeddings/store/missing_beliefs",
    "Rule": "embeddings/store/missing_rules",
    "Episode": "embeddings/store/missing_episodes",
}

Progress = Callable[[EmbeddedLabel, int], None]

# What an episode's vector embeds (app/memory/session_order.py): 1, the turn text alone (before
# migration V0018); 2, the previous turn of its session, then "<speaker>: <text>". Episodes of an
# older scheme are re-embedded by ``backfill``.
EPISODE_EMBEDDING_SCHEME = 2


def _scheme(label: EmbeddedLabel) -> dict[str, int]:
    """The scheme parameter of the episode queries (beliefs and rules have none)."""
    return {"scheme": EPISODE_EMBEDDING_SCHEME} if label == "Episode" else {}


def _set_params(label: EmbeddedLabel, model: str) -> dict[str, object]:
    """The parameters of a set query besides the rows: the model (and an episode's scheme)."""
    return {"embedding_model": model, **_scheme(label)}


@dataclass
class EmbedReport:
    available: bool
    reason: str | None = None
    stored: dict[str, int] = field(default_factory=dict)


async def store_vectors(
    graph: GraphClient, label: EmbeddedLabel, rows: list[dict[str, object]], model: str
) -> int:
    """Stores vectors ``model`` made (rows: id and ``vector_param``)."""
    if not rows:
        return 0
    result = await graph.write(_SET_QUERY[label], rows=rows, **_set_params(label, model))
    return int(result[0]["stored"]) if result else 0


async def store_vectors_in(
    tx: Transaction, label: EmbeddedLabel, rows: list[dict[str, object]], model: str
) -> None:
    """:func:`store_vectors` inside the caller's transaction."""
    if rows:
        await tx.run(_SET_QUERY[label], rows=rows, **_set_params(label, model))


async def _embed_rows(
    graph: GraphClient, embedder: Embedder, label: EmbeddedLabel, found: list[dict[str, object]]
) -> int | None:
    texts = [str(row["text"] or "") for row in found]
    vectors = await embedder.embed(texts)
    if vectors is None:
        return None
    rows: list[dict[str, object]] = [
        {"id": row["id"], "embedding": vector_param(vector)}
        for row, vector in zip(found, vectors, strict=True)
    ]
    return await store_vectors(graph, label, rows, embedder.model_id)


async def embed_pending(
    graph: GraphClient, embedder: Embedder, agent_id: str, batch_size: int = 256
) -> EmbedReport:
    """Embeds the agent's beliefs and rules written since the last call (cheap when none are)."""
    report = EmbedReport(available=True)
    for label in ("Belief", "Rule"):
        stored = 0
        while True:
            found = await graph.read(_PENDING_QUERY[label], agent_id=agent_id, limit=batch_size)
            if not found:
                break
            done = await _embed_rows(graph, embedder, label, found)
            if done is None:
                return EmbedReport(available=False, reason=embedder.status().reason)
            stored += done
            if len(found) < batch_size:
                break
        report.stored[label] = stored
    return report


async def backfill(
    graph: GraphClient,
    embedder: Embedder,
    agent_id: str | None = None,
    labels: tuple[EmbeddedLabel, ...] = LABELS,
    batch_size: int = 256,
    progress: Progress | None = None,
) -> EmbedReport:
    """Fills every missing vector of the given labels (one agent's or all).

    Stops early, saying why, when embeddings are unavailable.
    """
    status = embedder.status()
    if not status.available:
        return EmbedReport(available=False, reason=status.reason)
    report = EmbedReport(available=True)
    for label in labels:
        stored = 0
        while True:
            found = await graph.read(
                _MISSING_QUERY[label],
                agent_id=agent_id,
                limit=batch_size,
                **_scheme(label),
            )
            if not found:
                break
            done = await _embed_rows(graph, embedder, label, found)
            if not done:  # unavailable, or nothing could be stored: do not loop forever
                break
            stored += done
            if progress is not None:
                progress(label, done)
        report.stored[label] = stored
    return report
