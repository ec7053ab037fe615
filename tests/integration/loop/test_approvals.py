"""Approvals (human in the loop): answer, approve, modify, reject, expiry, and a round trip
that survives a restart of the API process."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.api.app import create_app
from app.beliefs import store
from app.beliefs.models import BeliefCreate
from app.clock import FixedClock
from app.config import Settings
from app.errors import ApprovalClosed, TurnFailed
from app.graph.client import GraphClient
from app.guardian.errors import CensorPatternInvalid
from app.loop import resume_turn
from app.loop.approvals import claim, get_approval, release
from app.loop.background import settle_all_background
from app.loop.executors import ExecutorRegistry
from app.loop.models import ApprovalAnswer, ChatRequest
from app.loop.resume_turn import resume_approval
from app.loop.turn import run_turn
from app.reasoning.offline.reasoner import OfflineReasoner
from app.reasoning.protocol import ExecutionResult, Reply, ResponseRequest, WorkUnit
from app.runtime import Runtime
from tests.integration.loop.conftest import Agent
from tests.support.agents import MakeAgent
from tests.support.clock import ordinary_day_start
from tools.serve.api_process import running_api, server_env

RECONCILE = "Bank accounts are reconciled at month end before the books are closed"
REQUEST = "Please reconcile the Chase bank account before the books are closed"
REMEMBER = "Dates the person asks me to remember, such as when an audit starts, are noted"


def _proposal(agent: Agent, belief_strength: float = 0.55) -> tuple[str, dict[str, Any]]:
    belief = agent.belief(RECONCILE, belief_strength)
    turn = agent.chat(REQUEST)
    assert turn["approval"] is not None, turn
    return belief, turn


def test_approve_resumes_the_turn(agent: Agent) -> None:
    _, turn = _proposal(agent)
    approval = turn["approval"]
    assert approval["status"] == "pending"
    pending = agent.get("/approvals", status="pending")
    assert [a["id"] for a in pending["data"]] == [approval["id"]]
    response = agent.client.post(
        f"/v1/agents/{agent.id}/approvals/{approval['id']}", json={"action": "approve"}
    )
    assert response.status_code == 200, response.text
    resumed = response.json()
    assert resumed["approval"]["status"] == "approved"
    assert resumed["execution"]["status"] == "recorded_not_executed"
    again = agent.client.post(
        f"/v1/agents/{agent.id}/approvals/{approval['id']}", json={"action": "approve"}
    )
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "approval_closed"


def test_guidance_answer_shapes_the_work(agent: Agent) -> None:
    agent.belief(REMEMBER, 0.2)
    turn = agent.chat("Please remember that the audit starts on Monday")
    assert turn["mode"] == "guidance"
    approval = turn["approval"]
    bad = agent.client.post(
        f"/v1/agents/{agent.id}/approvals/{approval['id']}", json={"action": "approve"}
    )
    assert bad.status_code == 422
    assert bad.json()["error"]["code"] == "approval_answer_invalid"
    # Its entry, as every 422 has (docs/api.md "Error entries").
    assert bad.json()["error"]["details"]["errors"] == [
        {
            "location": ["body", "action"],
            "message": "a guidance approval takes answer, reject",
            "type": "approval_answer_invalid",
        }
    ]
    # An answer without its text is located at the text it lacks.
    empty = agent.client.post(
        f"/v1/agents/{agent.id}/approvals/{approval['id']}", json={"action": "answer"}
    )
    assert empty.status_code == 422
    [entry] = empty.json()["error"]["details"]["errors"]
    assert entry["location"] == ["body", "text"]
    assert entry["message"] == "an answer needs its text"
    response = agent.client.post(
        f"/v1/agents/{agent.id}/approvals/{approval['id']}",
        json={"action": "answer", "text": "Yes, note it with high priority before Friday"},
    )
    assert response.status_code == 200, response.text
    resumed = response.json()
    assert resumed["approval"]["status"] == "answered"
    assert resumed["execution"]["status"] == "executed"
    notes = agent.get("/working-memory")["notes"]
    assert any("audit" in n["content"].lower() for n in notes)


def test_modify_runs_the_persons_unit(agent: Agent) -> None:
    _, turn = _proposal(agent)
    response = agent.client.post(
        f"/v1/agents/{agent.id}/approvals/{turn['approval']['id']}",
        json={
            "action": "modify",
            "work_unit": {
                "verb": "note",
                "entities": ["Chase"],
                "constraints": [],
                "description": "Reconcile Chase after the statement arrives",
            },
        },
    )
    assert response.status_code == 200, response.text
    assert response.json()["execution"]["status"] == "executed"
    assert response.json()["approval"]["status"] == "modified"


def test_rejection_is_learned_from(ordinary_day_agent: Agent) -> None:
    # An ordinary day: the rejection moves the default strength (at a month end, the month's).
    agent = ordinary_day_agent
    belief, turn = _proposal(agent)
    before = agent.strength(belief)
    response = agent.client.post(
        f"/v1/agents/{agent.id}/approvals/{turn['approval']['id']}",
        json={"action": "reject", "text": "Never reconcile Chase without the statement"},
    )
    assert response.status_code == 200, response.text
    assert response.json()["approval"]["status"] == "rejected"
    assert response.json()["execution"] is None
    assert agent.strength(belief) < before
    censors = agent.get("/censors")["data"]
    learned = [c for c in censors if c.get("auto_created")]
    assert learned and "reconcile" in learned[0]["pattern"]


def test_approved_work_carries_the_valence_of_its_outcome_and_the_answer(agent: Agent) -> None:
    """The answered approval's episode is valenced as a turn's is: its outcome (here neutral:
    recorded, not executed) and the answerer's cues (praise +0.2), so approved work can be a
    session's peak (it had no valence at all)."""
    _, turn = _proposal(agent)
    response = agent.client.post(
        f"/v1/agents/{agent.id}/approvals/{turn['approval']['id']}",
        json={"action": "approve", "text": "Yes, thanks, great work", "speaker": "Dana"},
    )
    assert response.status_code == 200, response.text
    episode = agent.get(f"/episodes/{response.json()['turn_id']}")
    assert episode["outcome"] == "neutral", episode
    assert episode["emotional_valence"] == pytest.approx(0.2)


