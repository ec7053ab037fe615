"""Integration tests run against a real Neo4j (never a mock), migrated once per session.

One API per session (``app``, ``client``: :func:`app.api.app.create_app`, whose lifespan builds
the process's runtime, app/runtime.py), shared by every test that takes the ordinary settings.
A test that needs other settings or another clock takes a fixture named for what differs
(``ordinary_day_client``, ``keyed_client``, ...), never another ``client``.

Each test works in its own agent id (``agent``, ``other_agent``, ``make_agent``), so tests never
see each other's data.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import SecretStr
from typer.testing import CliRunner

from app.api.app import create_app
from app.clock import Clock, clock_starting_at
from app.config import Settings, get_settings
from app.graph.catalog import QueryCatalog
from app.graph.client import GraphClient
from app.graph.migrations import MigrationRunner
from app.reasoning.settings import ReasonerSettings
from app.retrieval.settings import RetrievalSettings
from app.scheduler.settings import SchedulerSettings
from tests.support.agents import MakeAgent, create_agent_over_rest
from tests.support.clock import suite_clock_start
from tests.support.neo4j_server import Neo4jNotFound, Neo4jTarget, find_neo4j

TEST_CYPHER = Path(__file__).parent / "cypher"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/integration/" in item.nodeid:
            item.add_marker(pytest.mark.integration)


@pytest.fixture(scope="session")
def neo4j_target() -> Iterator[Neo4jTarget]:
    try:
        target = find_neo4j()
    except Neo4jNotFound as error:
        pytest.fail(str(error), pytrace=False)
    yield target
    target.stop()


@pytest.fixture(scope="session")
def settings(neo4j_target: Neo4jTarget) -> Settings:
    return Settings(
        _env_file=None,
        neo4j_uri=neo4j_target.uri,
        neo4j_user=neo4j_target.user,
        neo4j_password=SecretStr(neo4j_target.password),
        api_keys={},
        # Tests create their own agents; the default agent has its own test.
        default_agent="",
        # Never Claude in tests, even where ANTHROPIC_API_KEY is set.
        reasoner=ReasonerSettings(provider="offline"),
        # Never a period end unless a test asks for one (tests/support/clock.py).
        clock_start=suite_clock_start(),
        # No background work on the wall clock: the scheduler's tests tick it themselves.
        scheduler=SchedulerSettings(enabled=False),
        # Nor a warm-up reading some test's agent as the API starts (test_warm_up.py has one).
        retrieval=RetrievalSettings(warm_up_on_start=False),
    )


@pytest.fixture(scope="session")
async def graph(settings: Settings, clock: Clock) -> AsyncIterator[GraphClient]:
    """The session's graph client: it writes ``$now`` from the session API's clock, so what a
    test writes through it and what the API writes share one calendar."""
    client = GraphClient.from_settings(settings.neo4j, clock=clock)
    await MigrationRunner(client).migrate()
    yield client
    await client.close()


@pytest.fixture(scope="session")
async def test_graph(
    settings: Settings, graph: GraphClient, clock: Clock
) -> AsyncIterator[GraphClient]:
    """A client whose catalog is tests/integration/cypher (test-only setup and probe queries)."""
    client = GraphClient.from_settings(settings.neo4j, QueryCatalog(TEST_CYPHER), clock=clock)
    yield client
    await client.close()


@pytest.fixture
def cli(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[CliRunner]:
    """The `credence` CLI pointed at the test Neo4j (settings re-read around each test), on the
    suite's clock as the session API is (a test may set ``CREDENCE_CLOCK_START`` again)."""
    monkeypatch.setenv("CREDENCE_NEO4J_URI", settings.neo4j_uri)
    monkeypatch.setenv("CREDENCE_NEO4J_USER", settings.neo4j_user)
    monkeypatch.setenv("CREDENCE_NEO4J_PASSWORD", settings.neo4j_password.get_secret_value())
    monkeypatch.setenv("COLUMNS", "250")
    if settings.clock_start is not None:
        monkeypatch.setenv("CREDENCE_CLOCK_START", settings.clock_start.isoformat())
    monkeypatch.delenv("CREDENCE_AGENT_ID", raising=False)
    get_settings.cache_clear()
    yield CliRunner()
    get_settings.cache_clear()


@pytest.fixture
def agent_id() -> str:
    return f"test-{uuid.uuid4()}"


@pytest.fixture(scope="session")
def clock(settings: Settings) -> Clock:
    """The session API's clock (started at the suite's instant, running at the machine's pace).
    A test that builds a runtime of its own beside that API passes this clock, so both agree on
    "now" however long the session has run."""
    return clock_starting_at(settings.clock_start)


@pytest.fixture(scope="session")
def app(settings: Settings, clock: Clock) -> FastAPI:
    """The API with the suite's settings (started by ``client``)."""
    return create_app(settings, clock=clock)


@pytest.fixture(scope="session")
def client(app: FastAPI) -> Iterator[TestClient]:
    """The session's API, started once: its lifespan opens the runtime (app/runtime.py) on the
    test Neo4j. Tests must not change its runtime (a reasoner, a clock): one that needs to takes
    an app of its own."""
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def make_agent(client: TestClient) -> MakeAgent:
    """Creates a fresh agent over REST (a name only: an empty agent) and returns its id."""

    def make(name: str = "Tester", **fields: object) -> str:
        return create_agent_over_rest(client, name, **fields)

    return make


@pytest.fixture
def agent(make_agent: MakeAgent) -> str:
    """This test's own agent (empty)."""
    return make_agent("Tester")


@pytest.fixture
def other_agent(make_agent: MakeAgent) -> str:
    """A second agent of this test, for isolation checks."""
    return make_agent("Other tester")
