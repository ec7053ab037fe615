"""A reflection runs on the process's clock (app/clock.py), as the turns it consolidates did:
its rules' ``created_at`` (what their decay counts from) is the clock's time, not the machine's
(real API, real Neo4j, offline reasoner)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient

from app.api.app import create_app
from app.config import Settings
from tests.integration.loop.conftest import Agent
from tests.support.agents import create_agent_over_rest

# An ordinary day (no period end) far from the machine's time.
START = datetime(2025, 3, 12, 10, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def pinned_client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings.model_copy(update={"clock_start": START}))) as client:
        yield client


def test_a_rule_from_reflection_is_created_at_the_clocks_time(pinned_client: TestClient) -> None:
    """Its created_at was the machine's time (a reflection read the wall clock): on a clock
    behind the machine's, a rule younger than its own episodes, which decay never touched."""
    agent = Agent(pinned_client, create_agent_over_rest(pinned_client, "Reflection clock"))
    agent.belief(
        "Dates the person asks me to remember, such as when an audit starts, are noted", 0.9
    )
    for message in (
        "Please remember that the audit starts on Monday",
        "Please remember that the audit fieldwork starts on Tuesday",
        "Please remember that the audit closing meeting is on Friday",
    ):
        agent.chat(message, session="audit-week")
    response = pinned_client.post(f"/v1/agents/{agent.id}/reflect", json={"similarity": 0.5})
    assert response.status_code == 200, response.text
    [cluster] = response.json()["clusters"]

    rule = agent.get(f"/rules/{cluster['rule_id']}")
    created = datetime.fromisoformat(rule["created_at"].replace("Z", "+00:00"))
    assert START <= created < START + timedelta(minutes=10)
