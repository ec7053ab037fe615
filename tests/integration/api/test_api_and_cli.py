"""/ready and `credence db ...` against the real, migrated server."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from app.cli.main import app as cli_app
from app.config import Settings, get_settings
from app.graph.client import GraphClient
from app.resources import resource_dir


def _migration_count() -> int:
    return len(list(resource_dir("schema").glob("*.cypher")))


async def test_ready_is_ok_when_neo4j_answers_and_everything_is_migrated(
    client: TestClient, graph: GraphClient
) -> None:
    from tests.support.neo4j_server import pinned_version

    response = client.get("/ready")

    assert response.status_code == 200, response.text
    assert response.json() == {
        "status": "ok",
        "neo4j_version": pinned_version(),
        "neo4j_edition": "community",
        "migrations_applied": _migration_count(),
        "embeddings": {
            "available": True,
            "model": "e5-small-v2-q",
            "backend": "onnx-int8",
            "reason": None,
        },
    }


def test_health_and_ready_answer_head_as_get_without_a_body(client: TestClient) -> None:
    """Load balancers probe with HEAD (it was a 405): the same status and headers as GET."""
    for path in ("/health", "/ready"):
        response = client.head(path)
        assert response.status_code == 200, (path, response.status_code)
        assert response.headers["content-type"] == "application/json"
        assert response.content == b""


@pytest.fixture
def cli_env(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.setenv("CREDENCE_NEO4J_URI", settings.neo4j_uri)
    monkeypatch.setenv("CREDENCE_NEO4J_USER", settings.neo4j_user)
    monkeypatch.setenv("CREDENCE_NEO4J_PASSWORD", settings.neo4j_password.get_secret_value())
    monkeypatch.setenv("COLUMNS", "200")
    get_settings.cache_clear()
    return CliRunner()


def test_cli_db_migrate_is_idempotent_and_status_lists_every_file(
    cli_env: CliRunner, graph: GraphClient
) -> None:
    migrated = cli_env.invoke(cli_app, ["db", "migrate"])
    status = cli_env.invoke(cli_app, ["db", "status"])
    get_settings.cache_clear()

    assert migrated.exit_code == 0, migrated.output
    assert "0 applied now" in migrated.output
    assert status.exit_code == 0, status.output
    for path in resource_dir("schema").glob("*.cypher"):
        assert path.name in status.output
    assert status.output.count("applied") >= _migration_count()
    # No row in state "pending" (a file name may contain the word, e.g. embedding_pending).
    assert re.search(r"(?<![\w])pending(?![\w])", status.output) is None


def test_cli_reports_an_unreachable_neo4j_as_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CREDENCE_NEO4J_URI", "bolt://127.0.0.1:1")
    monkeypatch.setenv("CREDENCE_NEO4J_CONNECTION_TIMEOUT_S", "1")
    get_settings.cache_clear()
    try:
        result = CliRunner().invoke(cli_app, ["db", "status"])
    finally:
        get_settings.cache_clear()

    assert result.exit_code == 1
    assert "graph_unavailable" in result.output
    assert "Traceback" not in result.output
