"""Integration tests run against a real Neo4j (never a mock), migrated once per session.

Each test works in its own agent id, so tests never see each other's data.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from pydantic import SecretStr
from typer.testing import CliRunner

from app.config import Settings, get_settings
from app.graph.catalog import QueryCatalog
from app.graph.client import GraphClient
from app.graph.migrations import MigrationRunner
from app.reasoning.settings import ReasonerSettings
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
        neo4j_uri=neo4j_target.uri,  # type: ignore[call-arg]
        neo4j_user=neo4j_target.user,
        neo4j_password=SecretStr(neo4j_target.password),
        api_keys={},
        # Tests create their own agents; the default agent has its own test.
        default_agent="",
        # Never Claude in tests, even where ANTHROPIC_API_KEY is set.
        reasoner=ReasonerSettings(provider="offline"),
        # Never a period end unless a test asks for one (tests/support/clock.py).
        clock_start=suite_clock_start(),
    )


@pytest.fixture(scope="session")
async def graph(settings: Settings) -> AsyncIterator[GraphClient]:
    client = GraphClient.from_settings(settings.neo4j)
    await MigrationRunner(client).migrate()
    yield client
    await client.close()


@pytest.fixture(scope="session")
async def test_graph(settings: Settings, graph: GraphClient) -> AsyncIterator[GraphClient]:
    """A client whose catalog is tests/integration/cypher (test-only setup and probe queries)."""
    client = GraphClient.from_settings(settings.neo4j, QueryCatalog(TEST_CYPHER))
    yield client
    await client.close()


@pytest.fixture
def cli(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[CliRunner]:
    """The `credence` CLI pointed at the test Neo4j (settings re-read around each test)."""
    monkeypatch.setenv("CREDENCE_NEO4J_URI", settings.neo4j_uri)
    monkeypatch.setenv("CREDENCE_NEO4J_USER", settings.neo4j_user)
    monkeypatch.setenv("CREDENCE_NEO4J_PASSWORD", settings.neo4j_password.get_secret_value())
    monkeypatch.setenv("COLUMNS", "250")
    monkeypatch.delenv("CREDENCE_AGENT_ID", raising=False)
    get_settings.cache_clear()
    yield CliRunner()
    get_settings.cache_clear()


@pytest.fixture
def agent_id() -> str:
    return f"test-{uuid.uuid4()}"
