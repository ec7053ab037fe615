"""docs/graph-model.md §5 on a real Neo4j: the writes that used to run without the agent's lock
(the vector writes of app/embeddings, the reindex's, a pack's censors installed alone, an
investigation's creation, status and steps) take it now: each raises the lock's write count,
and an agent whose deletion has begun gets nothing written (AgentNotFound, or left out)."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable
from datetime import UTC, datetime

import pytest

from app.embeddings import reindex as reindexing
from app.embeddings.embedder import Embedder, shared_embedder
from app.embeddings.settings import EmbeddingSettings
from app.embeddings.store import backfill, embed_found, embed_pending, store_vectors
from app.errors import AgentNotFound
from app.graph.client import GraphClient, Row, Transaction
from app.graph.vectors import vector_param
from app.packs.loader import install_censors
from app.research import store as research
from tests.support.agents import MakeAgent

OLD_MODEL = "an-older-model"
CENSORS = [{"key": "no-card-numbers", "pattern": "card number", "reason": "PCI", "action": "block"}]


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    embedder = shared_embedder(EmbeddingSettings())
    if not embedder.available:
        pytest.fail(f"embeddings should be available here: {embedder.status().reason}")
    return embedder


async def _lock_count(test_graph: GraphClient, agent: str) -> int:
    [row] = await test_graph.read("scheduler/get_agent_lock", agent_id=agent)
    return int(row["write_count"])


async def _begin_deletion(graph: GraphClient, agent: str) -> None:
    """What the first batch of a deletion does: the agent is marked as being deleted."""
    assert await graph.write("agents/store/lock_agent_for_deletion", agent_id=agent)


async def _beliefs(test_graph: GraphClient, agent: str, *statements: str) -> list[str]:
    """Beliefs of ``agent`` written without a vector, waiting for one (embedding_pending)."""
    beliefs = [
        {
            "id": str(uuid.uuid4()),
            "agent_id": agent,
            "statement": statement,
            "is_active": True,
            "embedding_pending": True,
        }
        for statement in statements
    ]
    await test_graph.write("probe/create_beliefs", beliefs=beliefs)
    return [str(belief["id"]) for belief in beliefs]


async def _vector_state(test_graph: GraphClient, *ids: str) -> list[Row]:
    return await test_graph.read("probe/belief_vector_models", ids=list(ids))


def _rows(*ids: str, value: float = 0.5) -> list[dict[str, object]]:
    return [{"id": bid, "embedding": vector_param([value] * 384)} for bid in ids]


async def test_vectors_are_stored_under_the_agents_lock_on_its_own_nodes_only(
    make_agent: MakeAgent, graph: GraphClient, test_graph: GraphClient
) -> None:
    agent, other = make_agent("Vectors"), make_agent("Other vectors")
    [mine] = await _beliefs(test_graph, agent, "Invoices are paid within thirty days")
    [theirs] = await _beliefs(test_graph, other, "Refunds take a week")

    before = await _lock_count(test_graph, agent)
    # A row naming another agent's belief is not written under this agent's lock.
    assert await store_vectors(graph, agent, "Belief", _rows(mine, theirs), OLD_MODEL) == 1
    assert await _lock_count(test_graph, agent) == before + 1
    state = await _vector_state(test_graph, mine, theirs)
    assert [(row["embedded"], row["model"], row["pending"]) for row in state] == [
        (True, OLD_MODEL, False),
        (False, None, True),
    ]

    await _begin_deletion(graph, agent)
    with pytest.raises(AgentNotFound):
        await store_vectors(graph, agent, "Belief", _rows(mine, value=0.1), "a-newer-model")
    [row] = await _vector_state(test_graph, mine)
    assert row["model"] == OLD_MODEL


async def test_an_agent_being_deleted_gets_no_vectors_and_backfill_goes_on_without_it(
    make_agent: MakeAgent, graph: GraphClient, test_graph: GraphClient, embedder: Embedder
) -> None:
    going, staying = make_agent("Going"), make_agent("Staying")
    [gone_pending] = await _beliefs(test_graph, going, "The office closes at six")
    [kept] = await _beliefs(test_graph, staying, "The office opens at nine")
    await _begin_deletion(graph, going)

    pending = await embed_pending(graph, embedder, going)
    assert pending.available and pending.stored.get("Belief", 0) == 0
    filled = await backfill(graph, embedder, going, labels=("Belief",))
    assert filled.stored == {"Belief": 0}
    # One batch of a backfill over every agent holds several agents' nodes: each agent's are
    # stored under its own lock, and the one being deleted is left out.
    found: list[dict[str, object]] = [
        {"id": gone_pending, "agent_id": going, "text": "The office closes at six"},
        {"id": kept, "agent_id": staying, "text": "The office opens at nine"},
    ]
    before = await _lock_count(test_graph, staying)
    batch = await embed_found(graph, embedder, "Belief", found)
    assert batch is not None and (batch.stored, batch.refused) == (1, {going})
    assert await _lock_count(test_graph, staying) == before + 1
    state = await _vector_state(test_graph, gone_pending, kept)
    assert [(row["embedded"], row["pending"]) for row in state] == [(False, True), (True, False)]


async def test_a_backfill_over_every_agent_reads_one_agents_nodes_at_a_time(
    make_agent: MakeAgent, graph: GraphClient, test_graph: GraphClient
) -> None:
    """So each batch is stored in one transaction, under one agent's lock."""
    first, second = make_agent("First unembedded"), make_agent("Second unembedded")
    mine = await _beliefs(test_graph, first, "Audits start in May", "Audits end in June")
    await _beliefs(test_graph, second, "Budgets close in March")

    def missing(agent: str | None, refused: list[str]) -> Awaitable[list[Row]]:
        return graph.read(
            "embeddings/store/missing_beliefs", agent_id=agent, refused=refused, limit=1000
        )

    everyone = await missing(None, [])
    assert len(everyone) >= 1 and len({row["agent_id"] for row in everyone}) == 1
    assert sorted(row["id"] for row in await missing(first, [])) == sorted(mine)
    assert await missing(first, [first]) == []


