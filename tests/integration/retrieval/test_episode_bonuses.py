"""Seed 003's retrieval bonuses as settings (issue 39), on a real Neo4j with real embeddings:
rules derived from an episode (+ heuristic_bonus each), a consolidated episode
(× consolidated_factor), a trivial one (× trivial_factor), recency added rather than multiplied,
and the score cap. Each is measured in bench/README.md; the defaults keep the ones that did not
lower recall there."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.api.app import create_app
from app.clock import Clock
from app.config import Settings
from app.graph.client import GraphClient
from app.retrieval.settings import RetrievalSettings
from tests.support.memory_rest import context, import_episodes
from tests.support.runtime import runtime_of

TEXT = "We closed the books for the quarter on time."
BONUSES = {
    "heuristic_bonus": 0.1,
    "consolidated_factor": 0.8,
    "trivial_factor": 0.5,
    "recency": "additive",
}


def _client(settings: Settings, clock: Clock, **retrieval: Any) -> TestClient:
    changed = settings.model_copy(
        update={"retrieval": settings.retrieval.model_copy(update=retrieval)}
    )
    return TestClient(create_app(changed, clock=clock))


@pytest.fixture(scope="module")
def seed_bonus_client(settings: Settings, clock: Clock) -> Iterator[TestClient]:
    with _client(settings, clock, **BONUSES) as client:
        yield client


@pytest.fixture(scope="module")
def capped_client(settings: Settings, clock: Clock) -> Iterator[TestClient]:
    with _client(settings, clock, score_cap=0.25) as client:
        yield client


def _episode(eid: str, days_ago: int, now: Any, actions: int = 3) -> dict[str, Any]:
    # Identical texts, each alone in its session: identical fused scores and salience, so only
    # the bonuses tell them apart.
    return {
        "external_id": eid,
        "speaker": "Ann",
        "text": TEXT,
        "session": eid,
        "actions": actions,
        "occurred_at": (now - timedelta(days=days_ago)).isoformat(),
    }


def _scores(client: TestClient, agent: str) -> dict[str, dict[str, Any]]:
    items = context(client, agent, "closed the books", section="episodes")["sections"]
    return {item["external_id"]: item for item in items["episodes"]["items"]}


def _agent(client: TestClient) -> str:
    response = client.post("/v1/agents", json={"name": "Bonus tester"})
    assert response.status_code == 201, response.text
    agent: str = response.json()["id"]
    return agent


async def test_seed_bonuses_weigh_rules_consolidation_triviality_and_recency(
    seed_bonus_client: TestClient, graph: GraphClient
) -> None:
    client = seed_bonus_client
    agent = _agent(client)
    now = runtime_of(client).clock.now()
    import_episodes(
        client,
        agent,
        _episode("plain", 400, now),
        _episode("trivial", 400, now, actions=1),
        _episode("one-rule", 400, now),
        _episode("two-rules", 400, now),
        _episode("week", 2, now),
        _episode("month", 20, now),
    )
    ids = {eid: item["id"] for eid, item in _scores(client, agent).items()}
    for rule, sources in (("a", ["one-rule", "two-rules"]), ("b", ["two-rules"])):
        response = client.post(
            f"/v1/agents/{agent}/rules",
            json={
                "trigger_concept": f"quarter close {rule}",
                "content": f"Close the quarter on time ({rule}).",
                "derived_from": [ids[eid] for eid in sources],
            },
        )
        assert response.status_code == 201, response.text
    await graph.write(
        "memory/reflection/mark_episodes_consolidated",
        agent_id=agent,
        episode_ids=[ids["one-rule"], ids["two-rules"]],
        now=now,
    )

    scores = {eid: item["score"] for eid, item in _scores(client, agent).items()}

    base = scores["plain"]
    assert scores["trivial"] == pytest.approx(base * BONUSES["trivial_factor"])
    assert scores["one-rule"] == pytest.approx((base + 0.1) * 0.8)
    assert scores["two-rules"] == pytest.approx((base + 0.2) * 0.8)
    defaults = RetrievalSettings()
    assert scores["week"] == pytest.approx(base + defaults.recency_bonus_7d)
    assert scores["month"] == pytest.approx(base + defaults.recency_bonus_30d)


def test_the_score_cap_holds_every_score_under_it(capped_client: TestClient) -> None:
    client = capped_client
    agent = _agent(client)
    now = runtime_of(client).clock.now()
    import_episodes(client, agent, _episode("plain", 400, now), _episode("week", 2, now))

    scores = {eid: item["score"] for eid, item in _scores(client, agent).items()}

    # Both fused scores are far above 0.25 (identical texts, the recent one lifted): both capped.
    assert scores == {"plain": pytest.approx(0.25), "week": pytest.approx(0.25)}
