"""A turn hands the retrieved beliefs' stored vectors to the embedder (``app/loop/activation.py``;
real Neo4j, the bundled model): judging the turn's claims against those statements then takes the
graph's vectors instead of running the model on them; a vector another model made is not taken."""

from __future__ import annotations

import uuid
from typing import Any

from app.config import Settings
from app.embeddings.embedder import Embedder
from app.graph.client import GraphClient
from app.loop.activation import _remember_stored_vectors


def _axis(dimensions: int, at: int) -> list[float]:
    vector = [0.0] * dimensions
    vector[at] = 1.0
    return vector


async def test_the_retrieved_beliefs_vectors_come_from_the_graph(
    graph: GraphClient, test_graph: GraphClient, settings: Settings, agent_id: str
) -> None:
    embedder = Embedder(settings.embeddings.model_copy(update={"cache_path": None}))
    size = embedder.dimensions
    ours: dict[str, Any] = {
        "id": str(uuid.uuid4()),
        "agent_id": agent_id,
        "statement": f"The ledger closes on the fifth ({agent_id}).",
        "embedding": _axis(size, 3),
        "embedding_model": embedder.model_id,
    }
    theirs: dict[str, Any] = {
        **ours,
        "id": str(uuid.uuid4()),
        "statement": f"Wire transfers need two approvals ({agent_id}).",
        "embedding": _axis(size, 5),
        "embedding_model": "another-model",
    }
    await test_graph.write("probe/create_beliefs", beliefs=[ours, theirs])

    await _remember_stored_vectors(graph, embedder, agent_id, [ours["id"], theirs["id"]])
    vectors = await embedder.embed([ours["statement"], theirs["statement"]])

    assert vectors is not None
    assert vectors[0] == ours["embedding"]
    assert vectors[1] != theirs["embedding"]
    assert abs(sum(x * x for x in vectors[1]) - 1.0) < 1e-3
