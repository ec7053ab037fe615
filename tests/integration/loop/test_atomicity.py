"""Nothing half-written: a reasoner failure or a graph-side error in the middle of a turn leaves
no trace of the turn, and the caller gets a clear error naming the phase."""

from __future__ import annotations

from typing import Any

import pytest

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.beliefs import store
from app.beliefs.models import BeliefCreate
from app.config import Settings
from app.embeddings.embedder import shared_embedder
from app.errors import BeliefNotFound, TurnFailed
from app.graph.client import GraphClient
from app.loop.executors import ExecutorRegistry
from app.loop.guarding import Guard
from app.loop.models import ChatRequest
from app.loop.services import LoopServices
from app.loop.turn import run_turn
from app.reasoning.offline.reasoner import OfflineReasoner
from app.reasoning.protocol import (
    EvidenceItem,
    EvidenceRequest,
    ExtractedEvidence,
    Reply,
    ResponseRequest,
)

DENIAL = "That's wrong: revenue is not recognised when the performance obligation is satisfied."


class RespondFails(OfflineReasoner):
    async def respond(self, request: ResponseRequest) -> Reply:
        raise RuntimeError("the model went away mid-answer")


class EvidenceAboutAGhost(OfflineReasoner):
    async def extract_evidence(self, request: EvidenceRequest) -> ExtractedEvidence:
        return ExtractedEvidence(
            claims=["ghost"],
            items=[
                EvidenceItem(
                    belief_id="no-such-belief", claim="ghost", stance="contradicting", confidence=1
                )
            ],
        )


async def _setup(graph: GraphClient, settings: Settings) -> tuple[str, str]:
    agent = await create_agent(graph, AgentCreate(name="atomic"))
    belief = await store.create_belief(
        graph,
        settings.mechanics,
        agent.id,
        BeliefCreate(
            statement="Revenue is recognised when the performance obligation is satisfied",
            category="aesthetic",
            strength=0.8,
        ),
    )
    return agent.id, belief.id


async def _snapshot(
    graph: GraphClient, test_graph: GraphClient, settings: Settings, agent_id: str, belief_id: str
) -> tuple[Any, ...]:
    nodes = (await test_graph.read("probe/count_agent_nodes", agent_id=agent_id))[0]["nodes"]
    detail = await store.get_belief(
        graph, settings.mechanics, agent_id, belief_id, history_limit=50
    )
    return nodes, detail.belief.tension, detail.belief.strength, len(detail.events)


def _services(graph: GraphClient, settings: Settings, reasoner: OfflineReasoner) -> LoopServices:
    embedder = shared_embedder(settings.embeddings)
    return LoopServices(
        graph=graph,
        settings=settings,
        reasoner=reasoner,
        embedder=embedder,
        executors=ExecutorRegistry(),
        guard=Guard(graph, settings.guardian),
    )


async def test_reasoner_failure_mid_turn_writes_nothing(
    graph: GraphClient, test_graph: GraphClient, settings: Settings
) -> None:
    agent_id, belief_id = await _setup(graph, settings)
    embedder = shared_embedder(settings.embeddings)
    services = _services(graph, settings, RespondFails(embedder))
    before = await _snapshot(graph, test_graph, settings, agent_id, belief_id)
    with pytest.raises(TurnFailed) as failure:
        await run_turn(services, agent_id, ChatRequest(message=DENIAL, speaker="Dana Fox"))
    assert failure.value.details["phase"] == "respond"
    assert "model went away" in failure.value.message
    after = await _snapshot(graph, test_graph, settings, agent_id, belief_id)
    assert after == before
    # The same turn with a working reasoner does write (so the snapshot can see writes).
    await run_turn(
        _services(graph, settings, OfflineReasoner(embedder)),
        agent_id,
        ChatRequest(message=DENIAL, speaker="Dana Fox"),
    )
    assert await _snapshot(graph, test_graph, settings, agent_id, belief_id) != before


async def test_graph_error_mid_turn_writes_nothing(
    graph: GraphClient, test_graph: GraphClient, settings: Settings
) -> None:
    agent_id, belief_id = await _setup(graph, settings)
    embedder = shared_embedder(settings.embeddings)
    before = await _snapshot(graph, test_graph, settings, agent_id, belief_id)
    with pytest.raises(BeliefNotFound):
        await run_turn(
            _services(graph, settings, EvidenceAboutAGhost(embedder)),
            agent_id,
            ChatRequest(message=DENIAL, speaker="Dana Fox"),
        )
    assert await _snapshot(graph, test_graph, settings, agent_id, belief_id) == before
