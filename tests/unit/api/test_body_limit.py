"""Bounded request bodies (app/api/body_limit.py) without a database: 413 body_too_large from a
declared length or while reading a body of no declared length, before authentication and
parsing; WebSocket messages over the limit; every operation with a body declares 413. The
same against a real server (TCP, uvicorn): tests/integration/api/test_body_limit.py."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Annotated, Any

import pytest
from fastapi import APIRouter, Body
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.api.app import create_app
from app.api.body_limit import MESSAGE_TOO_BIG
from app.api.deps import AgentIdDep
from app.config import ApiLimits, Settings

LIMIT = 4096
UPLOAD_LIMIT = 16384


def _settings(**overrides: Any) -> Settings:
    base: dict[str, Any] = {
        "neo4j_uri": "bolt://127.0.0.1:1",
        "neo4j_connection_timeout_s": 1,
        "migrate_on_start": False,
        "default_agent": "",
        "api_keys": {},
        "api": ApiLimits(max_body_bytes=LIMIT, max_upload_body_bytes=UPLOAD_LIMIT),
    }
    base.update(overrides)
    return Settings(_env_file=None, **base)


def _client(reached: list[str], **overrides: object) -> TestClient:
    app = create_app(_settings(**overrides))
    router = APIRouter()

    @router.post("/v1/agents/{agent_id}/echo")
    async def echo(agent_id: AgentIdDep, text: Annotated[str, Body(embed=True)]) -> dict[str, Any]:
        reached.append(agent_id)
        return {"length": len(text)}

    app.include_router(router)
    return TestClient(app, raise_server_exceptions=False)


@pytest.fixture
def reached() -> list[str]:
    return []


@pytest.fixture
def client(reached: list[str]) -> Iterator[TestClient]:
    with _client(reached) as test_client:
        yield test_client


JSON = {"content-type": "application/json"}


def _body(size: int) -> bytes:
    return json.dumps({"text": "x" * (size - len('{"text": ""}'))}).encode()


def _assert_too_large(response: Any, limit: int = LIMIT) -> None:
    assert response.status_code == 413, response.text
    error = response.json()["error"]
    assert error["code"] == "body_too_large"
    assert error["details"]["limit"] == limit


def test_a_body_within_the_limit_reaches_the_route(client: TestClient, reached: list[str]) -> None:
    response = client.post("/v1/agents/a1/echo", content=_body(LIMIT), headers=JSON)

    assert response.status_code == 200, response.text
    assert reached == ["a1"]


def test_a_declared_length_over_the_limit_is_413_and_the_route_never_runs(
    client: TestClient, reached: list[str]
) -> None:
    response = client.post("/v1/agents/a1/echo", content=_body(LIMIT + 1))

    _assert_too_large(response)
    assert response.json()["error"]["details"]["size"] == LIMIT + 1
    assert response.headers["connection"] == "close"
    assert reached == []


def test_a_chunked_body_over_the_limit_is_413_while_it_is_read(
    client: TestClient, reached: list[str]
) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"text": "'
        for _ in range(10):
            yield b"x" * 1000
        yield b'"}'

    response = client.post("/v1/agents/a1/echo", content=chunks())

    _assert_too_large(response)
    assert reached == []


def test_a_chunked_body_within_the_limit_reaches_the_route(
    client: TestClient, reached: list[str]
) -> None:
    response = client.post(
        "/v1/agents/a1/echo", content=iter([b'{"text": ', b'"abc"}']), headers=JSON
    )

    assert response.status_code == 200, response.text
    assert response.json() == {"length": 3}


def test_a_big_body_with_a_wrong_api_key_is_413_not_401(reached: list[str]) -> None:
    with _client(reached, api_keys={"right": ["*"]}) as client:
        big = client.post(
            "/v1/agents/a1/echo", content=_body(LIMIT * 4), headers={**JSON, "x-api-key": "wrong"}
        )
        small = client.post(
            "/v1/agents/a1/echo", content=_body(100), headers={**JSON, "x-api-key": "wrong"}
        )

    _assert_too_large(big)
    assert small.status_code == 401
    assert reached == []


def test_a_big_body_that_is_not_json_is_413_not_400_or_422(client: TestClient) -> None:
    response = client.post("/v1/agents/a1/echo", content=b"{" * (LIMIT + 1))

    _assert_too_large(response)


def test_the_bulk_uploads_have_their_own_larger_bound(client: TestClient) -> None:
    # Over the ordinary limit, within the upload limit: the route answers (422: no Neo4j
    # needed to refuse a body that is not an episode batch).
    within = client.post("/v1/agents/a1/episodes", content=_body(LIMIT * 2), headers=JSON)
    over = client.post("/v1/agents/a1/episodes", content=_body(UPLOAD_LIMIT + 1))
    sources = client.post("/v1/agents/a1/research/sources", content=_body(UPLOAD_LIMIT + 1))

    assert within.status_code == 422, within.text
    _assert_too_large(over, UPLOAD_LIMIT)
    _assert_too_large(sources, UPLOAD_LIMIT)


def test_the_mcp_transport_is_bounded_too(client: TestClient) -> None:
    response = client.post(
        "/mcp",
        content=_body(LIMIT + 1),
        headers={"accept": "application/json, text/event-stream"},
    )

    _assert_too_large(response)


def test_a_websocket_message_over_the_limit_gets_an_error_frame_and_1009(
    client: TestClient,
) -> None:
    with client.websocket_connect("/v1/agents/a1/ws/chat") as socket:
        socket.send_text(json.dumps({"message": "x" * (LIMIT + 1)}))
        frame = socket.receive_json()
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()

    assert frame["type"] == "error"
    assert frame["error"]["code"] == "body_too_large"
    assert frame["error"]["status"] == 413
    assert closed.value.code == MESSAGE_TOO_BIG


def test_every_operation_with_a_body_declares_413(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    with_body = [
        (method, path)
        for path, operations in paths.items()
        for method, operation in operations.items()
        if "requestBody" in operation
    ]

    assert len(with_body) > 20
    for method, path in with_body:
        declared = paths[path][method]["responses"]
        assert "413" in declared, f"{method.upper()} {path} does not declare 413"


def test_the_limit_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CREDENCE_API__MAX_BODY_BYTES", "65536")
    settings = Settings(_env_file=None)

    assert settings.api.max_body_bytes == 65536
    assert settings.api.max_upload_body_bytes == ApiLimits().max_upload_body_bytes
