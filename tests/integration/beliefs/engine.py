"""Helpers for belief-engine tests: a fresh agent and short-hands over the real services."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.beliefs import edges, store, updates
from app.beliefs.mechanics import Mechanics
from app.beliefs.models import (
    BeliefCreate,
    EdgeCreate,
    EvidenceForBelief,
    EvidenceOutcome,
    OutcomeIn,
    OutcomeResult,
)
from app.graph.client import GraphClient
from app.reasoning.offline.reasoner import OfflineReasoner


@dataclass
class Engine:
    graph: GraphClient
    agent_id: str
    mechanics: Mechanics = field(default_factory=Mechanics)
    reasoner: OfflineReasoner = field(default_factory=OfflineReasoner)

    @classmethod
    async def new(cls, graph: GraphClient, mechanics: Mechanics | None = None) -> Engine:
        agent = await create_agent(graph, AgentCreate(name="test agent"))
        return cls(graph, agent.id, mechanics or Mechanics())

    async def belief(self, statement: str, **fields: object) -> str:
        data = BeliefCreate.model_validate(
            {"statement": statement, "category": "contextual", **fields}
        )
        return (await store.create_belief(self.graph, self.mechanics, self.agent_id, data)).id

    async def supports(self, source: str, target: str, weight: float = 1.0) -> None:
        await edges.create_edge(
            self.graph,
            self.mechanics,
            self.agent_id,
            EdgeCreate(type="SUPPORTS", source_id=source, target_id=target, weight=weight),
        )

    async def outcome(self, belief_id: str, **fields: object) -> OutcomeResult:
        return await updates.apply_outcome(
            self.graph, self.mechanics, self.agent_id, belief_id, OutcomeIn.model_validate(fields)
        )

    async def evidence(
        self, belief_id: str, stance: str, text: str = "evidence", **fields: object
    ) -> EvidenceOutcome:
        item = EvidenceForBelief.model_validate(
            {"belief_id": belief_id, "stance": stance, "text": text, **fields}
        )
        return await updates.record_evidence(
            self.graph, self.mechanics, self.reasoner, self.agent_id, [item]
        )

    async def state(self, belief_id: str) -> tuple[float, float, bool]:
        detail = await store.get_belief(
            self.graph, self.mechanics, self.agent_id, belief_id, history_limit=0
        )
        return detail.belief.strength, detail.belief.tension, detail.belief.is_active
