"""An approval nobody answers expires and its task stops awaiting input (docs/loop.md §6, §14;
docs/memory.md §4): the scheduler's ``approval_expiry`` job marks it expired and cancels the
task at the clock's time, once. Real Neo4j, offline reasoner, the real loop, the graph's times
and the loop's on one injected clock (never the wall)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import timedelta

import pytest

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.beliefs import store
from app.beliefs.models import BeliefCreate
from app.clock import FixedClock
from app.config import Settings
from app.errors import ApprovalClosed
from app.graph.client import GraphClient
from app.loop.approvals import claim, expire_overdue, expired_cause, get_approval
from app.loop.executors import ExecutorRegistry
from app.loop.models import ApprovalAnswer, ChatRequest, TurnResult
from app.loop.resume_turn import resume_approval
from app.loop.turn import run_turn
from app.memory import working_memory
from app.memory.working_memory import Task
from app.reasoning.offline.reasoner import OfflineReasoner
from app.runtime import Runtime
from app.scheduler.settings import SchedulerSettings
from tests.integration.loop.test_task_states import RECONCILE, REQUEST, Reconciler
from tests.support.clock import ordinary_day_start

TTL_HOURS = 72.0
LEASE_S = 600  # approval_claim_lease_s


@pytest.fixture
def fixed_clock() -> FixedClock:
    return FixedClock(ordinary_day_start())


@pytest.fixture
async def clocked_graph(settings: Settings, fixed_clock: FixedClock) -> AsyncIterator[GraphClient]:
    """A graph client whose ``$now`` is ``fixed_clock``: the approval's expiry is written from
    it and read against it."""
    client = GraphClient.from_settings(settings.neo4j, clock=fixed_clock)
    yield client
    await client.close()


@dataclass(frozen=True)
class Asked:
    """One agent whose proposal turn left an approval waiting and its task awaiting input."""

    graph: GraphClient
    clock: FixedClock
    runtime: Runtime
    agent_id: str
    approval_id: str


@pytest.fixture
async def asked(
    clocked_graph: GraphClient, settings: Settings, fixed_clock: FixedClock
) -> AsyncIterator[Asked]:
    """A fresh agent, its runtime (only the ``approval_expiry`` job, on ``fixed_clock``) and a
    proposal turn whose approval waits; the runtime is closed after the test."""
    graph = clocked_graph
    agent_id = (await create_agent(graph, AgentCreate(name="approval expiry"))).id
    chosen = SchedulerSettings(enabled=False, agent_ids=[agent_id], jobs=["approval_expiry"])
    runtime = Runtime(
        settings.model_copy(update={"scheduler": chosen}),
        graph,
        reasoner=OfflineReasoner(),
        executors=ExecutorRegistry([Reconciler()]),
        clock=fixed_clock,
    )
    try:
        await store.create_belief(
            graph,
            settings.mechanics,
            agent_id,
            BeliefCreate(statement=RECONCILE, category="aesthetic", strength=0.55),
        )
        turn: TurnResult = await run_turn(runtime.loop, agent_id, ChatRequest(message=REQUEST))
        assert turn.mode == "proposal" and turn.approval is not None
        assert (await _only_task(graph, agent_id)).state == "awaiting_input"
        yield Asked(graph, fixed_clock, runtime, agent_id, turn.approval.id)
    finally:
        await runtime.aclose()


async def _only_task(graph: GraphClient, agent_id: str) -> Task:
    tasks = await working_memory.list_tasks(graph, agent_id)
    assert tasks.count == 1, tasks
    return tasks.data[0]


async def test_the_schedule_cancels_the_task_of_an_approval_nobody_answered(asked: Asked) -> None:
    graph, clock, runtime = asked.graph, asked.clock, asked.runtime
    agent_id, approval_id = asked.agent_id, asked.approval_id
    asked_at = clock.now()
    # Not yet expired: nothing is due, the task still waits.
    clock.advance(timedelta(hours=TTL_HOURS - 1))
    assert await runtime.scheduler.tick() == []
    assert (await _only_task(graph, agent_id)).state == "awaiting_input"

    clock.advance(timedelta(hours=2))
    [run] = await runtime.scheduler.tick()
    assert (run.job, run.agent_id, run.outcome) == ("approval_expiry", agent_id, "ok")
    assert run.detail == "1 approval(s) expired, 1 waiting task(s) cancelled"
    stored = await get_approval(graph, agent_id, approval_id)
    assert stored.public.status == "expired" and stored.public.resolved_at == clock.now()
    task = await _only_task(graph, agent_id)
    assert task.state == "cancelled" and task.ended_at == clock.now()
    assert [(m.state, m.at) for m in task.history][1:] == [
        ("awaiting_input", asked_at),
        ("cancelled", clock.now()),
    ]
    assert task.history[-1].cause == expired_cause(approval_id)
    cancelled_at = clock.now()

    # Nothing waits any more: the agent is not looked at again, and a late answer is
    # refused without moving the task a second time.
    clock.advance(timedelta(hours=1))
    assert await runtime.scheduler.tick() == []
    with pytest.raises(ApprovalClosed):
        await resume_approval(runtime.loop, agent_id, approval_id, ApprovalAnswer(action="approve"))
    again = await _only_task(graph, agent_id)
    assert [(m.state, m.at) for m in again.history][-2:] == [
        ("awaiting_input", asked_at),
        ("cancelled", cancelled_at),
    ]


async def test_expiring_is_idempotent_and_moves_only_a_waiting_task(asked: Asked) -> None:
    graph, clock = asked.graph, asked.clock
    agent_id, approval_id = asked.agent_id, asked.approval_id
    # Before its time nothing expires.
    early = await expire_overdue(graph, agent_id, clock.now() + timedelta(hours=1), LEASE_S)
    assert (early.expired, early.cancelled) == ([], [])
    late = clock.now() + timedelta(hours=TTL_HOURS + 1)
    first = await expire_overdue(graph, agent_id, late, LEASE_S)
    assert (first.expired, first.cancelled) == ([approval_id], [approval_id])
    # A second sweep (or a transaction re-run after a transient error) finds nothing.
    second = await expire_overdue(graph, agent_id, late + timedelta(minutes=5), LEASE_S)
    assert (second.expired, second.cancelled) == ([], [])
    task = await _only_task(graph, agent_id)
    assert [m.state for m in task.history] == ["planning", "awaiting_input", "cancelled"]
    assert task.history[-1].at == late


async def _claimed_by_a_process_that_died(asked: Asked) -> None:
    """What a resumption writes first, before its process died: the approval ``resuming``."""
    await claim(asked.graph, asked.agent_id, asked.approval_id, "a-dead-process", LEASE_S)
    stored = await get_approval(asked.graph, asked.agent_id, asked.approval_id)
    assert stored.public.status == "resuming"


async def test_a_claim_left_by_a_process_that_died_is_taken_over_after_its_lease(
    asked: Asked,
) -> None:
    """Documented (docs/loop.md §6), never reachable: an answer to a ``resuming`` approval was
    refused (409 approval_closed, "another answer to it is being carried out") before its
    claim was tried, so the approval waited for nobody forever, its task awaiting input."""
    await _claimed_by_a_process_that_died(asked)
    runtime, agent_id, approval_id = asked.runtime, asked.agent_id, asked.approval_id
    with pytest.raises(ApprovalClosed):  # within the lease: the other answer may still run
        await resume_approval(runtime.loop, agent_id, approval_id, ApprovalAnswer(action="approve"))

    asked.clock.advance(timedelta(seconds=LEASE_S + 1))
    resumed = await resume_approval(
        runtime.loop, agent_id, approval_id, ApprovalAnswer(action="approve")
    )

    assert resumed.approval is not None and resumed.approval.status == "approved"
    assert (await _only_task(asked.graph, agent_id)).state == "completed"


async def test_a_claim_left_by_a_process_that_died_is_not_taken_over_after_expiry(
    asked: Asked,
) -> None:
    """A stale claim past the approval's expiry was taken over like any (its work ran days
    late): the approval expires instead, and its task is cancelled."""
    await _claimed_by_a_process_that_died(asked)
    runtime, agent_id, approval_id = asked.runtime, asked.agent_id, asked.approval_id
    asked.clock.advance(timedelta(hours=TTL_HOURS + 1))

    with pytest.raises(ApprovalClosed) as closed:
        await resume_approval(runtime.loop, agent_id, approval_id, ApprovalAnswer(action="approve"))

    assert closed.value.details["status"] == "expired"
    stored = await get_approval(asked.graph, agent_id, approval_id)
    assert stored.public.status == "expired"
    assert (await _only_task(asked.graph, agent_id)).state == "cancelled"


async def test_the_schedule_expires_a_claim_left_by_a_process_that_died(asked: Asked) -> None:
    """Only a pending approval was looked at: one left ``resuming`` by a process that died
    stayed so past its expiry, its task awaiting input, until someone answered it."""
    graph, clock, runtime = asked.graph, asked.clock, asked.runtime
    agent_id, approval_id = asked.agent_id, asked.approval_id
    await _claimed_by_a_process_that_died(asked)
    clock.advance(timedelta(hours=TTL_HOURS + 1))

    [run] = await runtime.scheduler.tick()

    assert (run.job, run.agent_id, run.outcome) == ("approval_expiry", agent_id, "ok")
    assert run.detail == "1 approval(s) expired, 1 waiting task(s) cancelled"
    stored = await get_approval(graph, agent_id, approval_id)
    assert stored.public.status == "expired" and stored.public.resolved_at == clock.now()
    task = await _only_task(graph, agent_id)
    assert task.state == "cancelled" and task.ended_at == clock.now()
    assert task.history[-1].cause == expired_cause(approval_id)


async def test_a_live_claim_is_not_expired_under_its_resumption(asked: Asked) -> None:
    """A claim within its lease belongs to a resumption that may be running: past the
    approval's expiry, neither the schedule nor a sweep expires it until the lease ends."""
    graph, clock, runtime = asked.graph, asked.clock, asked.runtime
    agent_id, approval_id = asked.agent_id, asked.approval_id
    clock.advance(timedelta(hours=TTL_HOURS, seconds=-60))
    await _claimed_by_a_process_that_died(asked)  # a minute before its expiry
    clock.advance(timedelta(seconds=LEASE_S - 1))  # past the expiry, within the lease

    assert await runtime.scheduler.tick() == []
    swept = await expire_overdue(graph, agent_id, clock.now(), LEASE_S)
    assert (swept.expired, swept.cancelled) == ([], [])
    assert (await get_approval(graph, agent_id, approval_id)).public.status == "resuming"
    assert (await _only_task(graph, agent_id)).state == "awaiting_input"

    clock.advance(timedelta(seconds=2))  # the lease ended: the claim is stale
    [run] = await runtime.scheduler.tick()
    assert run.detail == "1 approval(s) expired, 1 waiting task(s) cancelled"
    assert (await get_approval(graph, agent_id, approval_id)).public.status == "expired"
    assert (await _only_task(graph, agent_id)).state == "cancelled"
