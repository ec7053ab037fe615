"""Fixtures for the memory-retrieval, pack and birth tests (real Neo4j, real embeddings)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.api.app import create_app
from app.config import Settings


@pytest.fixture(scope="module")
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as test_client:
        yield test_client


@pytest.fixture
def agent(client: TestClient) -> str:
    response = client.post("/v1/agents", json={"name": "Retriever"})
    assert response.status_code == 201, response.text
    agent_id: str = response.json()["id"]
    return agent_id


def import_episodes(client: TestClient, agent: str, *items: dict[str, Any], **extra: Any) -> Any:
    response = client.post(f"/v1/agents/{agent}/episodes", json={"episodes": list(items), **extra})
    assert response.status_code == 201, response.text
    return response.json()


def context(client: TestClient, agent: str, q: str, **params: Any) -> dict[str, Any]:
    response = client.get(f"/v1/agents/{agent}/context", params={"q": q, **params})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body
