"""A rule's vector embeds the same text however it is written (real Neo4j, the bundled models):
``trigger_concept: content`` for a rule of the agent's own (as ``create_rule`` embeds it), its
content for a pack's rule (as the pack loader embeds it); a backfill and a reindex embed each
kind as its writer did, so its vector does not change with the path that stored it."""

from __future__ import annotations

import uuid

import pytest

from app.config import Settings
from app.embeddings import reindex as reindexing
from app.embeddings.embedder import Embedder, shared_embedder
from app.embeddings.store import backfill
from app.graph.client import GraphClient
from tests.support.agents import MakeAgent
from tests.support.vectors import vectors_of

MINILM, E5 = "all-minilm-l6-v2", "e5-small-v2-q"
TRIGGER, CONTENT = "month end", "Accrue the utilities before the books close"


def _embedder(settings: Settings, model: str) -> Embedder:
    embedder = shared_embedder(settings.embeddings.model_copy(update={"model": model}))
    if not embedder.available:
        pytest.fail(f"{model} should be installed here: {embedder.status().reason}")
    return embedder


async def _rules(test_graph: GraphClient, agent: str) -> tuple[str, str]:
    """A rule of the agent's own and a pack's, both without a vector."""
    own, pack = str(uuid.uuid4()), str(uuid.uuid4())
    rules = [
        {"id": own, "agent_id": agent, "trigger_concept": TRIGGER, "content": CONTENT},
        {
            "id": pack,
            "agent_id": agent,
            "trigger_concept": TRIGGER,
            "content": CONTENT,
            "pack_name": "closing-pack",
            "pack_key": "accrue-utilities",
        },
    ]
    await test_graph.write("probe/create_rules", rules=rules)
    return own, pack


async def _similarity(test_graph: GraphClient, rule: str, vector: list[float]) -> float:
    [row] = await test_graph.read("probe/rule_embedding", id=rule)
    embedding: list[float] = row["embedding"]
    return sum(x * y for x, y in zip(embedding, vector, strict=True))


async def test_backfill_and_reindex_embed_a_rule_as_its_writer_did(
    settings: Settings, graph: GraphClient, test_graph: GraphClient, make_agent: MakeAgent
) -> None:
    minilm, e5 = _embedder(settings, MINILM), _embedder(settings, E5)
    agent = make_agent("Rules embedded")
    own, pack = await _rules(test_graph, agent)
    await backfill(graph, minilm, agent, labels=("Rule",))
    [with_trigger, content_only] = await vectors_of(minilm, [f"{TRIGGER}: {CONTENT}", CONTENT])
    assert await _similarity(test_graph, own, with_trigger) > 0.999
    assert await _similarity(test_graph, pack, content_only) > 0.999

    await reindexing.reindex(graph, e5, agent)
    [with_trigger, content_only] = await vectors_of(e5, [f"{TRIGGER}: {CONTENT}", CONTENT])
    assert await _similarity(test_graph, own, with_trigger) > 0.999
    assert await _similarity(test_graph, pack, content_only) > 0.999
