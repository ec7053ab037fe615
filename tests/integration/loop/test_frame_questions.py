"""A turn's frame's own checks (its ``questions_to_ask``, seeds/frames.yaml): given to the
appraisal and to the reply as questions the agent asks itself, shown in the turn's result, and
never asked of the person (real Neo4j, the offline reasoner)."""

from __future__ import annotations

from typing import Any

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.beliefs import store
from app.beliefs.models import BeliefCreate
from app.config import Settings
from app.embeddings.embedder import shared_embedder
from app.graph.client import GraphClient
from app.loop.models import ChatRequest
from app.loop.turn import run_turn
from app.memory.frames import default_frames
from app.reasoning.offline.reasoner import OfflineReasoner
from app.reasoning.protocol import Appraisal, AppraisalRequest, Reply, ResponseRequest
from app.runtime import Runtime

RECONCILE = "Bank accounts are reconciled at month end before the books are closed"
DECISION = "Should we reconcile the Chase bank account before the books are closed?"


class AskedReasoner(OfflineReasoner):
    """The offline reasoner, keeping the appraisal and response requests it is given."""

    def __init__(self, embedder: Any) -> None:
        super().__init__(embedder)
        self.appraisals: list[AppraisalRequest] = []
        self.responses: list[ResponseRequest] = []

    async def appraise(self, request: AppraisalRequest) -> Appraisal:
        self.appraisals.append(request)
        return await super().appraise(request)

    async def respond(self, request: ResponseRequest) -> Reply:
        self.responses.append(request)
        return await super().respond(request)


def shipped_questions(key: str) -> list[str]:
    return next(frame.questions_to_ask for frame in default_frames() if frame.key == key)


async def test_the_frames_checks_reach_the_appraisal_and_the_reply_not_the_person(
    graph: GraphClient, settings: Settings
) -> None:
    agent = await create_agent(graph, AgentCreate(name="frame checks"))
    await store.create_belief(
        graph,
        settings.mechanics,
        agent.id,
        BeliefCreate(statement=RECONCILE, category="contextual", strength=0.9),
    )
    reasoner = AskedReasoner(shared_embedder(settings.embeddings))
    services = Runtime(settings, graph, reasoner=reasoner).loop

    result = await run_turn(services, agent.id, ChatRequest(message=DECISION))

    checks = shipped_questions("decision")
    assert result.frame == "decision" and len(checks) >= 2
    assert result.frame_questions == checks
    assert [r.frame_questions for r in reasoner.appraisals] == [checks]
    assert [r.frame_questions for r in reasoner.responses] == [checks]
    # The agent's own checks: not asked of the person.
    assert not set(result.questions) & set(checks)
    assert not any(check in result.response for check in checks)


async def test_each_frame_brings_its_own_checks(graph: GraphClient, settings: Settings) -> None:
    agent = await create_agent(graph, AgentCreate(name="frame checks, small talk"))
    reasoner = AskedReasoner(shared_embedder(settings.embeddings))
    services = Runtime(settings, graph, reasoner=reasoner).loop

    result = await run_turn(services, agent.id, ChatRequest(message="Hi, how are you today?"))

    assert result.frame == "conversation"
    assert result.frame_questions == shipped_questions("conversation")
    assert result.frame_questions != shipped_questions("decision")
    assert reasoner.responses[0].frame_questions == result.frame_questions
