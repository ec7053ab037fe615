"""The API shell without a database: error model, health, readiness failure, API keys."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any

import pytest
from fastapi import APIRouter, Body
from fastapi.testclient import TestClient
from neo4j import exceptions as neo4j_errors

from app.api.app import create_app
from app.api.deps import AgentIdDep
from app.config import Settings
from app.errors import AgentNotFound, Conflict
from app.graph.client import translated_driver_errors


class CycleRefusedForTest(Conflict):
    code = "cycle_refused"


def _settings(**overrides: Any) -> Settings:
    base: dict[str, Any] = {
        "neo4j_uri": "bolt://127.0.0.1:1",
        "neo4j_connection_timeout_s": 1,
        "migrate_on_start": False,
        "api_keys": {},
    }
    base.update(overrides)
    return Settings(_env_file=None, **base)


def _probe_router() -> APIRouter:
    router = APIRouter()

    @router.get("/v1/agents/{agent_id}/boom")
    async def boom(agent_id: AgentIdDep) -> dict[str, str]:
        raise RuntimeError(f"secret internal detail for {agent_id}")

    @router.get("/v1/agents/{agent_id}/missing")
    async def missing(agent_id: AgentIdDep) -> dict[str, str]:
        raise AgentNotFound(agent_id)

    @router.get("/v1/agents/{agent_id}/conflict")
    async def conflict(agent_id: AgentIdDep) -> dict[str, str]:
        raise CycleRefusedForTest("would close a cycle", cycle=["a", "b", "a"])

    @router.get("/v1/agents/{agent_id}/deadlock")
    async def deadlock(agent_id: AgentIdDep) -> dict[str, str]:
        async with translated_driver_errors("writing evidence"):
            raise neo4j_errors.Neo4jError._hydrate_neo4j(
                code="Neo.TransientError.Transaction.DeadlockDetected",
                message="deadlock detected",
            )
        return {}

    @router.get("/v1/agents/{agent_id}/pool-full")
    async def pool_full(agent_id: AgentIdDep) -> dict[str, str]:
        async with translated_driver_errors("reading beliefs"):
            raise neo4j_errors.ConnectionAcquisitionTimeoutError(
                "failed to obtain a connection from the pool within 60.0s (timeout)"
            )
        return {}

    @router.post("/v1/agents/{agent_id}/echo")
    async def echo(
        agent_id: AgentIdDep, strength: Annotated[float, Body(ge=0, le=1, embed=True)]
    ) -> dict[str, object]:
        return {"agent_id": agent_id, "strength": strength}

    return router


@pytest.fixture
def client() -> Iterator[TestClient]:
    app = create_app(_settings())
    app.include_router(_probe_router())
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def test_health_answers_without_neo4j(client: TestClient) -> None:
    response = client.get("/health")

    assert response.status_code == 200
    assert response.json()["status"] == "ok"
    # Which offline stance judge runs (tests/unit/reasoning/test_stance_judge.py covers its
    # fallback).
    assert response.json()["stance_judge"]["kind"] in ("learned", "cues")


def test_ready_is_503_json_when_neo4j_is_unreachable(client: TestClient) -> None:
    response = client.get("/ready")

    assert response.status_code == 503
    error = response.json()["error"]
    assert error["code"] == "graph_unavailable"
    assert "not reachable" in error["message"]


def test_a_failing_handler_returns_json_not_a_stack_trace(client: TestClient) -> None:
    response = client.get("/v1/agents/a1/boom")

    assert response.status_code == 500
    assert response.headers["content-type"] == "application/json"
    assert response.json() == {
        "error": {
            "code": "internal_error",
            "details": {},
            "message": "an internal error occurred; it has been logged",
        }
    }
    assert "Traceback" not in response.text and "secret internal detail" not in response.text


def test_domain_errors_map_to_their_status(client: TestClient) -> None:
    missing = client.get("/v1/agents/a1/missing")
    conflict = client.get("/v1/agents/a1/conflict")

    assert missing.status_code == 404
    assert missing.json()["error"] == {
        "code": "agent_not_found",
        "message": "agent 'a1' does not exist",
        "details": {"agent_id": "a1"},
    }
    assert conflict.status_code == 409
    assert conflict.json()["error"]["details"] == {"cycle": ["a", "b", "a"]}


def test_a_transient_error_after_retries_is_503_busy_with_retry_after(client: TestClient) -> None:
    response = client.get("/v1/agents/a1/deadlock")

    assert response.status_code == 503
    assert response.headers["Retry-After"] == "1"
    error = response.json()["error"]
    assert error["code"] == "graph_busy"
    assert error["details"]["neo4j_code"] == "Neo.TransientError.Transaction.DeadlockDetected"
    assert "while writing evidence" in error["message"]


def test_a_pool_with_no_free_connection_is_503_busy_not_a_server_error(
    client: TestClient,
) -> None:
    response = client.get("/v1/agents/a1/pool-full")

    assert response.status_code == 503
    assert response.headers["Retry-After"] == "1"
    error = response.json()["error"]
    assert error["code"] == "graph_busy"
    assert "no connection to Neo4j was free in time while reading beliefs" in error["message"]


def test_invalid_input_lists_every_problem_with_its_location(client: TestClient) -> None:
    response = client.post("/v1/agents/bad id!/echo", json={"strength": 3})

    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "invalid_input"
    locations = [problem["location"] for problem in error["details"]["errors"]]
    assert ["path", "agent_id"] in locations
    assert ["body", "strength"] in locations


def test_unknown_route_is_json_404(client: TestClient) -> None:
    response = client.get("/nope")

    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_api_keys_map_to_the_agents_they_may_touch() -> None:
    app = create_app(_settings(api_keys={"admin-key": ["*"], "alice-key": ["alice"]}))
    app.include_router(_probe_router())
    with TestClient(app, raise_server_exceptions=False) as client:
        no_key = client.get("/v1/agents/alice/missing")
        bad_key = client.get("/v1/agents/alice/missing", headers={"X-API-Key": "guess"})
        own = client.get("/v1/agents/alice/missing", headers={"X-API-Key": "alice-key"})
        other = client.get("/v1/agents/bob/missing", headers={"X-API-Key": "alice-key"})
        admin = client.get("/v1/agents/bob/missing", headers={"X-API-Key": "admin-key"})
        health = client.get("/health")

    assert no_key.status_code == 401 and no_key.json()["error"]["code"] == "authentication_required"
    assert bad_key.status_code == 401
    assert own.status_code == 404  # authorised; the probe route then says the agent is missing
    assert other.status_code == 403 and other.json()["error"]["details"] == {"agent_id": "bob"}
    assert admin.status_code == 404
    assert health.status_code == 200


@pytest.mark.parametrize(
    ("path", "meant"),
    [("/v1/agents/", "/v1/agents"), ("/health/", "/health"), ("/browser/guide/", "/browser/guide")],
)
def test_a_trailing_slash_is_a_404_naming_the_path_without_it_not_a_redirect(
    client: TestClient, path: str, meant: str
) -> None:
    # Starlette's 307 named an absolute URL built from the request: behind a TLS proxy that is
    # http://, or the internal host.
    response = client.get(path, headers={"host": "internal:8000"}, follow_redirects=False)

    assert response.status_code == 404
    assert "location" not in response.headers
    error = response.json()["error"]
    assert error["code"] == "not_found"
    assert meant in error["message"] and "trailing slash" in error["message"]
    assert error["details"] == {"path": meant}


def test_a_trailing_slash_on_no_route_is_a_plain_404(client: TestClient) -> None:
    response = client.get("/nope/", follow_redirects=False)

    assert response.status_code == 404
    assert response.json()["error"]["details"] == {}
