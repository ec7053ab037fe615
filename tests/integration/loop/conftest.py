"""Fixtures for the cognitive-loop tests: a fresh agent with short-hands over the REST API (the
session's, or one on an ordinary day's clock), on the real Neo4j, offline reasoner."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.api.app import create_app
from app.config import Settings
from tests.support.agents import MakeAgent
from tests.support.clock import ordinary_day_start


@dataclass
class Agent:
    """A fresh agent and short-hands over its REST API."""

    client: TestClient
    id: str

    def belief(self, statement: str, strength: float, **fields: Any) -> str:
        response = self.client.post(
            f"/v1/agents/{self.id}/beliefs",
            json={"statement": statement, "strength": strength, "category": "aesthetic", **fields},
        )
        assert response.status_code == 201, response.text
        belief_id: str = response.json()["id"]
        return belief_id

    def contradict(self, belief_id: str, times: int = 1, confidence: float = 1.0) -> None:
        for _ in range(times):
            response = self.client.post(
                f"/v1/agents/{self.id}/beliefs/{belief_id}/evidence",
                json={"text": "not so", "stance": "contradicting", "confidence": confidence},
            )
            assert response.status_code in (200, 201), response.text

    def chat(self, message: str, **fields: Any) -> dict[str, Any]:
        response = self.client.post(
            f"/v1/agents/{self.id}/chat", json={"message": message, **fields}
        )
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body

    def get(self, path: str, **params: Any) -> Any:
        response = self.client.get(f"/v1/agents/{self.id}{path}", params=params)
        assert response.status_code == 200, response.text
        return response.json()

    def tension(self, belief_id: str) -> float:
        return float(self.get(f"/beliefs/{belief_id}")["belief"]["tension"])

    def strength(self, belief_id: str) -> float:
        return float(self.get(f"/beliefs/{belief_id}")["belief"]["strength"])


@pytest.fixture(scope="session")
def ordinary_day_client(settings: Settings) -> Iterator[TestClient]:
    """The API on a clock that is never at a period end, even when CREDENCE_TEST_NOW puts the
    suite at one: for tests that read a belief's default strength after an outcome."""
    pinned = settings.model_copy(update={"clock_start": ordinary_day_start()})
    with TestClient(create_app(pinned)) as test_client:
        yield test_client


@pytest.fixture
def ordinary_day_agent(ordinary_day_client: TestClient, make_agent: MakeAgent) -> Agent:
    """A fresh agent, spoken to through ``ordinary_day_client``."""
    return Agent(ordinary_day_client, make_agent("Loop tester"))


@pytest.fixture
def agent(client: TestClient, make_agent: MakeAgent) -> Agent:
    """The loop tests' agent: a fresh one (``make_agent``) with short-hands over the session's
    API."""
    return Agent(client, make_agent("Loop tester"))
