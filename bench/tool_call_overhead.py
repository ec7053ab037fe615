"""Credence's own overhead per tool call (issue 25): a trivial tool (mcp-server-time's
``get_current_time``, read-only) called through the whole path — a turn of the loop
(activation, appraisal, the guardian on the call and each argument, supervision on the tool's
belief, the executor, verification, the answer, and the call's record: its decision and Action
node, one write query with the agent's lock) — against the server's own time for the same
call (the executor's measured round trip, which includes the MCP client's JSON-RPC over stdio).

In process, offline reasoner, real Neo4j (CREDENCE_NEO4J_* as usual), a new agent whose
belief about the tool starts at 0.8 so every call runs autonomously; deleted at the end.

    .venv/bin/python bench/tool_call_overhead.py            # 200 calls after 10 warm-up calls
    .venv/bin/python bench/tool_call_overhead.py --calls 50
    .venv/bin/python bench/tool_call_overhead.py --loop asyncio   # not the server's loop

The turns run on uvloop, the event loop `credence serve` runs on (uvicorn takes it when it is
installed, and `uvicorn[standard]` installs it); ``--loop asyncio`` runs them on asyncio's own.

First, the headline: 200 call turns one after the other, as a client calling the tool in a loop
makes them (each turn's memory, written after its answer, awaited before the next turn and timed
apart), each followed by the same call made without Credence (McpClients.call: the server's own
time under the same load), and the turn's time beyond that raw call.

Then, alternating turn by turn so that all see the same load: the raw MCP round trip of the same
call without Credence, 200 times before the turns and once right after each measured turn, and
the turn's time beyond that raw call (the executor's round trip also holds what the process did
while it waited, such as the call's record, written while the call runs); the same turns with
the whole retrieval of an ordinary turn (``full``: beliefs, episodes, rules and working memory,
which a tool call does not need), and the same call with its outcome recorded before its answer
(``tools.outcome_before_answer``: the call run first, then its record), each alternating with
the measured turns so all see the same load; what a turn without tools pays for the tool route
(parsing a message that is not a call, and looking up the agent's tools: a cached dictionary
look-up, a graph read at most every 5 s); the graph round trips of one call's turn (reads,
writes run alone, queries inside a transaction) and of the call's memory, written after the
answer (its episode, the outcome on the tool's belief and the capability, D's sample, the
episode's vector: app/loop/call_memory.py), timed apart; and the floor: the smallest write a
turn can make (taking the agent's lock: one query, its own transaction) and one trivial read,
and the turn's own two queries (its start read and its record's write, run again alone with the
same parameters: the graph work no call can skip), timed right after each measured turn so they
see the same load. Reflection is left out of these turns (``reflect_every_episodes`` set out of
reach): it runs after the answer, in the background.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
import timeit
import uuid
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path

import neo4j
import uvloop

from app.agents.models import AgentCreate
from app.agents.store import create_agent, delete_agent
from app.config import Settings
from app.graph import client as graph_client
from app.loop import turn as turn_module
from app.loop.activation import Activation, activate
from app.loop.background import settle_background
from app.loop.models import ChatRequest
from app.loop.recording import TurnRecorder, silent
from app.loop.services import LoopServices
from app.loop.tool_activation import activate_tool_call
from app.loop.tool_routing import route_to_tool
from app.loop.tool_turns import focus_on_tool
from app.loop.turn import run_turn
from app.reasoning.protocol import ToolCall
from app.reasoning.settings import ReasonerSettings
from app.runtime import Runtime
from app.tools.calls import parse_tool_call
from app.tools.clients import McpClients, ServerSpec
from app.tools.connections import add_connection, connection_row, spec_for
from app.tools.models import ConnectionCreate

# The queries of the turn whose round trips are counted, in order ("read ..." for a read).
NAMES: list[str] = []
# The parameters each query run alone was last given (the turn's own queries are replayed).
PARAMS: dict[str, dict[str, object]] = {}
START, RECORD = "loop/activation/get_tool_call_start", "loop/tool_turns/record_call"
CALL = 'call clock.get_current_time {"timezone": "UTC"}'


def _quantiles(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"p50 {statistics.median(ordered):7.2f} ms   p95 {p95:7.2f} ms"


async def main(calls: int) -> None:
    base = Settings(reasoner=ReasonerSettings(provider="offline"))
    settings = base.model_copy(
        update={
            "tools": base.tools.model_copy(update={"initial_strength": 0.8}),
            "loop": base.loop.model_copy(update={"reflect_every_episodes": 10**9}),
        }
    )
    runtime = Runtime.open(settings)
    graph, clients, services = runtime.graph, runtime.mcp_clients, runtime.loop
    agent = await create_agent(graph, AgentCreate(name="bench-tool-call-overhead"))
    try:
        server = str(Path(sys.executable).parent / "mcp-server-time")
        await add_connection(
            graph,
            clients,
            services.embedder,
            settings.mechanics,
            settings.tools,
            agent.id,
            ConnectionCreate(name="clock", transport="stdio", command=server),
            now=runtime.clock.now(),
        )
        spec = spec_for(
            clients, agent.id, (await connection_row(graph, agent.id, "clock"))["connection"]
        )
        raw: list[float] = []
        for _ in range(calls):
            started = time.perf_counter()
            await clients.call(spec, "get_current_time", {"timezone": "UTC"})
            raw.append((time.perf_counter() - started) * 1000)
        series = await _consecutive_calls(services, clients, spec, agent.id, calls)
        totals, servers, overheads, full_overheads, floors, afters = [], [], [], [], [], []
        reads: list[float] = []
        raw_after: list[float] = []
        beyond_raw: list[float] = []
        own: list[float] = []
        cpus: list[float] = []
        phases: dict[str, list[float]] = {}
        trips = _count_round_trips()
        # The same call with its outcome recorded before its answer (the order before run L).
        durable = replace(
            services,
            settings=settings.model_copy(
                update={"tools": settings.tools.model_copy(update={"outcome_before_answer": True})}
            ),
        )
        durable_totals: list[float] = []
        durable_beyond: list[float] = []
        for index in range(10 + 3 * calls):
            full, before = index % 3 == 1, index % 3 == 2
            _activate_calls_with(_full_activation if full else activate_tool_call)
            started, cpu = time.perf_counter(), time.process_time()
            result = await run_turn(
                durable if before else services, agent.id, ChatRequest(message=CALL)
            )
            total = (time.perf_counter() - started) * 1000
            cpu_ms = (time.process_time() - cpu) * 1000
            # The work the turn left for after its answer (the call's memory), timed apart:
            # it runs while the caller reads the answer, not before the next call's turn.
            started = time.perf_counter()
            await settle_background()
            after_ms = (time.perf_counter() - started) * 1000
            assert result.mode == "autonomous" and result.execution is not None, result.mode
            assert result.execution.status == "executed", result.execution
            if index < 10:
                continue
            server_ms = float(result.execution.output["duration_ms"])
            if full:
                full_overheads.append(total - server_ms)
                continue
            started = time.perf_counter()
            await clients.call(spec, "get_current_time", {"timezone": "UTC"})
            raw_ms = (time.perf_counter() - started) * 1000
            if before:
                durable_totals.append(total)
                durable_beyond.append(total - raw_ms)
                continue
            totals.append(total)
            afters.append(after_ms)
            cpus.append(cpu_ms)
            servers.append(server_ms)
            overheads.append(total - server_ms)
            # The server's own time measured apart, under the same load: the same call made
            # right after the turn without Credence (the executor's round trip above also
            # holds whatever this process did meanwhile, such as the record's write).
            raw_after.append(raw_ms)
            beyond_raw.append(total - raw_ms)
            started = time.perf_counter()
            await graph.write_alone("graph/agent_scope/lock_agent", agent_id=agent.id)
            floors.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            await graph.read("graph/agent_scope/agent_exists", agent_id=agent.id)
            reads.append((time.perf_counter() - started) * 1000)
            own.append(await _own_queries(graph))
            for phase, ms in result.timings_ms.items():
                phases.setdefault(phase, []).append(ms)
        _activate_calls_with(activate_tool_call)
        trips.clear()
        NAMES.clear()
        await run_turn(services, agent.id, ChatRequest(message=CALL))
        turn_queries = list(NAMES)
        # A read runs its query through a transaction too: count those once, as reads.
        turn_trips = {
            "reads": trips.get("reads", 0),
            "writes alone": trips.get("writes alone", 0),
            "in a transaction": trips.get("in transactions", 0),
        }
        await settle_background()
        after_queries = NAMES[len(turn_queries) :]
        message = "Please reconcile the Acme invoices for October before the close."
        # The route on a turn of an agent without tools: the syntax, then the cached look-up.
        bare = await create_agent(graph, AgentCreate(name="bench-tool-call-overhead-bare"))
        request = ChatRequest(message=message)
        recorder = TurnRecorder(emit=silent)
        await route_to_tool(services, recorder, bare.id, request, None, [], None)
        route_us = []
        for _ in range(2000):
            started = time.perf_counter()
            await route_to_tool(
                services, recorder, bare.id, request, parse_tool_call(message), [], None
            )
            route_us.append((time.perf_counter() - started) * 1e6)
        await delete_agent(graph, bare.id, default_agent_name="", force=True)
        parse_us = min(timeit.repeat(lambda: parse_tool_call(message), number=10_000, repeat=5))
        print(f"{calls} calls of clock.get_current_time (autonomous), offline reasoner")
        print(f"  {calls} consecutive calls, nothing else between them:")
        print(f"    whole turn            {_quantiles(series.turns)}")
        print(f"    raw MCP call after each {_quantiles(series.raw_after)}")
        print(f"    **overhead beyond that raw call** {_quantiles(series.beyond_raw)}")
        print(f"    turn − executor's round trip {_quantiles(series.beyond_executor)}")
        print(f"    the call's memory after the answer {_quantiles(series.memory)}")
        print("  then the same calls alternating with the variants below, and the floors:")
        print(f"  whole turn            {_quantiles(totals)}")
        print(f"  server (executor)     {_quantiles(servers)}")
        print(f"  Credence overhead     {_quantiles(overheads)}")
        print(f"    with full retrieval {_quantiles(full_overheads)}")
        print(f"  raw MCP call          {_quantiles(raw)}")
        print(f"  raw MCP call after each turn {_quantiles(raw_after)}")
        print(f"  overhead beyond that raw call {_quantiles(beyond_raw)}   (turn − raw call)")
        print(f"  outcome before the answer: whole turn {_quantiles(durable_totals)}")
        print(f"    beyond the raw call after it    {_quantiles(durable_beyond)}")
        pairs = statistics.median(durable_totals) / statistics.median(totals)
        print(f"    its whole turn / this one's (p50) {pairs:.2f}x   (alternating turns)")
        print(f"  floor: one write tx   {_quantiles(floors)}   (the agent's lock, one query)")
        print(f"  one trivial read      {_quantiles(reads)}")
        print(f"  this process's CPU    {_quantiles(cpus)}   (the turn's, all threads)")
        ratio = statistics.median(overheads) / statistics.median(floors)
        print(f"  overhead / floor (p50) {ratio:.1f}x")
        # What a call must do at least: read before it judges, write what it did.
        both = [read + write for read, write in zip(reads, floors, strict=True)]
        print(f"  floor: one read + one write {_quantiles(both)}")
        to_both = statistics.median(overheads) / statistics.median(both)
        print(f"  overhead / (read + write) (p50) {to_both:.1f}x")
        print(f"  floor: the turn's own read + write {_quantiles(own)}   (the same parameters)")
        to_own = statistics.median(overheads) / statistics.median(own)
        print(f"  overhead / the turn's own read + write (p50) {to_own:.1f}x")
        print(f"  graph round trips of one call's turn: {turn_trips}")
        print("    " + ", ".join(turn_queries))
        print("  after the answer: " + ", ".join(after_queries))
        print(f"  the call's memory after the answer {_quantiles(afters)}")
        for phase, values in sorted(phases.items()):
            print(f"    phase {phase:<18} {_quantiles(values)}")
        print(f"  tool route on a turn without a call: {parse_us / 10_000 * 1e6:.2f} µs (syntax)")
        print(f"  route_to_tool, agent without tools: median {statistics.median(route_us):.1f} µs")
    finally:
        await delete_agent(graph, agent.id, default_agent_name="", force=True)
        await runtime.aclose()


def _activate_calls_with(activation: object) -> None:
    """The activation a call's turn uses (patched in app.loop.turn for the ``full`` variant)."""
    vars(turn_module)["activate_tool_call"] = activation


