"""Task states (seed 000) driven by the loop: a turn's work unit is a task of working memory that
moves planning → executing / awaiting_input → completed / blocked / cancelled, each transition
with its time (the injected clock) and cause (real Neo4j, offline reasoner, the real loop)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from typer.testing import CliRunner

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.beliefs import store
from app.beliefs.models import BeliefCreate
from app.cli.main import app as cli_app
from app.clock import FixedClock
from app.config import Settings
from app.errors import ApprovalClosed
from app.graph.client import GraphClient
from app.loop.executors import ExecutorRegistry
from app.loop.models import ApprovalAnswer, ChatRequest
from app.loop.resume_turn import resume_approval
from app.loop.services import LoopServices
from app.loop.settings import LoopSettings
from app.loop.turn import run_turn
from app.memory import working_memory
from app.memory.working_memory import Task
from app.reasoning.offline.reasoner import OfflineReasoner
from app.reasoning.protocol import ExecutionResult, WorkUnit
from app.runtime import Runtime
from tests.integration.loop.conftest import Agent
from tests.support.clock import ordinary_day_start

RECONCILE = "Bank accounts are reconciled at month end before the books are closed"
REQUEST = "Please reconcile the Chase bank account before the books are closed"
REMEMBER = "Dates the person asks me to remember, such as when an audit starts, are noted"


class Reconciler:
    """An executor for reconcile_accounts that succeeds, or fails with ``error``."""

    name = "test reconciler"
    verbs = frozenset({"reconcile_accounts"})

    def __init__(self, error: str | None = None) -> None:
        self.error = error

    async def execute(self, agent_id: str, unit: WorkUnit) -> ExecutionResult:
        if self.error is not None:
            return ExecutionResult(status="failed", message=self.error)
        return ExecutionResult(status="executed", message="reconciled")


async def _agent(graph: GraphClient, settings: Settings, statement: str, strength: float) -> str:
    agent = await create_agent(graph, AgentCreate(name="task states"))
    await store.create_belief(
        graph,
        settings.mechanics,
        agent.id,
        BeliefCreate(statement=statement, category="aesthetic", strength=strength),
    )
    return agent.id


def _services(
    settings: Settings, graph: GraphClient, clock: FixedClock, executor: Reconciler | None = None
) -> LoopServices:
    executors = ExecutorRegistry([executor]) if executor is not None else None
    return Runtime(
        settings, graph, reasoner=OfflineReasoner(), executors=executors, clock=clock
    ).loop


async def _only_task(graph: GraphClient, agent_id: str) -> Task:
    tasks = await working_memory.list_tasks(graph, agent_id)
    assert tasks.count == 1, tasks
    return tasks.data[0]


async def _open_ids(graph: GraphClient, agent_id: str, clock: FixedClock) -> list[str]:
    memory = await working_memory.load_working_memory(graph, agent_id, clock.now())
    return [task.id for task in memory.tasks]


async def test_an_autonomous_turn_completes_its_task(
    graph: GraphClient, settings: Settings
) -> None:
    agent_id = await _agent(graph, settings, REMEMBER, 0.9)
    clock = FixedClock(ordinary_day_start())
    services = _services(settings, graph, clock)
    turn = await run_turn(
        services, agent_id, ChatRequest(message="Please remember that the audit starts on Monday")
    )
    assert turn.mode == "autonomous" and turn.execution is not None
    task = await _only_task(graph, agent_id)
    assert [move.state for move in task.history] == ["planning", "executing", "completed"]
    assert all(move.at == clock.now() for move in task.history)
    assert task.state == "completed" and task.ended_at == clock.now() and task.source == "turn"
    assert task.history[0].cause.startswith(f"{turn.work_unit.verb} planned")  # type: ignore[union-attr]
    assert task.history[1].cause.startswith("autonomous: ")
    assert task.history[2].cause == "executed and verified"
    # Done: no longer among working memory's open tasks.
    assert await _open_ids(graph, agent_id, clock) == []


async def test_a_proposal_awaits_input_then_runs_when_approved(
    graph: GraphClient, settings: Settings
) -> None:
    agent_id = await _agent(graph, settings, RECONCILE, 0.55)
    clock = FixedClock(ordinary_day_start())
    services = _services(settings, graph, clock, Reconciler())
    asked = await run_turn(services, agent_id, ChatRequest(message=REQUEST, speaker="Dana Fox"))
    assert asked.mode == "proposal" and asked.approval is not None
    waiting = await _only_task(graph, agent_id)
    assert waiting.state == "awaiting_input" and waiting.approval_id == asked.approval.id
    assert waiting.verb == "reconcile_accounts" and waiting.ended_at is None
    assert f"approval {asked.approval.id} waits" in waiting.history[-1].cause
    assert await _open_ids(graph, agent_id, clock) == [waiting.id]

    clock.advance(timedelta(minutes=20))
    await resume_approval(
        services, agent_id, asked.approval.id, ApprovalAnswer(action="approve", speaker="Dana Fox")
    )
    task = await _only_task(graph, agent_id)
    assert task.id == waiting.id
    assert [(m.state, m.at) for m in task.history] == [
        ("planning", clock.now() - timedelta(minutes=20)),
        ("awaiting_input", clock.now() - timedelta(minutes=20)),
        ("executing", clock.now()),
        ("completed", clock.now()),
    ]
    assert task.history[2].cause == "approved by Dana Fox"
    assert task.state == "completed" and task.ended_at == clock.now()
    assert await _open_ids(graph, agent_id, clock) == []


async def test_a_failed_execution_blocks_the_task(graph: GraphClient, settings: Settings) -> None:
    agent_id = await _agent(graph, settings, RECONCILE, 0.55)
    clock = FixedClock(ordinary_day_start())
    failing = Reconciler(error="the bank feed is unreachable")
    services = _services(settings, graph, clock, failing)
    asked = await run_turn(services, agent_id, ChatRequest(message=REQUEST))
    assert asked.approval is not None
    await resume_approval(services, agent_id, asked.approval.id, ApprovalAnswer(action="approve"))
    task = await _only_task(graph, agent_id)
    assert [m.state for m in task.history] == [
        "planning",
        "awaiting_input",
        "executing",
        "blocked",
    ]
    assert task.history[-1].cause == "the execution failed: the bank feed is unreachable"
    # Blocked work stays in view: it needs someone.
    assert task.state == "blocked" and task.ended_at is None
    assert await _open_ids(graph, agent_id, clock) == [task.id]


async def test_work_no_executor_can_run_is_blocked(graph: GraphClient, settings: Settings) -> None:
    agent_id = await _agent(graph, settings, RECONCILE, 0.55)
    clock = FixedClock(ordinary_day_start())
    services = _services(settings, graph, clock)
    asked = await run_turn(services, agent_id, ChatRequest(message=REQUEST))
    assert asked.approval is not None
    resumed = await resume_approval(
        services, agent_id, asked.approval.id, ApprovalAnswer(action="approve")
    )
    assert resumed.execution is not None
    assert resumed.execution.status == "recorded_not_executed"
    task = await _only_task(graph, agent_id)
    assert task.state == "blocked"
    assert task.history[-1].cause.startswith("nothing could run it: no executor is registered")


async def test_a_rejection_cancels_the_task(graph: GraphClient, settings: Settings) -> None:
    agent_id = await _agent(graph, settings, RECONCILE, 0.55)
    clock = FixedClock(ordinary_day_start())
    services = _services(settings, graph, clock, Reconciler())
    asked = await run_turn(services, agent_id, ChatRequest(message=REQUEST))
    assert asked.approval is not None
    answer = ApprovalAnswer(action="reject", text="Not this week.", speaker="Maria Lopez")
    await resume_approval(services, agent_id, asked.approval.id, answer)
    task = await _only_task(graph, agent_id)
    assert [m.state for m in task.history] == ["planning", "awaiting_input", "cancelled"]
    assert task.history[-1].cause == "rejected by Maria Lopez: Not this week."
    assert task.ended_at == clock.now()


async def test_a_turn_without_work_opens_no_task(graph: GraphClient, settings: Settings) -> None:
    agent_id = await _agent(graph, settings, RECONCILE, 0.55)
    clock = FixedClock(ordinary_day_start())
    turn = await run_turn(
        _services(settings, graph, clock),
        agent_id,
        ChatRequest(message="How are bank accounts reconciled?"),
    )
    assert turn.work_unit is None
    assert (await working_memory.list_tasks(graph, agent_id)).count == 0


async def test_an_answer_after_expiry_cancels_the_waiting_task(
    graph: GraphClient, settings: Settings
) -> None:
    clock = FixedClock(ordinary_day_start())
    # The approval's expiry is written and read on the same injected clock as the loop's.
    clocked = GraphClient.from_settings(settings.neo4j, clock=clock)
    try:
        agent_id = await _agent(clocked, settings, RECONCILE, 0.55)
        quick = settings.model_copy(update={"loop": LoopSettings(approval_ttl_hours=0.5)})
        services = _services(quick, clocked, clock, Reconciler())
        asked = await run_turn(services, agent_id, ChatRequest(message=REQUEST))
        assert asked.approval is not None
        clock.advance(timedelta(hours=1))
        for _ in range(2):
            with pytest.raises(ApprovalClosed):
                await resume_approval(
                    services, agent_id, asked.approval.id, ApprovalAnswer(action="approve")
                )
    finally:
        await clocked.close()
    task = await _only_task(graph, agent_id)
    # Cancelled once, at the clock's time, however many answers came late.
    assert [(m.state, m.at) for m in task.history][1:] == [
        ("awaiting_input", clock.now() - timedelta(hours=1)),
        ("cancelled", clock.now()),
    ]
    assert (
        task.history[-1].cause == f"approval {asked.approval.id} expired before anyone answered it"
    )


def test_the_cli_shows_tasks_with_their_transitions(agent: Agent, cli: CliRunner) -> None:
    agent.belief(RECONCILE, 0.55)
    asked = agent.chat(REQUEST)
    assert asked["approval"] is not None
    listed = cli.invoke(cli_app, ["memory", "tasks", "--agent", agent.id])
    assert listed.exit_code == 0, listed.output
    assert "tasks (1)" in listed.output and "reconcile_accounts planned" in listed.output
    assert "awaiting_input: proposal" in listed.output
    none_done = cli.invoke(cli_app, ["memory", "tasks", "-a", agent.id, "--state", "completed"])
    assert none_done.exit_code == 0 and "tasks (0)" in none_done.output
    shown = cli.invoke(cli_app, ["memory", "show", "--agent", agent.id])
    assert shown.exit_code == 0 and "awaiting_input" in shown.output, shown.output
    wrong = cli.invoke(cli_app, ["memory", "tasks", "-a", agent.id, "--state", "done"])
    assert wrong.exit_code != 0 and "not a task state" in wrong.output
