"""The idle-sweep throttle holds over REST: the API builds its loop services once per process
(app/runtime.py), so a turn sweeps the agent's idle sessions at most once per
``idle_sweep_interval_seconds`` (real Neo4j; the runtime's monotonic seconds are the test's)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.api.app import create_app
from app.config import Settings
from app.graph.client import GraphClient
from tests.integration.loop.conftest import Agent
from tests.support.agents import MakeAgent


class Seconds:
    """A monotonic clock the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def seconds() -> Seconds:
    return Seconds()


@pytest.fixture(scope="module")
def client_on_test_seconds(settings: Settings, seconds: Seconds) -> Iterator[TestClient]:
    """An API whose runtime counts the idle-sweep interval in the test's ``seconds``."""
    with TestClient(create_app(settings, monotonic=seconds)) as test_client:
        yield test_client


async def _closed(test_graph: GraphClient, agent_id: str, key: str) -> tuple[bool, str | None]:
    [row] = await test_graph.read("sessions/get_session_node", agent_id=agent_id, key=key)
    return bool(row["closed"]), row["close_trigger"]


async def test_the_idle_sweep_runs_at_most_once_per_interval_across_rest_turns(
    client_on_test_seconds: TestClient,
    make_agent: MakeAgent,
    settings: Settings,
    seconds: Seconds,
    test_graph: GraphClient,
) -> None:
    agent = Agent(client_on_test_seconds, make_agent("Swept"))
    interval = settings.loop.idle_sweep_interval_seconds
    timeout = settings.loop.session_idle_timeout_minutes
    assert interval > 0
    agent.chat("Our office opens at eight in the morning.", session="left-open")  # sweeps
    # The session is idle now (its last activity an hour past the timeout)...
    await test_graph.write(
        "sessions/age_session", agent_id=agent.id, key="left-open", minutes=int(timeout) + 60
    )
    # ...but the next turns, within the interval, do not sweep: the throttle holds across
    # requests (it did not when each request built its own loop services).
    for offset in (1.0, interval / 2, interval - 1):
        seconds.now = 1000.0 + offset
        agent.chat("The kitchen is cleaned every Friday afternoon.", session="current")
        assert await _closed(test_graph, agent.id, "left-open") == (False, None)
    # Once the interval has passed, the next turn sweeps and closes it.
    seconds.now = 1000.0 + interval
    agent.chat("The kitchen is cleaned every Friday afternoon.", session="current")
    assert await _closed(test_graph, agent.id, "left-open") == (True, "idle_timeout")
    assert await _closed(test_graph, agent.id, "current") == (False, None)
