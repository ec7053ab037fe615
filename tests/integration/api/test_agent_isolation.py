"""Agent isolation, generated from the OpenAPI document (reliability issue): every agent-scoped
operation, called for agent A without a key, with an unknown key and with agent B's key, is
refused (401, 401, 403) and writes nothing; with A's key and B's ids in the path it finds nothing
of B (404 or 422, never B's data); the WebSocket chat refuses B's key too."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.api.app import create_app
from app.config import Settings

KEY_A, KEY_B, ADMIN = "key-for-a", "key-for-b", "admin-key"
_PARAM = re.compile(r"\{([a-z_]+)\}")


@pytest.fixture(scope="module")
def world(settings: Settings) -> Iterator[dict[str, Any]]:
    """Two agents, each with a belief, an episode, a person and a rule; keys for each."""
    keyed = settings.model_copy(update={"api_keys": {ADMIN: ["*"]}})
    with TestClient(create_app(keyed)) as admin:
        admin.headers["X-API-Key"] = ADMIN
        ids: dict[str, dict[str, str]] = {}
        for name in ("a", "b"):
            agent = admin.post("/v1/agents", json={"name": f"iso-{name}"}).json()["id"]
            belief = admin.post(
                f"/v1/agents/{agent}/beliefs",
                json={"statement": f"{name} believes this.", "category": "contextual"},
            ).json()["id"]
            episodes = admin.post(
                f"/v1/agents/{agent}/episodes",
                json={"episodes": [{"speaker": f"Person {name}", "text": "hello", "session": "s"}]},
            ).json()
            rule = admin.post(
                f"/v1/agents/{agent}/rules",
                json={"trigger_concept": "close", "content": f"{name}: check the close."},
            )
            ids[name] = {
                "agent_id": agent,
                "belief_id": belief,
                "episode_id": episodes["episodes"][0]["id"],
                "rule_id": rule.json().get("id", "none") if rule.status_code < 300 else "none",
            }
    keys = {ADMIN: ["*"], KEY_A: [ids["a"]["agent_id"]], KEY_B: [ids["b"]["agent_id"]]}
    scoped = settings.model_copy(update={"api_keys": keys})
    with TestClient(create_app(scoped), raise_server_exceptions=False) as client:
        yield {"client": client, "ids": ids}


def _operations(client: TestClient) -> list[tuple[str, str]]:
    schema = client.get("/openapi.json").json()
    return [
        (method.upper(), path)
        for path, operations in schema["paths"].items()
        if "{agent_id}" in path
        for method in operations
        if method in {"get", "post", "put", "patch", "delete"}
    ]


def _url(path: str, values: dict[str, str]) -> str:
    return _PARAM.sub(lambda m: values.get(m.group(1), "unknown-id"), path)


def _count(world: dict[str, Any], agent: str) -> dict[str, Any]:
    client: TestClient = world["client"]
    headers = {"X-API-Key": ADMIN}
    beliefs = client.get(f"/v1/agents/{agent}/beliefs", headers=headers)
    episodes = client.get(f"/v1/agents/{agent}/episodes", headers=headers)
    assert beliefs.status_code == 200 and episodes.status_code == 200
    return {"beliefs": beliefs.json()["data"], "episodes": episodes.json()}


def test_every_agent_scoped_operation_refuses_other_keys(world: dict[str, Any]) -> None:
    client: TestClient = world["client"]
    a = world["ids"]["a"]
    operations = _operations(client)
    assert len(operations) > 30
    before = _count(world, a["agent_id"])
    for method, path in operations:
        url = _url(path, a)
        for headers, expected in (({}, 401), ({"X-API-Key": "nobody"}, 401),
                                  ({"X-API-Key": KEY_B}, 403)):  # fmt: skip
            response = client.request(method, url, headers=headers, json={})
            assert response.status_code == expected, (method, path, headers, response.text)
    assert _count(world, a["agent_id"]) == before


def test_the_ids_of_another_agent_find_nothing(world: dict[str, Any]) -> None:
    client: TestClient = world["client"]
    a, b = world["ids"]["a"], world["ids"]["b"]
    headers = {"X-API-Key": KEY_A}
    for method, path in _operations(client):
        if method != "GET" or not set(_PARAM.findall(path)) & {"belief_id", "episode_id"}:
            continue
        # A's agent id, B's item ids: A's key may call it, and must not see B's item.
        url = _url(path, {**b, "agent_id": a["agent_id"]})
        response = client.get(url, headers=headers)
        assert response.status_code in (404, 422), (path, response.text)
        assert b["belief_id"] not in response.text or response.status_code == 404, path


def test_the_chat_socket_refuses_another_agents_key(world: dict[str, Any]) -> None:
    client: TestClient = world["client"]
    a = world["ids"]["a"]
    for headers in ({}, {"X-API-Key": KEY_B}):
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect(f"/v1/agents/{a['agent_id']}/ws/chat", headers=headers) as ws,
        ):
            ws.send_json({"message": "hello"})
            ws.receive_json()
    with client.websocket_connect(
        f"/v1/agents/{a['agent_id']}/ws/chat", headers={"X-API-Key": KEY_A}
    ) as ws:
        ws.send_json({"message": "hello"})
        assert ws.receive_json()["type"]
