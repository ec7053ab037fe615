"""A tool call's memory is written right after its answer (app/loop/call_memory.py, in the
background): its episode joined to the call's records, what the outcome teaches, the episode's
vector and the interference it brings (as a turn embedded at once writes them). A closing runtime
waits for it, the agent's next turn reads it. A call recorded while it ran (the default) is
completed by its memory, and one a stopped process left running is marked interrupted by a later
one; with ``tools.outcome_before_answer`` a memory a stopped process left is written once by the
next one (real Neo4j, real mcp-server-time, offline reasoner)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest

from app.agents.models import AgentCreate
from app.agents.store import create_agent, delete_agent
from app.clock import Clock
from app.config import Settings
from app.errors import CredenceError, InvalidInput, TurnFailed
from app.graph.client import GraphClient
from app.loop import call_memory as call_memory_module
from app.loop import call_record as call_record_module
from app.loop import turn as turn_module
from app.loop.background import settle_background
from app.loop.call_memory import (
    INTERRUPTED,
    INTERRUPTED_AFTER_RUN,
    CallCompletion,
    interrupt_stale_calls,
    remember_call,
    remember_pending_calls,
)
from app.loop.models import ChatRequest, TurnEvent, TurnResult
from app.loop.services import LoopServices
from app.loop.sessions import reflect_if_due  # the function turn.py calls, patched there
from app.loop.turn import run_turn
from app.memory.people.store import find_person
from app.memory.working_memory import list_tasks
from app.runtime import Runtime
from app.tools.actions import list_actions
from app.tools.connections import add_connection
from app.tools.models import ActionPublic, ConnectionCreate
from tests.integration.tools.conftest import TIME_SERVER, ToolAgent, tool_settings

CALL = 'call clock.get_current_time {"timezone": "UTC"}'


async def _clock_agent(runtime: Runtime, settings: Settings, clock: Clock, name: str) -> str:
    agent = await create_agent(runtime.graph, AgentCreate(name=name))
    await add_connection(
        runtime.graph,
        runtime.mcp_clients,
        runtime.loop.embedder,
        settings.mechanics,
        runtime.settings.tools,
        agent.id,
        ConnectionCreate(name="clock", transport="stdio", command=str(TIME_SERVER)),
        now=clock.now(),
    )
    return agent.id


@pytest.fixture
async def clock_call(
    settings: Settings, clock: Clock, graph: GraphClient
) -> AsyncIterator[tuple[Runtime, str]]:
    """A runtime of its own and a new agent connected to mcp-server-time, whose belief about the
    tool (0.8) lets every call run; closed and deleted after the test."""
    runtime = Runtime.open(tool_settings(settings, initial_strength=0.8), clock=clock)
    agent_id = await _clock_agent(runtime, settings, clock, "Tool call memory")
    try:
        yield runtime, agent_id
    finally:
        await runtime.aclose()
        await delete_agent(graph, agent_id, default_agent_name="", force=True)


async def test_a_tool_calls_episode_gets_its_vector_and_interference_after_the_answer(
    settings: Settings, clock: Clock, graph: GraphClient, test_graph: GraphClient
) -> None:
    runtime = Runtime.open(tool_settings(settings, initial_strength=0.8), clock=clock)
    agent_id = await _clock_agent(runtime, settings, clock, "Deferred vectors")
    try:
        first = await run_turn(runtime.loop, agent_id, ChatRequest(message=CALL))
        assert first.mode == "autonomous" and first.execution is not None
        assert first.execution.status == "executed"
        await settle_background()
        second = await run_turn(runtime.loop, agent_id, ChatRequest(message=CALL))
        assert second.execution is not None and second.execution.status == "executed"
    finally:
        # Closing waits for the second episode's vector (deferred past its turn).
        await runtime.aclose()
    try:
        rows = await test_graph.read(
            "probe/episode_vectors",
            agent_id=agent_id,
            ids=[first.turn_id, second.turn_id],
        )
        assert [(row["has_vector"], row["scheme"]) for row in rows] == [(True, 2), (True, 2)]
        # The same call twice: the older episode suffers the interference of the newer one,
        # counted when the newer one got its vector.
        assert [row["interference"] for row in rows] == [1, 0]
    finally:
        await delete_agent(graph, agent_id, default_agent_name="", force=True)


async def test_a_calls_memory_is_its_episode_and_what_its_outcome_taught(
    clock_call: tuple[Runtime, str], test_graph: GraphClient
) -> None:
    runtime, agent_id = clock_call
    first = await run_turn(runtime.loop, agent_id, ChatRequest(message=CALL))
    # The next turn waits for the first call's memory: it routes on what it taught.
    second = await run_turn(runtime.loop, agent_id, ChatRequest(message=CALL))
    await settle_background()
    assert first.relevant_belief is not None and second.relevant_belief is not None
    assert second.relevant_belief.strength > first.relevant_belief.strength
    assert first.action_id is not None
    rows = await test_graph.read("probe/call_memory", agent_id=agent_id, action_id=first.action_id)
    memory = rows[0]
    assert memory["pending"] is False
    assert memory["action_episode"] == memory["decision_episode"] == first.turn_id
    assert [belief["id"] for belief in memory["moved"]] == [first.relevant_belief.id]
    assert memory["experience"] == 2
    # Recorded while it ran, completed by its memory (when the answer was made).
    assert memory["status"] == "succeeded" and memory["decision_outcome"] == "success"
    action = next(
        a for a in (await list_actions(runtime.graph, agent_id)).data if a.id == first.action_id
    )
    assert action.created_at is not None and action.completed_at is not None
    assert action.completed_at > action.created_at


async def test_a_call_that_asks_no_one_opens_its_task_and_teaches_about_its_speaker(
    clock_call: tuple[Runtime, str],
) -> None:
    # As a chat turn's work would: the call's task in working memory, with its states, and the
    # speaker's user model (the goal of the request, the way of working that succeeded).
    runtime, agent_id = clock_call
    ran = await run_turn(runtime.loop, agent_id, ChatRequest(message=CALL, speaker="Dana"))
    bad = 'call clock.get_current_time {"timezone": "Mars/Olympus_Mons"}'
    failed = await run_turn(runtime.loop, agent_id, ChatRequest(message=bad, speaker="Dana"))
    await settle_background()

    assert ran.execution is not None and ran.execution.status == "executed"
    assert failed.execution is not None and failed.execution.status == "failed"
    tasks = (await list_tasks(runtime.graph, agent_id)).data
    assert len(tasks) == 2
    blocked, done = tasks  # newest first
    assert [move.state for move in done.history] == ["planning", "executing", "completed"]
    assert done.verb == "call_tool" and done.approval_id is None
    assert done.started_at == done.ended_at  # at the call's time, not the memory's write
    assert [move.state for move in blocked.history] == ["planning", "executing", "blocked"]
    assert "Mars/Olympus_Mons" in blocked.history[-1].cause
    dana = await find_person(runtime.graph, agent_id, "Dana")
    assert dana is not None and dana.interaction_count == 2
    assert [(p.frame, p.mode, p.verb) for p in dana.successful_patterns] == [
        (ran.frame, "autonomous", "call_tool")
    ]
    # Each call is a goal of its own (its arguments differ), newest first.
    assert [g.verb for g in dana.inferred_goals] == ["call_tool", "call_tool"]
    assert "Mars/Olympus_Mons" in dana.inferred_goals[0].goal


async def test_a_call_a_stopped_process_left_running_is_interrupted_by_a_later_one(
    settings: Settings,
    clock: Clock,
    graph: GraphClient,
    test_graph: GraphClient,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stopped = Runtime.open(tool_settings(settings, initial_strength=0.8), clock=clock)
    agent_id = await _clock_agent(stopped, settings, clock, "Call left running")
    handed: list[CallCompletion | None] = []

    def stops_first(
        services: LoopServices, agent_id: str, action_id: str, completion: CallCompletion | None
    ) -> None:
        # The process stops between the call's answer and its memory.
        handed.append(completion)

    monkeypatch.setattr(turn_module, "remember_in_background", stops_first)
    try:
        turn = await run_turn(stopped.loop, agent_id, ChatRequest(message=CALL))
    finally:
        await stopped.aclose()
    assert turn.action_id is not None and turn.execution is not None
    assert turn.execution.status == "executed"
    left = await test_graph.read("probe/call_memory", agent_id=agent_id, action_id=turn.action_id)
    # Its record was written before the answer; what came of it was not.
    assert left[0]["status"] == "running" and left[0]["decision_outcome"] == "running"
    assert left[0]["moved"] == [] and left[0]["experience"] == 0
    assert left[0]["pending"] is False

    monkeypatch.undo()
    runtime = Runtime.open(tool_settings(settings, initial_strength=0.8), clock=clock)
    try:
        # A process starting while the call may still run elsewhere leaves it alone.
        assert await interrupt_stale_calls(runtime.loop, clock.now(), agent_id) == 0
        rows = await test_graph.read(
            "probe/call_memory", agent_id=agent_id, action_id=turn.action_id
        )
        assert rows[0]["status"] == "running"
        # One starting after any call could have ended marks it interrupted; nothing is learned.
        later = clock.now() + timedelta(minutes=8)
        assert await interrupt_stale_calls(runtime.loop, later, agent_id) == 1
        rows = await test_graph.read(
            "probe/call_memory", agent_id=agent_id, action_id=turn.action_id
        )
        assert rows[0]["status"] == "interrupted" and rows[0]["result"] == INTERRUPTED
        assert rows[0]["decision_outcome"] == "neutral"
        assert rows[0]["moved"] == [] and rows[0]["experience"] == 0
        # What came of the call, handed over too late, is not written over the interruption.
        assert len(handed) == 1 and handed[0] is not None
        assert await remember_call(runtime.loop, agent_id, turn.action_id, handed[0]) is False
        rows = await test_graph.read(
            "probe/call_memory", agent_id=agent_id, action_id=turn.action_id
        )
        assert rows[0]["status"] == "interrupted" and rows[0]["experience"] == 0
        listed = await list_actions(runtime.graph, agent_id, status="interrupted")
        assert [action.id for action in listed.data] == [turn.action_id]
    finally:
        await runtime.aclose()
        await delete_agent(graph, agent_id, default_agent_name="", force=True)


async def _call_whose_judgement_fails(
    clock_call: tuple[Runtime, str],
    test_graph: GraphClient,
    monkeypatch: pytest.MonkeyPatch,
    judgement: str,
) -> tuple[ActionPublic, dict[str, Any]]:
    """A call's turn whose reasoner raises in ``judgement`` (its record already sent): the one
    Action it left, and what the probe reads of it."""
    runtime, agent_id = clock_call

    async def fails(*_: object) -> object:
        raise RuntimeError(f"the {judgement} broke")

    monkeypatch.setattr(runtime.loop.reasoner, judgement, fails)
    with pytest.raises(TurnFailed):
        await run_turn(runtime.loop, agent_id, ChatRequest(message=CALL))
    listed = await list_actions(runtime.graph, agent_id)
    assert len(listed.data) == 1
    action = listed.data[0]
    rows = await test_graph.read("probe/call_memory", agent_id=agent_id, action_id=action.id)
    return action, rows[0]


async def test_a_call_whose_answer_fails_keeps_what_came_of_it_and_teaches_nothing(
    clock_call: tuple[Runtime, str],
    test_graph: GraphClient,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    action, probe = await _call_whose_judgement_fails(
        clock_call, test_graph, monkeypatch, "respond"
    )
    # The tool ran and was verified before the answer failed: that is what the Action says.
    assert action.status == "succeeded" and action.completed_at is not None
    assert action.result is not None and "UTC" in action.result
    assert probe["decision_outcome"] == "success"
    assert probe["moved"] == [] and probe["experience"] == 0
    assert probe["action_episode"] is None


async def test_a_call_whose_verification_fails_is_interrupted(
    clock_call: tuple[Runtime, str],
    test_graph: GraphClient,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    action, probe = await _call_whose_judgement_fails(clock_call, test_graph, monkeypatch, "verify")
    assert action.status == "interrupted" and action.completed_at is not None
    # The tool ran before its verification failed: the Action says so, with what it answered.
    assert action.result is not None and action.result.startswith(INTERRUPTED_AFTER_RUN)
    assert "the verify broke" in action.result and "UTC" in action.result
    assert probe["decision_outcome"] == "neutral" and probe["experience"] == 0


async def test_a_call_whose_listener_fails_after_the_answer_loses_nothing(
    clock_call: tuple[Runtime, str], test_graph: GraphClient
) -> None:
    runtime, agent_id = clock_call

    async def hangs_up(event: TurnEvent) -> None:
        if event.type == "response":
            raise ConnectionError("the websocket closed")

    with pytest.raises(ConnectionError):
        await run_turn(runtime.loop, agent_id, ChatRequest(message=CALL), hangs_up)
    await settle_background()
    listed = await list_actions(runtime.graph, agent_id)
    assert [action.status for action in listed.data] == ["succeeded"]
    rows = await test_graph.read(
        "probe/call_memory", agent_id=agent_id, action_id=listed.data[0].id
    )
    assert rows[0]["action_episode"] is not None and rows[0]["experience"] == 1


async def test_a_memory_that_fails_to_be_written_is_left_for_the_next_start(
    clock_call: tuple[Runtime, str],
    test_graph: GraphClient,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    runtime, agent_id = clock_call

    async def breaks(*_: object) -> dict[str, str]:
        raise CredenceError("the memory's write broke")

    monkeypatch.setattr(call_memory_module, "_write_memory", breaks)
    turn = await run_turn(runtime.loop, agent_id, ChatRequest(message=CALL))
    await settle_background()  # the failure is logged, not raised
    assert turn.action_id is not None
    left = await test_graph.read("probe/call_memory", agent_id=agent_id, action_id=turn.action_id)
    # What came of the call is written; its memory waits on the Action.
    assert left[0]["status"] == "succeeded" and left[0]["pending"] is True
    assert left[0]["action_episode"] is None and left[0]["experience"] == 0
    monkeypatch.undo()
    assert await remember_call(runtime.loop, agent_id, turn.action_id) is True
    rows = await test_graph.read("probe/call_memory", agent_id=agent_id, action_id=turn.action_id)
    assert rows[0]["pending"] is False and rows[0]["experience"] == 1
    assert rows[0]["action_episode"] == turn.turn_id


async def _calls_a_stop_left(
    settings: Settings, clock: Clock, monkeypatch: pytest.MonkeyPatch, name: str, count: int
) -> tuple[Settings, str, list[TurnResult]]:
    """``count`` calls by a new agent of a process that stops between each call's answer and its
    memory (``tools.outcome_before_answer``: the outcome recorded, the memory left on the
    Action): the settings, the agent and the turns."""
    durable = tool_settings(settings, initial_strength=0.8, outcome_before_answer=True)
    stopped = Runtime.open(durable, clock=clock)
    agent_id = await _clock_agent(stopped, settings, clock, name)
    with monkeypatch.context() as patched:
        patched.setattr(turn_module, "remember_in_background", lambda *_: None)
        try:
            turns = [
                await run_turn(stopped.loop, agent_id, ChatRequest(message=CALL))
                for _ in range(count)
            ]
        finally:
            await stopped.aclose()
    return durable, agent_id, turns


async def test_a_memory_a_stopped_process_left_is_written_once_by_the_next(
    settings: Settings,
    clock: Clock,
    graph: GraphClient,
    test_graph: GraphClient,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With ``tools.outcome_before_answer`` the call's outcome is recorded before its answer,
    and its memory left on the Action."""
    durable, agent_id, [turn] = await _calls_a_stop_left(
        settings, clock, monkeypatch, "Call memory after a stop", 1
    )
    assert turn.action_id is not None and turn.execution is not None
    left = await test_graph.read("probe/call_memory", agent_id=agent_id, action_id=turn.action_id)
    assert left[0]["pending"] is True
    assert left[0]["action_episode"] is None and left[0]["experience"] == 0
    before = left[0]["moved"][0]["held"]

    assert left[0]["status"] == "succeeded" and left[0]["decision_outcome"] == "success"

    runtime = Runtime.open(durable, clock=clock)
    try:
        assert await remember_pending_calls(runtime.loop) >= 1
        # Claimed by the transaction that wrote it: never written twice.
        assert await remember_call(runtime.loop, agent_id, turn.action_id) is False
        rows = await test_graph.read(
            "probe/call_memory", agent_id=agent_id, action_id=turn.action_id
        )
        assert rows[0]["pending"] is False
        assert rows[0]["action_episode"] == turn.turn_id
        assert rows[0]["moved"][0]["held"] > before
        assert rows[0]["experience"] == 1
        vectors = await test_graph.read(
            "probe/episode_vectors", agent_id=agent_id, ids=[turn.turn_id]
        )
        assert vectors[0]["has_vector"] is True
    finally:
        await runtime.aclose()
        await delete_agent(graph, agent_id, default_agent_name="", force=True)


