"""docs/graph-model.md §5: every write to an agent's graph takes the agent's lock first. The writes
that settle a tool call on their own (what came of it when its memory's transaction failed, its
interruption when its turn failed, the sweep of calls a stopped process left running) take it,
one agent at a time for the sweep of every agent's calls, and write nothing to an agent whose
deletion has begun (real Neo4j, real mcp-server-time, offline reasoner).

The calls are made on a clock of their own, years before the suite's, so the sweep of every
agent's calls made here reaches no other test's calls (it marks those started before its time).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app.agents.models import AgentCreate
from app.agents.store import create_agent, delete_agent
from app.clock import FixedClock
from app.config import Settings
from app.graph.client import GraphClient
from app.loop import turn as turn_module
from app.loop.background import settle_all_background
from app.loop.call_memory import INTERRUPTED, CallCompletion, interrupt_stale_calls, leave_for_later
from app.loop.models import ChatRequest
from app.loop.turn import run_turn
from app.runtime import Runtime
from app.tools.connections import add_connection
from app.tools.models import ConnectionCreate
from tests.integration.tools.conftest import TIME_SERVER, tool_settings

CALL = 'call clock.get_current_time {"timezone": "UTC"}'
CALLS_MADE_AT = datetime(2019, 3, 12, 10, 0, tzinfo=UTC)

# (action id, what came of the call) of each call a stopped process left running.
LeftRunning = list[tuple[str, CallCompletion]]


async def _calls_left_running(
    settings: Settings, clock: FixedClock, monkeypatch: pytest.MonkeyPatch, name: str, count: int
) -> tuple[str, LeftRunning]:
    """A new agent connected to mcp-server-time and ``count`` calls it made in a process that
    stopped between each call's answer and what came of it (each Action left ``running``)."""
    stopped = Runtime.open(tool_settings(settings, initial_strength=0.8), clock=clock)
    left: LeftRunning = []
    try:
        agent_id = (await create_agent(stopped.graph, AgentCreate(name=name))).id
        await add_connection(
            stopped.graph,
            stopped.mcp_clients,
            stopped.loop.embedder,
            settings.mechanics,
            stopped.settings.tools,
            agent_id,
            ConnectionCreate(name="clock", transport="stdio", command=str(TIME_SERVER)),
            now=clock.now(),
        )
        with monkeypatch.context() as patched:
            patched.setattr(
                turn_module,
                "remember_in_background",
                lambda _services, _agent, action_id, completion: left.append(
                    (action_id, completion)
                ),
            )
            for _ in range(count):
                await run_turn(stopped.loop, agent_id, ChatRequest(message=CALL))
            await settle_all_background()  # the turns' aftermath, before the process "stops"
    finally:
        await stopped.aclose()
    assert len(left) == count
    return agent_id, left


async def test_settling_a_call_alone_takes_the_agents_lock_and_spares_an_agent_being_deleted(
    settings: Settings,
    graph: GraphClient,
    test_graph: GraphClient,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = FixedClock(CALLS_MADE_AT)
    kept, calls = await _calls_left_running(settings, clock, monkeypatch, "Calls settled", 3)
    gone, gone_calls = await _calls_left_running(
        settings, clock, monkeypatch, "Calls of an agent being deleted", 1
    )
    runtime = Runtime.open(tool_settings(settings, initial_strength=0.8), clock=clock)

    async def lock_count() -> int:
        [row] = await test_graph.read("scheduler/get_agent_lock", agent_id=kept)
        return int(row["write_count"])

    async def action(agent_id: str, action_id: str) -> tuple[str, bool]:
        [row] = await test_graph.read("probe/call_memory", agent_id=agent_id, action_id=action_id)
        return str(row["status"]), bool(row["pending"])

    try:
        before = await lock_count()
        # What came of a call whose memory could not be written, written alone.
        completed, completion = calls[0]
        await leave_for_later(runtime.loop, kept, completion)
        assert await action(kept, completed) == ("succeeded", True)
        assert await lock_count() == before + 1
        # A call whose turn failed before its verification (app/loop/call_record.py).
        interrupted = calls[1][0]
        await runtime.graph.write_alone(
            "loop/tool_turns/interrupt_call",
            agent_id=kept,
            action_id=interrupted,
            now=clock.now(),
            why="interrupted: the verify broke",
        )
        assert await action(kept, interrupted) == ("interrupted", False)
        assert await lock_count() == before + 2

        await graph.write("agents/store/lock_agent_for_deletion", agent_id=gone)
        later = clock.now() + timedelta(minutes=8)
        # Every agent's sweep: each agent's calls under its own lock, none of the agent being
        # deleted (its deletion takes them).
        assert await interrupt_stale_calls(runtime.loop, later) >= 1
        assert await action(kept, calls[2][0]) == ("interrupted", False)
        assert await lock_count() == before + 3
        gone_action, gone_completion = gone_calls[0]
        assert await action(gone, gone_action) == ("running", False)
        # Nor do the other writes touch it.
        assert await interrupt_stale_calls(runtime.loop, later, gone) == 0
        await leave_for_later(runtime.loop, gone, gone_completion)
        assert (
            await runtime.graph.write_alone(
                "loop/tool_turns/interrupt_call",
                agent_id=gone,
                action_id=gone_action,
                now=later,
                why=INTERRUPTED,
            )
            == []
        )
        assert await action(gone, gone_action) == ("running", False)
    finally:
        await runtime.aclose()
        for agent_id in (kept, gone):
            await delete_agent(graph, agent_id, default_agent_name="", force=True)
