"""`credence embed reindex` against writes made while it runs (real Neo4j, the bundled models):
a node whose vector is written again after its replacement was stored (a belief's statement
edited, a pack rule's content changed by the pack's next version, a tool listed again with
another description) keeps the vector of what it says now; the stale replacement is never put
in use."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from app.beliefs import store, writes
from app.beliefs.mechanics import Mechanics
from app.beliefs.models import BeliefCreate, BeliefUpdate
from app.config import Settings
from app.embeddings import reindex as reindexing
from app.embeddings.embedder import Embedder, shared_embedder
from app.graph.agent_scope import lock_agent
from app.graph.client import GraphClient, Transaction
from app.packs.loader import load_pack
from app.seeds.pack_schema import KnowledgePack
from tests.support.agents import MakeAgent
from tests.support.vectors import vectors_of

MINILM, E5 = "all-minilm-l6-v2", "e5-small-v2-q"
BEFORE = "Quarterly reports are due to the board on the first Friday"
OTHER = "Bank reconciliations are done every month"
AFTER = "Vendor invoices above ten thousand need the controller's signature"


class Stopped(Exception):
    pass


def _embedder(settings: Settings, model: str) -> Embedder:
    embedder = shared_embedder(settings.embeddings.model_copy(update={"model": model}))
    if not embedder.available:
        pytest.fail(f"{model} should be installed here: {embedder.status().reason}")
    return embedder


def _cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


async def _stopped_after_first_batch(graph: GraphClient, embedder: Embedder, agent: str) -> None:
    def stop(agent_id: str, label: str, done: int) -> None:
        raise Stopped

    with pytest.raises(Stopped):  # once the replacements are stored, before the swap
        await reindexing.reindex(graph, embedder, agent, progress=stop)


@pytest.mark.parametrize("editor_model", [E5, MINILM])
async def test_a_statement_edited_during_a_reindex_keeps_its_own_vector(
    settings: Settings,
    graph: GraphClient,
    test_graph: GraphClient,
    make_agent: MakeAgent,
    editor_model: str,
) -> None:
    """The edit comes from an API of the new model (e5) or one still of the old (MiniLM)."""
    mechanics: Mechanics = settings.mechanics
    minilm, e5 = _embedder(settings, MINILM), _embedder(settings, E5)
    agent = make_agent("Reindexed while edited")
    belief, _ = [
        await writes.create_belief(
            graph, mechanics, minilm, agent, BeliefCreate(statement=text, category="contextual")
        )
        for text in (BEFORE, OTHER)
    ]
    await _stopped_after_first_batch(graph, e5, agent)
    [row] = await test_graph.read("probe/belief_embedding", id=belief.id)
    assert (row["model"], row["next_model"]) == (MINILM, E5)  # the replacement of BEFORE

    editor = _embedder(settings, editor_model)
    await writes.update_belief(
        graph, mechanics, editor, agent, belief.id, BeliefUpdate(statement=AFTER)
    )
    # OTHER's vector is still MiniLM's: resumed, the reindex swaps the agent's replacements.
    report = await reindexing.reindex(graph, e5, agent)
    assert report.agents == [agent] and report.swapped["Belief"] >= 1

    [row] = await test_graph.read("probe/belief_embedding", id=belief.id)
    assert (row["model"], row["next_model"]) == (E5, None)
    [after, before] = await vectors_of(e5, [AFTER, BEFORE])
    assert _cosine(row["embedding"], after) > 0.99
    assert _cosine(row["embedding"], before) < 0.95


async def test_a_statement_edited_during_a_reindex_drops_the_replacement_at_once(
    settings: Settings,
    graph: GraphClient,
    test_graph: GraphClient,
    make_agent: MakeAgent,
) -> None:
    """Between the edit and its new vector (the store's write alone, as a process that stops
    there leaves it) the replacement of the old statement is already gone: a swap meanwhile
    cannot put it in use."""
    minilm, e5 = _embedder(settings, MINILM), _embedder(settings, E5)
    agent = make_agent("Reindexed while edited, before the new vector")
    belief, _ = [
        await writes.create_belief(
            graph,
            settings.mechanics,
            minilm,
            agent,
            BeliefCreate(statement=text, category="contextual"),
        )
        for text in (BEFORE, OTHER)
    ]
    await _stopped_after_first_batch(graph, e5, agent)

    await store.update_belief(
        graph, settings.mechanics, agent, belief.id, BeliefUpdate(statement=AFTER)
    )

    [row] = await test_graph.read("probe/belief_embedding", id=belief.id)
    assert (row["model"], row["next_model"]) == (MINILM, None)


def _pack(version: int, rule: str) -> KnowledgePack:
    return KnowledgePack.model_validate(
        {
            "name": "reindexed-rules",
            "version": version,
            "industry": "testing",
            "description": "A pack whose rule changes while a reindex runs.",
            "beliefs": [{"key": "b", "statement": OTHER, "category": "ethical"}],
            "rules": [{"key": "r", "trigger_concept": "board reports", "content": rule}],
        }
    )


@pytest.mark.parametrize("loader_model", [E5, MINILM])
async def test_a_pack_rule_changed_during_a_reindex_keeps_its_own_vector(
    settings: Settings,
    graph: GraphClient,
    test_graph: GraphClient,
    make_agent: MakeAgent,
    loader_model: str,
) -> None:
    """The pack's next version is loaded by an API of the new model (e5) or of the old."""
    minilm, e5 = _embedder(settings, MINILM), _embedder(settings, E5)
    agent = make_agent("Pack upgraded while reindexed")
    await load_pack(graph, minilm, settings.mechanics, agent, _pack(1, BEFORE))

    def stop_after_rules(agent_id: str, label: str, done: int) -> None:
        if label == "Rule":
            raise Stopped

    with pytest.raises(Stopped):  # the rule's replacement stored, before the swap
        await reindexing.reindex(graph, e5, agent, progress=stop_after_rules)
    probe = {"agent_id": agent, "pack_name": "reindexed-rules", "key": "r"}
    [row] = await test_graph.read("probe/pack_rule_embedding", **probe)
    assert (row["model"], row["next_model"]) == (MINILM, E5)  # the replacement of BEFORE

    loader = _embedder(settings, loader_model)
    await load_pack(graph, loader, settings.mechanics, agent, _pack(2, AFTER))
    await reindexing.reindex(graph, e5, agent)  # resumed

    [row] = await test_graph.read("probe/pack_rule_embedding", **probe)
    assert (row["model"], row["next_model"]) == (E5, None)
    [after, before] = await vectors_of(e5, [AFTER, BEFORE])
    assert _cosine(row["embedding"], after) > 0.99
    assert _cosine(row["embedding"], before) < 0.95