def test_a_long_rejection_still_teaches_a_censor(agent: Agent) -> None:
    _, turn = _proposal(agent)
    text = "Never reconcile Chase without the statement. " + "The statement comes first. " * 90
    response = agent.client.post(
        f"/v1/agents/{agent.id}/approvals/{turn['approval']['id']}",
        json={"action": "reject", "text": text},
    )
    assert response.status_code == 200, response.text
    learned = [c for c in agent.get("/censors")["data"] if c.get("auto_created")]
    assert learned and learned[0]["reason"].startswith("learned from a rejection: Never")
    assert len(learned[0]["reason"]) == 2000


def test_a_censor_that_cannot_be_learned_still_lets_the_rejection_be_counted(
    agent: Agent, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The after-rejection bookkeeping: a learned censor refused (here: its pattern) is logged,
    and the turn is still counted by the runaway guard (a dissatisfaction sample)."""
    _, turn = _proposal(agent)

    async def refused(*_: object, **__: object) -> None:
        raise CensorPatternInvalid("x", ["refused for the test"])

    monkeypatch.setattr(resume_turn, "learn_censor", refused)
    before = len(agent.get("/analytics/dissatisfaction_history")["rows"])
    response = agent.client.post(
        f"/v1/agents/{agent.id}/approvals/{turn['approval']['id']}",
        json={"action": "reject", "text": "Never reconcile Chase without the statement"},
    )
    assert response.status_code == 200, response.text
    # On the app's event loop, where its background work runs (called bare, it ran nothing).
    assert agent.client.portal is not None
    agent.client.portal.call(settle_all_background)
    assert len(agent.get("/analytics/dissatisfaction_history")["rows"]) == before + 1
    assert not [c for c in agent.get("/censors")["data"] if c.get("auto_created")]


def test_expired_approval_cannot_be_answered(settings: Settings) -> None:
    clock = FixedClock(ordinary_day_start())
    with TestClient(create_app(settings, clock=clock)) as client:
        agent = Agent(client, client.post("/v1/agents", json={"name": "expiry"}).json()["id"])
        _, turn = _proposal(agent)
        approval_id = turn["approval"]["id"]
        clock.advance(timedelta(hours=settings.loop.approval_ttl_hours, seconds=1))
        listed = agent.get("/approvals")["data"]
        assert listed[0]["status"] == "expired"
        response = client.post(
            f"/v1/agents/{agent.id}/approvals/{approval_id}", json={"action": "approve"}
        )
        assert response.status_code == 409
        assert "expired" in response.json()["error"]["message"]
        assert agent.get(f"/approvals/{approval_id}")["status"] == "expired"
        # The late answer moved the task on: it no longer awaits input.
        [task] = [
            t for t in agent.get("/working-memory/tasks")["data"] if t["approval_id"] == approval_id
        ]
        assert task["state"] == "cancelled" and "expired" in task["history"][-1]["cause"]


def test_approval_round_trip_survives_a_restart(settings: Settings) -> None:
    with running_api(server_env(settings), wait_for="/ready") as base:
        agent_id = httpx.post(f"{base}/v1/agents", json={"name": "restart"}).json()["id"]
        created = httpx.post(
            f"{base}/v1/agents/{agent_id}/beliefs",
            json={"statement": RECONCILE, "strength": 0.55, "category": "aesthetic"},
        )
        assert created.status_code == 201, created.text
        turn = httpx.post(
            f"{base}/v1/agents/{agent_id}/chat", json={"message": REQUEST}, timeout=60
        ).json()
        approval_id = turn["approval"]["id"]
    # A new process: nothing of the turn is in memory any more, only in Neo4j.
    with running_api(server_env(settings), wait_for="/ready") as base:
        resumed = httpx.post(
            f"{base}/v1/agents/{agent_id}/approvals/{approval_id}",
            json={"action": "approve"},
            timeout=60,
        )
        assert resumed.status_code == 200, resumed.text
        body = resumed.json()
        assert body["approval"]["status"] == "approved"
        assert body["work_unit"]["verb"] == "reconcile_accounts"
        assert body["decision_id"] == turn["decision_id"]


async def test_two_answers_at_once_execute_the_work_once(
    graph: GraphClient, settings: Settings
) -> None:
    """The approval is claimed before its work unit runs: of two concurrent approvals one
    resumes, the other is refused, and the executor runs once."""
    agent = await create_agent(graph, AgentCreate(name="race"))
    await store.create_belief(
        graph,
        settings.mechanics,
        agent.id,
        BeliefCreate(statement=RECONCILE, category="aesthetic", strength=0.55),
    )
    slow = SlowReconciler()
    services = Runtime(
        settings, graph, executors=ExecutorRegistry([slow]), reasoner=OfflineReasoner()
    ).loop
    turn = await run_turn(services, agent.id, ChatRequest(message=REQUEST))
    assert turn.approval is not None
    answers = await asyncio.gather(
        resume_approval(services, agent.id, turn.approval.id, ApprovalAnswer(action="approve")),
        resume_approval(services, agent.id, turn.approval.id, ApprovalAnswer(action="approve")),
        return_exceptions=True,
    )
    done = [a for a in answers if not isinstance(a, BaseException)]
    refused = [a for a in answers if isinstance(a, ApprovalClosed)]
    assert len(done) == 1 and len(refused) == 1, answers
    assert slow.calls == 1
    assert done[0].execution is not None and done[0].execution.status == "executed"


async def test_a_failed_resumption_gives_the_approval_back(
    graph: GraphClient, settings: Settings
) -> None:
    agent = await create_agent(graph, AgentCreate(name="give back"))
    await store.create_belief(
        graph,
        settings.mechanics,
        agent.id,
        BeliefCreate(statement=RECONCILE, category="aesthetic", strength=0.55),
    )
    services = Runtime(settings, graph, reasoner=OfflineReasoner()).loop
    turn = await run_turn(services, agent.id, ChatRequest(message=REQUEST))
    assert turn.approval is not None
    failing = Runtime(settings, graph, reasoner=RespondFails()).loop
    with pytest.raises(TurnFailed):
        await resume_approval(failing, agent.id, turn.approval.id, ApprovalAnswer(action="approve"))
    assert (await get_approval(graph, agent.id, turn.approval.id)).public.status == "pending"
    resumed = await resume_approval(
        services, agent.id, turn.approval.id, ApprovalAnswer(action="approve")
    )
    assert resumed.approval is not None and resumed.approval.status == "approved"


async def test_giving_an_approval_back_takes_the_agents_lock_and_spares_an_agent_being_deleted(
    graph: GraphClient, test_graph: GraphClient, settings: Settings, make_agent: MakeAgent
) -> None:
    """docs/graph-model.md §5: the release of a claimed approval (its resumption failed) is a
    write of its own, so it takes the agent's lock; an agent whose deletion has begun takes no
    more writes."""
    agent_id = make_agent("Released approvals")
    await store.create_belief(
        graph,
        settings.mechanics,
        agent_id,
        BeliefCreate(statement=RECONCILE, category="aesthetic", strength=0.55),
    )
    services = Runtime(settings, graph, reasoner=OfflineReasoner()).loop
    turn = await run_turn(services, agent_id, ChatRequest(message=REQUEST))
    assert turn.approval is not None
    approval_id = turn.approval.id
    await settle_all_background()  # the turn's aftermath writes under the lock too

    async def lock_count() -> int:
        [row] = await test_graph.read("scheduler/get_agent_lock", agent_id=agent_id)
        return int(row["write_count"])

    await claim(graph, agent_id, approval_id, "first", lease_s=600)
    before = await lock_count()
    await release(graph, agent_id, approval_id, "first")
    assert await lock_count() == before + 1
    assert (await get_approval(graph, agent_id, approval_id)).public.status == "pending"

    await claim(graph, agent_id, approval_id, "second", lease_s=600)
    await graph.write("agents/store/lock_agent_for_deletion", agent_id=agent_id)
    await release(graph, agent_id, approval_id, "second")
    assert (await get_approval(graph, agent_id, approval_id)).public.status == "resuming"


class SlowReconciler:
    name = "slow reconciler"
    verbs = frozenset({"reconcile_accounts"})

    def __init__(self) -> None:
        self.calls = 0

    async def execute(self, agent_id: str, unit: WorkUnit) -> ExecutionResult:
        self.calls += 1
        await asyncio.sleep(0.3)
        return ExecutionResult(status="executed", message="reconciled")


class RespondFails(OfflineReasoner):
    async def respond(self, request: ResponseRequest) -> Reply:
        raise RuntimeError("no answer")


REMEMBER_BELIEF = "Dates the person asks me to remember, such as when an audit starts, are noted"


async def test_a_decisions_confidence_is_finalised_by_its_outcome(
    agent: Agent, test_graph: GraphClient
) -> None:
    """Seed 002's finalize: success 0.8, rejection (a failure of the decision) 0.3; pending
    keeps the confidence it was proposed with."""

    async def decision(decision_id: object) -> dict[str, object]:
        [row] = await test_graph.read(
            "loop/decision_confidence", agent_id=agent.id, decision_id=decision_id
        )
        return row

    agent.belief(REMEMBER_BELIEF, 0.9)
    done = agent.chat("Please remember that the audit starts on Monday")
    assert done["mode"] == "autonomous" and done["execution"]["status"] == "executed"
    row = await decision(done["decision_id"])
    assert row["outcome"] == "success" and row["confidence"] == 0.8
    assert row["proposed_confidence"] == done["work_unit"]["confidence"]

    # A second agent, less sure of the same belief: it proposes and waits.
    created = agent.client.post("/v1/agents", json={"name": "finalised confidence"})
    agent = Agent(agent.client, created.json()["id"])
    agent.belief(REMEMBER_BELIEF, 0.55)
    asked = agent.chat("Please remember that the audit fieldwork starts on Tuesday")
    assert asked["approval"] is not None, asked
    pending = await decision(asked["decision_id"])
    assert pending["outcome"] == "pending"
    assert pending["confidence"] == pending["proposed_confidence"]
    approved = agent.client.post(
        f"/v1/agents/{agent.id}/approvals/{asked['approval']['id']}", json={"action": "approve"}
    )
    assert approved.status_code == 200, approved.text
    assert (await decision(asked["decision_id"]))["confidence"] == 0.8

    created = agent.client.post("/v1/agents", json={"name": "rejected confidence"})
    agent = Agent(agent.client, created.json()["id"])
    agent.belief(REMEMBER_BELIEF, 0.55)
    refused = agent.chat("Please remember that the audit closing meeting is on Friday")
    assert refused["approval"] is not None, refused
    rejected = agent.client.post(
        f"/v1/agents/{agent.id}/approvals/{refused['approval']['id']}",
        json={"action": "reject", "text": "Not that one"},
    )
    assert rejected.status_code == 200, rejected.text
    row = await decision(refused["decision_id"])
    assert row["outcome"] == "rejected" and row["confidence"] == 0.3
