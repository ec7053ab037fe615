"""No reasoner call inside a retried transaction: a turn whose transaction fails once with a
transient error (a deadlock, retried by the graph client) asks the reasoner each question once,
streams each of its events once and counts each call's tokens once, up to and including the turn
that revises (real Neo4j, offline reasoner with a token count of its own)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from neo4j import exceptions as neo4j_errors

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.beliefs import store
from app.beliefs.models import BeliefCreate
from app.config import Settings
from app.embeddings.embedder import shared_embedder
from app.graph.client import GraphClient, Transaction
from app.loop.models import ChatRequest, TurnEvent
from app.loop.turn import run_turn
from app.reasoning.offline.reasoner import OfflineReasoner
from app.reasoning.protocol import (
    Appraisal,
    AppraisalRequest,
    EvidenceRequest,
    ExtractedEvidence,
    Reply,
    ResponseRequest,
    RevisedBelief,
    RevisionRequest,
    TokenUsage,
)
from app.runtime import Runtime

T = TypeVar("T")
RECOGNITION = "Revenue is recognised when the performance obligation is satisfied"
DENIAL = "That's wrong: revenue is not recognised when the performance obligation is satisfied."


class CountedReasoner(OfflineReasoner):
    """The offline reasoner, each answer costing 100 + 10 tokens, every request kept."""

    def __init__(self, embedder: Any) -> None:
        super().__init__(embedder)
        self.requests: list[tuple[str, str]] = []

    def _count(self, name: str, request: Any) -> TokenUsage:
        self.requests.append((name, request.model_dump_json()))
        return TokenUsage(model="counted", input_tokens=100, output_tokens=10)

    async def appraise(self, request: AppraisalRequest) -> Appraisal:
        answer = await super().appraise(request)
        return answer.model_copy(update={"usage": self._count("appraise", request)})

    async def extract_evidence(self, request: EvidenceRequest) -> ExtractedEvidence:
        answer = await super().extract_evidence(request)
        return answer.model_copy(update={"usage": self._count("extract_evidence", request)})

    async def revise(self, request: RevisionRequest) -> RevisedBelief:
        answer = await super().revise(request)
        return answer.model_copy(update={"usage": self._count("revise", request)})

    async def respond(self, request: ResponseRequest) -> Reply:
        answer = await super().respond(request)
        return answer.model_copy(update={"usage": self._count("respond", request)})


class DeadlockOnce(GraphClient):
    """Each turn transaction's first attempt that runs to its end fails with a deadlock before
    it commits: the graph client's retry runs all of its work again."""

    deadlocks = 0

    async def write_transaction(
        self, work: Callable[[Transaction], Awaitable[T]], action: str = "writing"
    ) -> T:
        if action != "recording a turn":
            return await super().write_transaction(work, action)
        failed = False

        async def once(tx: Transaction) -> T:
            nonlocal failed
            result = await work(tx)
            if not failed:
                failed = True
                DeadlockOnce.deadlocks += 1
                raise neo4j_errors.Neo4jError._hydrate_neo4j(
                    code="Neo.TransientError.Transaction.DeadlockDetected", message="injected"
                )
            return result

        return await super().write_transaction(once, action)


async def test_a_retried_turn_asks_streams_and_counts_once(
    graph: GraphClient, settings: Settings
) -> None:
    agent = await create_agent(graph, AgentCreate(name="retried"))
    belief = await store.create_belief(
        graph,
        settings.mechanics,
        agent.id,
        BeliefCreate(statement=RECOGNITION, category="aesthetic", strength=0.8),
    )
    flaky = DeadlockOnce.from_settings(settings.neo4j)
    reasoner = CountedReasoner(shared_embedder(settings.embeddings))
    services = Runtime(settings, flaky, reasoner=reasoner).loop
    revised = None
    try:
        for _ in range(10):
            events: list[TurnEvent] = []

            async def listen(event: TurnEvent, into: list[TurnEvent] = events) -> None:
                into.append(event)

            reasoner.requests.clear()
            deadlocks = DeadlockOnce.deadlocks
            result = await run_turn(services, agent.id, ChatRequest(message=DENIAL), listen)
            assert DeadlockOnce.deadlocks == deadlocks + 1  # the transaction did run twice
            # Each question asked once, and the turn counts what was asked, once each.
            asked = reasoner.requests
            assert len(set(asked)) == len(asked), Counter(name for name, _ in asked)
            # One response, also in the turn that revises (it is asked once the revision is).
            assert [name for name, _ in asked].count("respond") == 1
            assert len(result.reasoners.calls) == len(asked)
            assert result.reasoners.model_calls == len(asked)
            assert result.reasoners.input_tokens == 100 * len(asked)
            assert result.reasoners.output_tokens == 10 * len(asked)
            # Each event streamed once, after the commit.
            phases = [e.phase for e in events if e.type == "phase"]
            assert len(phases) == len(set(phases)), phases
            assert {"activate", "episode", "learn", "respond"} <= set(phases)
            kinds = Counter(e.type for e in events)
            assert kinds["response"] == 1 and kinds["done"] == 1
            assert kinds["revision"] == len(result.revisions)
            moves = [(e.data["id"], e.data["new"]) for e in events if e.type == "tension"]
            assert len(moves) == len(result.tension_changes) == len(set(moves))
            if result.revisions:
                revised = result
                break
    finally:
        await flaky.close()
    assert revised is not None, "no revision after 10 contradicting turns"
    assert revised.revisions[0].old_belief_id == belief.id
    assert revised.mode == "revision"
    assert [name for name, _ in reasoner.requests].count("revise") == len(revised.revisions)
    assert "revised" in revised.response.lower()
