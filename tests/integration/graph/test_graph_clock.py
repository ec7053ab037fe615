"""The times the graph writes come from the client's clock, not the database server's: a
belief's creation, its events and the evidence that challenged it carry the injected instant."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.beliefs import store, updates
from app.beliefs.mechanics import Mechanics
from app.beliefs.models import BeliefCreate, EvidenceForBelief
from app.clock import FixedClock
from app.config import Settings
from app.graph.client import GraphClient

# Years before any machine's date, so the server's own time can never pass for it (and the agent
# lists last among the newest-first agents).
BORN = datetime(2001, 2, 3, 9, 30, tzinfo=UTC)


@pytest.fixture
async def clocked(settings: Settings) -> AsyncIterator[tuple[GraphClient, FixedClock]]:
    clock = FixedClock(BORN)
    client = GraphClient.from_settings(settings.neo4j, clock=clock)
    yield client, clock
    await client.close()


async def test_beliefs_and_their_events_carry_the_clocks_time(
    graph: GraphClient, clocked: tuple[GraphClient, FixedClock]
) -> None:
    client, clock = clocked
    agent = await create_agent(client, AgentCreate(name="Clocked"))
    belief = await store.create_belief(
        client,
        Mechanics(),
        agent.id,
        BeliefCreate(statement="Invoices are paid within 30 days", category="contextual"),
    )
    clock.advance(timedelta(days=2))
    await updates.apply_evidence(
        client,
        Mechanics(),
        agent.id,
        [EvidenceForBelief(belief_id=belief.id, text="Three went unpaid", stance="contradicting")],
    )

    read = (await store.get_belief(graph, Mechanics(), agent.id, belief.id)).belief
    events = (
        await graph.read(
            "beliefs/events/list_events",
            agent_id=agent.id,
            belief_id=belief.id,
            after_seq=-1,
            limit=10,
        )
    )[0]["events"]

    assert read.created_at == BORN
    assert read.last_challenged == BORN + timedelta(days=2)
    assert [event["at"] for event in events] == [BORN, BORN + timedelta(days=2)]


async def test_a_caller_s_own_now_wins(
    graph: GraphClient, clocked: tuple[GraphClient, FixedClock]
) -> None:
    client, _clock = clocked
    agent = await create_agent(client, AgentCreate(name="Clocked"))
    told = BORN - timedelta(days=400)

    await client.write(
        "beliefs/dissatisfaction/record_dissatisfaction",
        agent_id=agent.id,
        medium_from=0.3,
        high_from=0.6,
        level=0.9,
        restart=False,
        now=told,
    )

    rows = await graph.read("beliefs/analytics/dissatisfaction_history", agent_id=agent.id, limit=5)
    assert rows and rows[0]["at"] == told
