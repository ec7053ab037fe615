"""Short-hands over the memory routes of the REST API: importing episodes, asking for context
(the retrieval and memory tests)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient


def import_episodes(client: TestClient, agent: str, *items: dict[str, Any], **extra: Any) -> Any:
    response = client.post(f"/v1/agents/{agent}/episodes", json={"episodes": list(items), **extra})
    assert response.status_code == 201, response.text
    return response.json()


def context(client: TestClient, agent: str, q: str, **params: Any) -> dict[str, Any]:
    response = client.get(f"/v1/agents/{agent}/context", params={"q": q, **params})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body