async def test_a_memory_that_cannot_be_written_does_not_hold_back_the_others(
    settings: Settings,
    clock: Clock,
    graph: GraphClient,
    test_graph: GraphClient,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At start, one pending memory that fails (a review's: a speaker the people model refused)
    stopped every later one from being written, at every start. Now it stays pending alone."""
    durable, agent_id, [first, second] = await _calls_a_stop_left(
        settings, clock, monkeypatch, "Two memories after a stop", 2
    )
    remember = call_memory_module.remember_call

    async def failing_first(services: LoopServices, agent: str, action_id: str) -> bool:
        if action_id == first.action_id:
            raise InvalidInput("this memory cannot be written")
        return await remember(services, agent, action_id)

    monkeypatch.setattr(call_memory_module, "remember_call", failing_first)
    runtime = Runtime.open(durable, clock=clock)
    try:
        assert await remember_pending_calls(runtime.loop) >= 1
        for turn, pending in ((first, True), (second, False)):
            rows = await test_graph.read(
                "probe/call_memory", agent_id=agent_id, action_id=turn.action_id
            )
            assert rows[0]["pending"] is pending
    finally:
        await runtime.aclose()
        await delete_agent(graph, agent_id, default_agent_name="", force=True)


def test_a_request_about_the_agent_right_after_a_call_reads_its_memory(agent: ToolAgent) -> None:
    """Over REST: the call's episode is written after the answer, and a request about the agent
    waits for it (in this process), so it is there at once."""
    agent.post(
        "/connections",
        {"name": "clock", "transport": "stdio", "command": str(TIME_SERVER)},
        expect=201,
    )
    for _ in range(3):
        turn = agent.call("clock", "get_current_time", {"timezone": "UTC"})
        episode = agent.get(f"/episodes/{turn['turn_id']}")
        assert episode["id"] == turn["turn_id"]
        assert episode["response"] == turn["response"]


async def test_a_calls_record_run_again_after_a_lost_connection_writes_nothing_more(
    clock_call: tuple[Runtime, str], test_graph: GraphClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A query run alone is retried when the connection is lost, and the first run may have
    # committed before its answer was lost: the record's second run must not fail on the ids
    # the first one created, nor write the call again.
    runtime, agent_id = clock_call
    graph = runtime.graph
    sent: list[dict[str, Any]] = []
    write_alone = graph.write_alone

    async def kept(name: str, **params: Any) -> Any:
        if name == "loop/tool_turns/record_call":
            sent.append(params)
        return await write_alone(name, **params)

    monkeypatch.setattr(graph, "write_alone", kept)
    result = await run_turn(runtime.loop, agent_id, ChatRequest(message=CALL))
    await settle_background()
    assert len(sent) == 1 and result.action_id is not None
    nodes = (await test_graph.read("probe/count_agent_nodes", agent_id=agent_id))[0]["nodes"]
    rows = await write_alone("loop/tool_turns/record_call", **sent[0])
    assert rows == [{"decision_id": result.decision_id, "action_id": result.action_id}]
    assert (await test_graph.read("probe/count_agent_nodes", agent_id=agent_id))[0]["nodes"] == (
        nodes
    )
    # What came of the call (written after the answer) is not taken back to ``running``.
    memory = await test_graph.read(
        "probe/call_memory", agent_id=agent_id, action_id=result.action_id
    )
    assert memory[0]["status"] == "succeeded" and memory[0]["decision_outcome"] == "success"


@pytest.mark.parametrize("outcome_before_answer", [False, True])
async def test_a_call_whose_turn_is_cancelled_while_its_record_is_written_loses_nothing(
    clock_call: tuple[Runtime, str],
    test_graph: GraphClient,
    monkeypatch: pytest.MonkeyPatch,
    outcome_before_answer: bool,
) -> None:
    # The client goes away after the call ran and its answer was made, while the record is
    # still being written (beside the call, or after it with ``outcome_before_answer``): the
    # record is not cancelled with the turn, and the call's memory follows it in the background.
    runtime, agent_id = clock_call
    tools = runtime.settings.tools.model_copy(
        update={"outcome_before_answer": outcome_before_answer}
    )
    services = replace(runtime.loop, settings=runtime.settings.model_copy(update={"tools": tools}))
    graph = runtime.graph
    write_alone = graph.write_alone
    answered, release = asyncio.Event(), asyncio.Event()

    async def slow_record(name: str, **params: Any) -> Any:
        if name == "loop/tool_turns/record_call":
            await release.wait()
        return await write_alone(name, **params)

    answer = call_record_module._answer

    async def answered_then(*args: Any) -> Any:
        reply = await answer(*args)
        answered.set()
        return reply

    monkeypatch.setattr(graph, "write_alone", slow_record)
    monkeypatch.setattr(call_record_module, "_answer", answered_then)
    turn = asyncio.ensure_future(run_turn(services, agent_id, ChatRequest(message=CALL)))
    await answered.wait()
    await asyncio.sleep(0.05)  # the turn waits for its record now
    turn.cancel()
    with pytest.raises(asyncio.CancelledError):
        await turn
    release.set()
    await settle_background()
    listed = await list_actions(graph, agent_id)
    assert [action.status for action in listed.data] == ["succeeded"]
    rows = await test_graph.read(
        "probe/call_memory", agent_id=agent_id, action_id=listed.data[0].id
    )
    assert rows[0]["pending"] is False and rows[0]["action_episode"] is not None
    assert rows[0]["decision_outcome"] == "success" and rows[0]["experience"] == 1


async def test_the_reflection_check_after_a_call_counts_the_calls_episode(
    clock_call: tuple[Runtime, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A call's episode is written after its answer, in the background: the check whether
    # reflection is due, after the turn, waits for it, so the count includes it.
    runtime, agent_id = clock_call
    counted: list[int] = []
    checked = asyncio.Event()

    async def counting(*args: Any) -> Any:
        report = await reflect_if_due(*args)
        counted.append(report.open_episodes)
        checked.set()
        return report

    monkeypatch.setattr(turn_module, "reflect_if_due", counting)
    for _ in range(2):
        checked.clear()
        await run_turn(runtime.loop, agent_id, ChatRequest(message=CALL))
        await checked.wait()
    assert counted == [1, 2]