async def test_the_reindex_writes_under_the_lock_and_skips_an_agent_being_deleted(
    make_agent: MakeAgent, graph: GraphClient, test_graph: GraphClient, embedder: Embedder
) -> None:
    agent, going = make_agent("Reindexed"), make_agent("Reindexed, going")
    [mine] = await _beliefs(test_graph, agent, "Quarterly reports are due on Fridays")
    [theirs] = await _beliefs(test_graph, going, "Quarterly reports are due on Mondays")
    await store_vectors(graph, agent, "Belief", _rows(mine), OLD_MODEL)
    await store_vectors(graph, going, "Belief", _rows(theirs), OLD_MODEL)

    before = await _lock_count(test_graph, agent)
    report = await reindexing.reindex(graph, embedder, agent)
    assert report.agents == [agent] and report.swapped["Belief"] == 1
    # One batch of replacements and the swap, each under the lock.
    assert await _lock_count(test_graph, agent) == before + 2
    [row] = await _vector_state(test_graph, mine)
    assert (row["model"], row["next_model"]) == (embedder.model_id, None)

    await _begin_deletion(graph, going)
    skipped = await reindexing.reindex(graph, embedder, going)
    assert skipped.available and skipped.agents == [] and skipped.skipped == [going]
    [row] = await _vector_state(test_graph, theirs)
    assert (row["model"], row["next_model"]) == (OLD_MODEL, None)


async def test_a_packs_censors_installed_alone_take_the_lock(
    make_agent: MakeAgent, graph: GraphClient, test_graph: GraphClient
) -> None:
    agent = make_agent("Censored")
    before = await _lock_count(test_graph, agent)
    await install_censors(graph, agent, "locked-pack", CENSORS)
    assert await _lock_count(test_graph, agent) == before + 1
    [row] = await test_graph.read("probe/pack_censors", agent_id=agent, pack_name="locked-pack")
    assert row["censors"] == 1

    await _begin_deletion(graph, agent)
    with pytest.raises(AgentNotFound):
        await install_censors(graph, agent, "another-pack", CENSORS)
    [row] = await test_graph.read("probe/pack_censors", agent_id=agent, pack_name="another-pack")
    assert row["censors"] == 0


async def test_investigations_are_started_and_moved_under_the_lock(
    make_agent: MakeAgent, graph: GraphClient, test_graph: GraphClient
) -> None:
    agent = make_agent("Investigator")

    def investigation() -> dict[str, object]:
        return {
            "id": str(uuid.uuid4()),
            "question": "Do spring tides peak after the full moon?",
            "iteration_cap": 3,
            "started_by": "test",
            "sources": [],
        }

    before = await _lock_count(test_graph, agent)
    started = await research.create_investigation(graph, agent, investigation())
    paused = await research.change_status(graph, agent, started.id, ["running"], "paused")
    assert (paused.old_status, paused.status, paused.changed) == ("running", "paused", True)
    assert await _lock_count(test_graph, agent) == before + 2

    await research.change_status(graph, agent, started.id, ["paused"], "running")
    assert await research.commit_step(graph, agent, started.id, _step(0), _no_writes) is not None
    assert await _lock_count(test_graph, agent) == before + 4

    await _begin_deletion(graph, agent)
    with pytest.raises(AgentNotFound):
        await research.create_investigation(graph, agent, investigation())
    with pytest.raises(AgentNotFound):
        await research.change_status(graph, agent, started.id, ["running"], "paused")
    with pytest.raises(AgentNotFound):
        await research.commit_step(graph, agent, started.id, _step(1), _no_writes)
    page = await research.list_investigations(graph, agent, None, 0, 10)
    assert [(item.id, item.status) for item in page.data] == [(started.id, "running")]
    assert [step.ordinal for step in await research.list_steps(graph, agent, started.id)] == [0]


def _step(ordinal: int) -> research.StepRecord:
    return research.StepRecord(
        id=str(uuid.uuid4()),
        ordinal=ordinal,
        kind="supervisor",
        started_at=datetime(2026, 1, 5, 9, tzinfo=UTC),
        duration_ms=1.0,
        summary="planned",
    )


async def _no_writes(tx: Transaction, step_id: str) -> None:
    """A step that writes nothing but its record."""