@dataclass
class _Series:
    """What consecutive call turns took (ms each)."""

    turns: list[float] = field(default_factory=list)
    raw_after: list[float] = field(default_factory=list)
    beyond_raw: list[float] = field(default_factory=list)
    beyond_executor: list[float] = field(default_factory=list)
    memory: list[float] = field(default_factory=list)


async def _consecutive_calls(
    services: LoopServices, clients: McpClients, spec: ServerSpec, agent_id: str, calls: int
) -> _Series:
    """``calls`` call turns one after the other (after 10 warm-up turns), as a client calling
    the tool in a loop would make them: each turn, its memory written after its answer (awaited
    before the next turn, timed apart), and the same call made without Credence right after it
    (the server's own time under the same load)."""
    series = _Series()
    for index in range(10 + calls):
        started = time.perf_counter()
        result = await run_turn(services, agent_id, ChatRequest(message=CALL))
        total = (time.perf_counter() - started) * 1000
        started = time.perf_counter()
        await settle_background()
        memory = (time.perf_counter() - started) * 1000
        assert result.execution is not None and result.execution.status == "executed"
        started = time.perf_counter()
        await clients.call(spec, "get_current_time", {"timezone": "UTC"})
        raw = (time.perf_counter() - started) * 1000
        if index < 10:
            continue
        series.turns.append(total)
        series.raw_after.append(raw)
        series.beyond_raw.append(total - raw)
        series.beyond_executor.append(total - float(result.execution.output["duration_ms"]))
        series.memory.append(memory)
    return series


