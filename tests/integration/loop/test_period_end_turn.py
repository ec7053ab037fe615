"""A turn on purpose at a month end: the loop's clock, not the day the suite runs, puts the turn
in the ``month_end`` context, and the outcome then moves the belief's month-end strength while
its default strength stays (REST, real Neo4j, offline reasoner)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient

from app.api.app import create_app
from app.config import Settings
from tests.integration.loop.conftest import Agent

REMEMBER = "Dates the person asks me to remember, such as when an audit starts, are noted"
# Monday 30 November 2026: the last business day of the month.
MONTH_END = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
# Wednesday 18 November 2026: no period end near.
MID_MONTH = datetime(2026, 11, 18, 9, 0, tzinfo=UTC)


def _client(settings: Settings, start: datetime) -> Iterator[TestClient]:
    with TestClient(create_app(settings.model_copy(update={"clock_start": start}))) as client:
        yield client


@pytest.fixture(scope="module")
def month_end_client(settings: Settings) -> Iterator[TestClient]:
    yield from _client(settings, MONTH_END)


@pytest.fixture(scope="module")
def mid_month_client(settings: Settings) -> Iterator[TestClient]:
    yield from _client(settings, MID_MONTH)


def _agent(client: TestClient) -> Agent:
    response = client.post("/v1/agents", json={"name": "Period-end tester"})
    assert response.status_code == 201, response.text
    return Agent(client, response.json()["id"])


def _month_end_strength(agent: Agent, belief_id: str) -> float:
    body = agent.get(f"/beliefs/{belief_id}", context="month_end")
    return float(body["strength_in_context"])


def test_a_turn_at_a_month_end_moves_the_month_end_strength(month_end_client: TestClient) -> None:
    agent = _agent(month_end_client)
    belief = agent.belief(REMEMBER, 0.8, contexts=[{"name": "month_end", "strength": 0.8}])

    wm = agent.get("/working-memory")
    turn = agent.chat("Please remember that the audit starts on Monday")

    assert "month_end" in wm["objects"]["temporal"]["contexts"]
    assert turn["execution"]["status"] == "executed"
    assert _month_end_strength(agent, belief) > 0.8
    assert agent.strength(belief) == 0.8


def test_the_same_turn_mid_month_moves_the_default_strength(mid_month_client: TestClient) -> None:
    agent = _agent(mid_month_client)
    belief = agent.belief(REMEMBER, 0.8, contexts=[{"name": "month_end", "strength": 0.8}])

    turn = agent.chat("Please remember that the audit starts on Monday")

    assert turn["execution"]["status"] == "executed"
    assert agent.strength(belief) > 0.8
    assert _month_end_strength(agent, belief) == 0.8
