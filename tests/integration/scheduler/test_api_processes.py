"""Two API processes on the one Neo4j, each running the scheduler in the background on its own
clock (started an hour past the suite's, so the sessions the test opens are already idle for
them): each idle session is closed by one process, once, with its summary (docs/loop.md §14)."""

from __future__ import annotations

import asyncio
import json
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from datetime import timedelta

import httpx
import pytest
from fastapi.testclient import TestClient

from app.clock import Clock
from app.config import Settings
from app.graph.client import GraphClient
from tests.integration.loop.conftest import Agent
from tests.support.agents import MakeAgent
from tools.serve.api_process import running_api, server_env

# API processes of their own: out of the quick run (-m "not slow").
pytestmark = pytest.mark.slow

AGENTS = 3
# How long the test waits for the processes to close the sessions (they tick every 0.1 s).
WAIT_S = 60.0


def _runs(api: str) -> float:
    """Runs of the idle-session job this process made (its /metrics)."""
    text = httpx.get(f"{api}/metrics", timeout=30).text
    prefix = 'credence_scheduler_job_runs_total{job="idle_sessions",outcome="ok"}'
    return sum(
        float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith(prefix)
    )


async def _job(test_graph: GraphClient, agent_id: str) -> dict[str, object]:
    rows = await test_graph.read("scheduler/get_job", key=f"idle_sessions:{agent_id}")
    return dict(rows[0]["job"]) if rows else {}


async def test_two_api_processes_close_each_idle_session_once(
    client: TestClient,
    make_agent: MakeAgent,
    settings: Settings,
    clock: Clock,
    test_graph: GraphClient,
) -> None:
    agents = [Agent(client, make_agent(f"Left {n}")) for n in range(AGENTS)]
    ahead = clock.now() + timedelta(minutes=settings.loop.session_idle_timeout_minutes + 30)
    env = server_env(
        settings,
        CREDENCE_MIGRATE_ON_START="false",
        CREDENCE_LOG_LEVEL="WARNING",
        CREDENCE_CLOCK_START=ahead.isoformat(),
        CREDENCE_SCHEDULER__ENABLED="true",
        CREDENCE_SCHEDULER__TICK_SECONDS="0.1",
        CREDENCE_SCHEDULER__JOBS='["idle_sessions"]',
        CREDENCE_SCHEDULER__AGENT_IDS=json.dumps([agent.id for agent in agents]),
    )
    with ExitStack() as stack:
        # Started side by side (each takes tens of seconds to import and connect).
        starting = [running_api(env) for _ in range(2)]
        with ThreadPoolExecutor(2) as pool:
            apis = list(pool.map(stack.enter_context, starting))
        # Both processes tick now; the sessions opened here are idle on their clocks at once.
        for agent in agents:
            agent.chat("Our office opens at eight in the morning.", session="left-open")
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            jobs = [await _job(test_graph, agent.id) for agent in agents]
            if all(job.get("last_outcome") for job in jobs):
                break
            await asyncio.sleep(0.2)
        await asyncio.sleep(1.0)  # ten more ticks of each process
        for agent in agents:
            job = await _job(test_graph, agent.id)
            assert job["runs"] == 1 and job["last_outcome"] == "ok", job
            [session] = await test_graph.read(
                "sessions/get_session_node", agent_id=agent.id, key="left-open"
            )
            assert session["closed"] and session["close_trigger"] == "idle_timeout"
            assert session["summary"].startswith("Session left-open: 1 turn(s).")
        # One run per session across the two processes.
        assert sum(_runs(api) for api in apis) == AGENTS