async def _full_activation(
    services: LoopServices,
    agent_id: str,
    message: str,
    call: ToolCall,
    context_name: str | None,
    session: str | None,
    speaker: str | None,
    now: datetime,
) -> Activation:
    """A call activated as an ordinary turn is (the whole retrieval), then focused on the tool."""
    activation = await activate(
        services.graph,
        services.embedder,
        services.settings,
        agent_id,
        message,
        context_name,
        session,
        speaker,
        now=now,
    )
    return await focus_on_tool(services, agent_id, call, activation)


async def _own_queries(graph: graph_client.GraphClient) -> float:
    """The graph work a call's turn cannot skip, timed alone (ms): its start read and its
    record's write, run again with the parameters the last turn gave them (new ids for the
    decision and the Action it records)."""
    record = dict(PARAMS[RECORD])
    record["decision"] = {**record["decision"], "id": str(uuid.uuid4())}  # type: ignore[dict-item]
    record["action"] = {**record["action"], "id": str(uuid.uuid4())}  # type: ignore[dict-item]
    started = time.perf_counter()
    await graph.read(START, **PARAMS[START])
    await graph.write_alone(RECORD, **record)
    return (time.perf_counter() - started) * 1000


def _count_round_trips() -> dict[str, int]:
    """Counts the queries the graph client runs, by kind (patched for this process): a query
    run alone (a read, or a write that is its own transaction), or one inside a transaction."""
    counts: dict[str, int] = {}
    alone, run = graph_client.GraphClient._run_alone, graph_client.Transaction.run

    async def counted_alone(
        self: graph_client.GraphClient, name: str, params: dict[str, object], access: str
    ) -> object:
        kind = "reads" if access == neo4j.READ_ACCESS else "writes alone"
        counts[kind] = counts.get(kind, 0) + 1
        NAMES.append(f"{'read' if kind == 'reads' else 'write'} {name}")
        PARAMS[name] = params
        return await alone(self, name, params, access)

    async def counted_run(self: graph_client.Transaction, name: str, **params: object) -> object:
        counts["in transactions"] = counts.get("in transactions", 0) + 1
        NAMES.append(name)
        return await run(self, name, **params)

    graph_client.GraphClient._run_alone = counted_alone  # type: ignore[assignment,method-assign]
    graph_client.Transaction.run = counted_run  # type: ignore[assignment,method-assign]
    return counts


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument(
        "--loop",
        choices=["uvloop", "asyncio"],
        default="uvloop",
        help="the event loop (default uvloop: the one `credence serve` runs on, uvicorn's choice "
        "when uvloop is installed, as `uvicorn[standard]` installs it)",
    )
    arguments = parser.parse_args()
    print(f"event loop: {arguments.loop}")
    if arguments.loop == "uvloop":
        uvloop.run(main(arguments.calls))
    else:
        asyncio.run(main(arguments.calls))
