"""16 concurrent writers applying evidence and outcomes to overlapping beliefs lose no update:
the final state equals the replay of the events, which equals the sum of what was sent."""

from __future__ import annotations

import asyncio
import random

import pytest

from app.beliefs import formulas as f
from app.beliefs import updates
from app.beliefs.models import EvidenceForBelief, OutcomeIn
from app.beliefs.replay import compare_with_stored
from app.graph.client import GraphClient
from tests.integration.beliefs.engine import Engine

WRITERS = 16
PER_WRITER = 12


async def test_sixteen_concurrent_writers_lose_no_update(graph: GraphClient) -> None:
    engine = await Engine.new(graph)
    # Contradictions on the leaves only add tension (which commutes), reinforcements and neutral
    # outcomes change no tension; so the expected tension is the plain sum of what was sent.
    leaves = [await engine.belief(f"leaf {i}", strength=0.5) for i in range(4)]
    hub = await engine.belief("hub")
    for leaf in leaves:
        await engine.supports(leaf, hub, 0.5)
    sent: list[tuple[str, float]] = []

    async def writer(number: int) -> None:
        rng = random.Random(number)
        for _ in range(PER_WRITER):
            target = rng.choice(leaves)
            choice = rng.random()
            if choice < 0.5:
                weight = rng.choice([0.1, 0.2, 0.3])
                sent.append((target, weight))
                await updates.apply_evidence(
                    graph,
                    engine.mechanics,
                    engine.agent_id,
                    [
                        EvidenceForBelief(
                            belief_id=target, stance="contradicting", text="no", confidence=weight
                        )
                    ],
                )
            elif choice < 0.8:
                await updates.apply_evidence(
                    graph,
                    engine.mechanics,
                    engine.agent_id,
                    [
                        EvidenceForBelief(
                            belief_id=target, stance="reinforcing", text="yes", confidence=0.5
                        )
                    ],
                )
            else:
                await updates.apply_outcome(
                    graph, engine.mechanics, engine.agent_id, target, OutcomeIn(outcome="success")
                )

    await asyncio.gather(*(writer(n) for n in range(WRITERS)))

    assert await compare_with_stored(graph, engine.mechanics, engine.agent_id) == []
    events = (
        await graph.read(
            "beliefs/events/list_events",
            agent_id=engine.agent_id,
            belief_id=None,
            after_seq=0,
            limit=100_000,
        )
    )[0]["events"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    for leaf in leaves:
        expected = 0.0
        for target, weight in sent:
            if target == leaf:
                expected = f.add_tension(expected, f.tension_delta(weight, engine.mechanics))
        _, tension, _ = await engine.state(leaf)
        assert tension == pytest.approx(expected, abs=1e-9)
    # The hub is re-derived from its leaves after the last change.
    strengths = [(await engine.state(leaf))[0] for leaf in leaves]
    hub_strength, _, _ = await engine.state(hub)
    assert hub_strength == pytest.approx(sum(strengths) / len(strengths), abs=1e-9)