async def _list_tool(graph: GraphClient, embedder: Embedder, agent: str, description: str) -> None:
    """Connects ``ledger`` offering one tool, ``lookup`` described so, as a connection's writes
    do (app/tools/connections.py: the tool's vector embeds its name and description); one
    listed before is taken over (merged by its qualified name)."""
    [vector] = await vectors_of(embedder, [f"lookup: {description}"])
    connection: dict[str, Any] = {
        "id": str(uuid.uuid4()),
        "name": "ledger",
        "transport": "stdio",
        "command": "ledger-server",
        "args": [],
        "cwd": None,
        "url": None,
        "env_names": [],
        "header_names": [],
    }
    tool = {
        "id": str(uuid.uuid4()),
        "qualified_name": "ledger.lookup",
        "name": "lookup",
        "description": description,
        "input_schema": "{}",
        "read_only": True,
        "destructive": False,
        "idempotent": True,
        "embedding": list(vector),
        "belief_id": str(uuid.uuid4()),
        "search_source": False,
    }

    async def work(tx: Transaction) -> None:
        await lock_agent(tx, agent)
        await tx.run("tools/delete_connection", agent_id=agent, connection="ledger")
        await tx.run(
            "tools/create_connection",
            agent_id=agent,
            connection=connection,
            tools=[tool],
            embedding_model=embedder.model_id,
        )

    await graph.write_transaction(work, action="listing a tool")


@pytest.mark.parametrize("lister_model", [E5, MINILM])
async def test_a_tool_listed_again_during_a_reindex_keeps_its_own_vector(
    settings: Settings,
    graph: GraphClient,
    test_graph: GraphClient,
    make_agent: MakeAgent,
    lister_model: str,
) -> None:
    """The connection is made again (its server now describing the tool otherwise) by an API of
    the new model (e5) or of the old: the replacement of the old description is dropped."""
    minilm, e5 = _embedder(settings, MINILM), _embedder(settings, E5)
    agent = make_agent("Tool listed again while reindexed")
    await _list_tool(graph, minilm, agent, BEFORE)

    def stop_after_tools(agent_id: str, label: str, done: int) -> None:
        if label == "Tool":
            raise Stopped

    with pytest.raises(Stopped):  # the tool's replacement stored, before the swap
        await reindexing.reindex(graph, e5, agent, progress=stop_after_tools)
    probe = {"agent_id": agent, "qualified_name": "ledger.lookup"}
    [row] = await test_graph.read("probe/tool_embedding", **probe)
    assert (row["model"], row["next_model"]) == (MINILM, E5)  # the replacement of BEFORE

    await _list_tool(graph, _embedder(settings, lister_model), agent, AFTER)
    [row] = await test_graph.read("probe/tool_embedding", **probe)
    assert row["next_model"] is None
    await reindexing.reindex(graph, e5, agent)  # resumed

    [row] = await test_graph.read("probe/tool_embedding", **probe)
    assert (row["model"], row["next_model"]) == (E5, None)
    [after, before] = await vectors_of(e5, [f"lookup: {AFTER}", f"lookup: {BEFORE}"])
    assert _cosine(row["embedding"], after) > 0.99
    assert _cosine(row["embedding"], before) < 0.95
