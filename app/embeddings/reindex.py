"""Re-embedding a database with the running model (``credence embed reindex``).

Every stored vector records the model that made it (``embedding_model``), and the queries that
compare vectors read only the running model's. After a change of model the stored vectors are
re-embedded agent by agent, label by label, in batches:

1. the nodes whose vector another model made get the new vector beside it (``embedding_next``,
   ``embedding_next_model``); the vector in use is untouched, so an API still running the old
   model keeps answering on it;
2. once none of the agent's nodes is left without its replacement, the replacements are put in
   use (``swap_vectors``), one transaction per label.

Stopped at any point, it resumes where it was (the replacements stored are kept); run again on a
database already of the model, it does nothing. Nodes written meanwhile by a process of the old
model are picked up before the swap (step 1 is repeated until nothing is left).

Each write (a batch of replacements, an agent's swap) takes the agent's lock first
(docs/graph-model.md §5), so it serialises with the agent's other writes; an agent being
deleted (or gone) is skipped, nothing more written to it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from app.embeddings.embedder import Embedder
from app.errors import AgentNotFound
from app.graph.agent_scope import lock_agent
from app.graph.client import GraphClient, Transaction
from app.graph.vectors import vector_param

VectorLabel = Literal["Belief", "Rule", "Episode", "CorpusPassage", "Hypothesis", "Tool"]
VECTOR_LABELS: tuple[VectorLabel, ...] = (
    "Belief",
    "Rule",
    "Episode",
    "CorpusPassage",
    "Hypothesis",
    "Tool",
)

# (agent id, label, vectors re-embedded by this step)
Progress = Callable[[str, str, int], None]


@dataclass(frozen=True)
class ModelCount:
    """Stored vectors of one agent and label made by one model (``model`` None: before the
    vectors recorded their model), and how many replacements for ``next_model`` exist."""

    agent_id: str
    label: str
    model: str | None
    vectors: int
    next_model: str | None
    replaced: int


@dataclass
class ReindexReport:
    model: str
    available: bool = True
    reason: str | None = None
    # Vectors re-embedded now, and put in use, by label.
    embedded: dict[str, int] = field(default_factory=dict)
    swapped: dict[str, int] = field(default_factory=dict)
    agents: list[str] = field(default_factory=list)
    # Agents left as they were: being deleted (or gone) when their vectors were written.
    skipped: list[str] = field(default_factory=list)


async def count_by_model(graph: GraphClient, agent_id: str | None = None) -> list[ModelCount]:
    rows = await graph.read("embeddings/reindex/count_vectors_by_model", agent_id=agent_id)
    return [
        ModelCount(
            agent_id=str(row["agent_id"]),
            label=str(row["label"]),
            model=row["model"],
            vectors=int(row["vectors"]),
            next_model=row["next_model"],
            replaced=int(row["replaced"]),
        )
        for row in rows
    ]


def stale(counts: list[ModelCount], model: str) -> list[ModelCount]:
    """The counts of vectors another model made."""
    return [count for count in counts if count.model != model]


def to_reindex(counts: list[ModelCount], model: str) -> int:
    """How many stored vectors are still to be re-embedded for ``model``."""
    return sum(
        count.vectors - (count.replaced if count.next_model == model else 0)
        for count in stale(counts, model)
    )


def mismatch_message(counts: list[ModelCount], model: str) -> str | None:
    """What the start-up says when stored vectors are of another model (None when all are
    ``model``'s)."""
    others = stale(counts, model)
    if not others:
        return None
    models = sorted({count.model or "unrecorded" for count in others})
    agents = sorted({count.agent_id for count in others})
    vectors = sum(count.vectors for count in others)
    return (
        f"{vectors} stored vectors of {len(agents)} agent(s) were made by {', '.join(models)}, "
        f"not by the running model {model}: those agents are searched by fulltext and graph "
        f"only until `credence embed reindex` re-embeds them"
    )


async def reindex(
    graph: GraphClient,
    embedder: Embedder,
    agent_id: str | None = None,
    batch_size: int = 256,
    progress: Progress | None = None,
) -> ReindexReport:
    """Re-embeds, with the embedder's model, every stored vector another model made (one
    agent's, or every agent's) and puts the new vectors in use agent by agent."""
    model = embedder.model_id
    report = ReindexReport(model=model)
    status = embedder.status()
    if not status.available:
        report.available, report.reason = False, status.reason
        return report
    agents = sorted(
        {count.agent_id for count in stale(await count_by_model(graph, agent_id), model)}
    )
    for agent in agents:
        try:
            if not await _reindex_agent(graph, embedder, agent, batch_size, progress, report):
                return report
        except AgentNotFound:
            report.skipped.append(agent)
            continue
        report.agents.append(agent)
    return report


async def _reindex_agent(
    graph: GraphClient,
    embedder: Embedder,
    agent_id: str,
    batch_size: int,
    progress: Progress | None,
    report: ReindexReport,
) -> bool:
    """Steps 1 and 2 for one agent; False when embeddings failed (nothing swapped).

    Raises:
        AgentNotFound: the agent is being deleted, or gone (nothing more written).
    """
    while True:
        for label in VECTOR_LABELS:
            done = await _embed_label(graph, embedder, agent_id, label, batch_size, progress)
            if done is None:
                report.available, report.reason = False, embedder.status().reason
                return False
            report.embedded[label] = report.embedded.get(label, 0) + done
        swapped = await graph.write_transaction(
            lambda tx: _swap(tx, agent_id, embedder.model_id),
            action=f"putting agent {agent_id}'s new vectors in use",
        )
        if swapped is not None:
            for name, count in swapped.items():
                report.swapped[name] = report.swapped.get(name, 0) + count
            return True
        # A node of the old model was written since step 1: embed it too, then swap.


async def _embed_label(
    graph: GraphClient,
    embedder: Embedder,
    agent_id: str,
    label: VectorLabel,
    batch_size: int,
    progress: Progress | None,
) -> int | None:
    model, stored = embedder.model_id, 0
    while True:
        found = await graph.read(
            "embeddings/reindex/list_stale_vectors",
            label=label,
            agent_id=agent_id,
            model=model,
            limit=batch_size,
        )
        if not found:
            return stored
        vectors = await embedder.embed([str(row["text"] or "") for row in found])
        if vectors is None:
            return None
        rows = [
            {"id": row["id"], "embedding": vector_param(vector)}
            for row, vector in zip(found, vectors, strict=True)
        ]
        written = await graph.write(
            "embeddings/reindex/set_next_vectors",
            label=label,
            agent_id=agent_id,
            model=model,
            rows=rows,
        )
        if not written:
            raise AgentNotFound(agent_id)
        done = int(written[0]["stored"])
        stored += done
        if progress is not None:
            progress(agent_id, label, done)
        if done == 0:  # the nodes vanished meanwhile: read again, never loop on the same rows
            continue


async def _swap(tx: Transaction, agent_id: str, model: str) -> dict[str, int] | None:
    """Puts the replacements in use when none of the agent's vectors is left without one
    (None: one is, nothing swapped), under the agent's lock.

    Raises:
        AgentNotFound: the agent is being deleted, or gone.
    """
    await lock_agent(tx, agent_id)
    for label in VECTOR_LABELS:
        left = await tx.run(
            "embeddings/reindex/list_stale_vectors",
            label=label,
            agent_id=agent_id,
            model=model,
            limit=1,
        )
        if left:
            return None
    swapped: dict[str, int] = {}
    for label in VECTOR_LABELS:
        rows = await tx.run(
            "embeddings/reindex/swap_vectors", label=label, agent_id=agent_id, model=model
        )
        swapped[label] = int(rows[0]["swapped"]) if rows else 0
    return swapped
