"""Vectors on nodes: beliefs and rules are marked ``embedding_pending`` when they are written and
get their vector right after (``embed_pending``); ``backfill`` fills every missing vector of
beliefs, rules and episodes, and replaces episode vectors of an older embedding scheme
(``credence embed backfill``), in batches, reporting progress.

Every store is one agent's nodes under that agent's lock (docs/graph-model.md §5): an agent
being deleted (or gone) gets no vector, and its nodes are left alone."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from app.embeddings.embedder import Embedder
from app.errors import AgentNotFound
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
    graph: GraphClient,
    agent_id: str,
    label: EmbeddedLabel,
    rows: list[dict[str, object]],
    model: str,
) -> int:
    """Stores vectors ``model`` made on the agent's nodes (rows: id and ``vector_param``), under
    the agent's lock; returns how many were stored (a node of another agent, or one deleted
    meanwhile, is not).

    Raises:
        AgentNotFound: no such agent, or one being deleted (nothing stored).
    """
    if not rows:
        return 0
    result = await graph.write(
        _SET_QUERY[label], agent_id=agent_id, rows=rows, **_set_params(label, model)
    )
    if not result:
        raise AgentNotFound(agent_id)
    return int(result[0]["stored"])


async def store_vectors_in(
    tx: Transaction,
    agent_id: str,
    label: EmbeddedLabel,
    rows: list[dict[str, object]],
    model: str,
) -> None:
    """:func:`store_vectors` inside the caller's transaction (which holds the agent's lock
    already: the query takes it again, as its own).

    Raises:
        AgentNotFound: no such agent, or one being deleted.
    """
    if rows and not await tx.run(
        _SET_QUERY[label], agent_id=agent_id, rows=rows, **_set_params(label, model)
    ):
        raise AgentNotFound(agent_id)


@dataclass
class StoredBatch:
    """What one batch of found nodes came to: vectors stored, and the agents that refused them
    (being deleted, or gone)."""

    stored: int = 0
    refused: set[str] = field(default_factory=set)


async def embed_found(
    graph: GraphClient, embedder: Embedder, label: EmbeddedLabel, found: list[dict[str, object]]
) -> StoredBatch | None:
    """Embeds the nodes found (rows: id, agent_id, text) and stores their vectors, each agent's
    in a transaction of its own under its lock (``backfill``'s queries read one agent's nodes
    at a time, so a batch is one transaction); None when the embedder failed."""
    texts = [str(row["text"] or "") for row in found]
    vectors = await embedder.embed(texts)
    if vectors is None:
        return None
    by_agent: dict[str, list[dict[str, object]]] = {}
    for row, vector in zip(found, vectors, strict=True):
        by_agent.setdefault(str(row["agent_id"]), []).append(
            {"id": row["id"], "embedding": vector_param(vector)}
        )
    batch = StoredBatch()
    for agent_id, rows in by_agent.items():
        try:
            batch.stored += await store_vectors(graph, agent_id, label, rows, embedder.model_id)
        except AgentNotFound:
            batch.refused.add(agent_id)
    return batch


async def embed_pending(
    graph: GraphClient, embedder: Embedder, agent_id: str, batch_size: int = 256
) -> EmbedReport:
    """Embeds the agent's beliefs and rules written since the last call (cheap when none are).
    An agent being deleted (or gone) gets none: it stops there, reporting what it stored."""
    report = EmbedReport(available=True)
    for label in ("Belief", "Rule"):
        stored = 0
        while True:
            found = await graph.read(_PENDING_QUERY[label], agent_id=agent_id, limit=batch_size)
            if not found:
                break
            batch = await embed_found(
                graph, embedder, label, [row | {"agent_id": agent_id} for row in found]
            )
            if batch is None:
                return EmbedReport(available=False, reason=embedder.status().reason)
            stored += batch.stored
            if batch.refused:
                report.stored[label] = stored
                return report
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
    """Fills every missing vector of the given labels (one agent's or all), each agent's under
    its lock; an agent being deleted is left out.

    Stops early, saying why, when embeddings are unavailable.
    """
    status = embedder.status()
    if not status.available:
        return EmbedReport(available=False, reason=status.reason)
    report = EmbedReport(available=True)
    refused: set[str] = set()  # agents being deleted: their nodes are not read again
    for label in labels:
        stored = 0
        while True:
            found = await graph.read(
                _MISSING_QUERY[label],
                agent_id=agent_id,
                refused=sorted(refused),
                limit=batch_size,
                **_scheme(label),
            )
            if not found:
                break
            batch = await embed_found(graph, embedder, label, found)
            if batch is None:
                break
            refused |= batch.refused
            # Nothing stored and no agent newly refused: do not read the same nodes for ever.
            if not batch.stored and not batch.refused:
                break
            stored += batch.stored
            if progress is not None and batch.stored:
                progress(label, batch.stored)
        report.stored[label] = stored
    return report
