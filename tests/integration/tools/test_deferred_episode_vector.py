"""A tool call's episode is embedded after the answer (app/loop/turn.py, in the background): its
vector and the interference it brings are written as a turn embedded at once writes them, and a
closing runtime waits for them (real Neo4j, real mcp-server-time, offline reasoner)."""

from __future__ import annotations

from app.agents.models import AgentCreate
from app.agents.store import create_agent, delete_agent
from app.clock import Clock
from app.config import Settings
from app.graph.client import GraphClient
from app.loop.models import ChatRequest
from app.loop.turn import run_turn, settle_background
from app.runtime import Runtime
from app.tools.connections import add_connection
from app.tools.models import ConnectionCreate
from tests.integration.tools.conftest import TIME_SERVER, tool_settings

CALL = 'call clock.get_current_time {"timezone": "UTC"}'


async def test_a_tool_calls_episode_gets_its_vector_and_interference_after_the_answer(
    settings: Settings, clock: Clock, graph: GraphClient, test_graph: GraphClient
) -> None:
    runtime = Runtime.open(tool_settings(settings, initial_strength=0.8), clock=clock)
    agent = await create_agent(runtime.graph, AgentCreate(name="Deferred vectors"))
    try:
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
        first = await run_turn(runtime.loop, agent.id, ChatRequest(message=CALL))
        assert first.mode == "autonomous" and first.execution is not None
        assert first.execution.status == "executed"
        await settle_background()
        second = await run_turn(runtime.loop, agent.id, ChatRequest(message=CALL))
        assert second.execution is not None and second.execution.status == "executed"
    finally:
        # Closing waits for the second episode's vector (deferred past its turn).
        await runtime.aclose()
    try:
        rows = await test_graph.read(
            "probe/episode_vectors",
            agent_id=agent.id,
            ids=[first.turn_id, second.turn_id],
        )
        assert [(row["has_vector"], row["scheme"]) for row in rows] == [(True, 2), (True, 2)]
        # The same call twice: the older episode suffers the interference of the newer one,
        # counted when the newer one got its vector.
        assert [row["interference"] for row in rows] == [1, 0]
    finally:
        await delete_agent(graph, agent.id, default_agent_name="", force=True)
