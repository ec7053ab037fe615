"""Fresh agents for tests: each test works in an agent id of its own."""

from __future__ import annotations

from typing import Any, Protocol

from fastapi.testclient import TestClient


class MakeAgent(Protocol):
    """The ``make_agent`` fixture: creates an agent and returns its id."""

    def __call__(self, name: str = "Tester", **fields: Any) -> str: ...


def create_agent_over_rest(client: TestClient, name: str = "Tester", **fields: Any) -> str:
    """``POST /v1/agents`` (a name only: an empty agent; ``fields`` such as a ``profile`` for a
    full birth) through ``client``; the new agent's id."""
    response = client.post("/v1/agents", json={"name": name, **fields})
    assert response.status_code == 201, response.text
    agent_id: str = response.json()["id"]
    return agent_id
