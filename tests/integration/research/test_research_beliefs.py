"""What research does to the agent's beliefs, through the API on the real Neo4j (offline
reasoner, a small corpus): a passage counts once per belief, however often it is found, and the
belief's explanation names the investigations that informed it."""

from __future__ import annotations

import json
import time
from typing import Any

from fastapi.testclient import TestClient

from tests.support.agents import MakeAgent

QUESTION = "Is it true that spring tides occur at new moon and at full moon?"
SPRING = "Spring tides occur at new moon and at full moon, when the sun and moon align."
NEAP = {"id": "neap", "title": "Almanac", "text": "Neap tides occur at the quarter moons."}


def _load(client: TestClient, agent_id: str, *documents: dict[str, str]) -> None:
    content = "\n".join(json.dumps(document) for document in documents)
    loaded = client.post(
        f"/v1/agents/{agent_id}/research/sources",
        json={"files": [{"name": "tides.jsonl", "content": content}]},
    )
    assert loaded.status_code == 200, loaded.text


def _investigate(client: TestClient, agent_id: str) -> dict[str, Any]:
    """Runs one investigation of QUESTION to its end; returns its detail."""
    started = client.post(f"/v1/agents/{agent_id}/investigations", json={"question": QUESTION})
    assert started.status_code == 201, started.text
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        detail: dict[str, Any] = client.get(
            f"/v1/agents/{agent_id}/investigations/{started.json()['id']}"
        ).json()
        if detail["investigation"]["status"] != "running":
            assert detail["investigation"]["status"] == "finished", detail["investigation"]
            return detail
        time.sleep(0.2)
    raise AssertionError("the investigation did not stop in time")


def _belief_change(detail: dict[str, Any]) -> dict[str, Any]:
    [synthesis] = [s for s in detail["steps"] if s["kind"] == "synthesize"]
    [change] = synthesis["details"]["beliefs"]
    return {**change, "summary": synthesis["summary"]}


def _explain(client: TestClient, agent_id: str, belief_id: str) -> dict[str, Any]:
    response = client.get(f"/v1/agents/{agent_id}/beliefs/{belief_id}/explanation")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def test_asking_the_same_question_again_does_not_count_the_same_passage_again(
    client: TestClient, make_agent: MakeAgent
) -> None:
    agent_id = make_agent("Repeating researcher")
    _load(client, agent_id, {"id": "tide1", "title": "Tide tables 2024", "text": SPRING}, NEAP)

    first = _belief_change(_investigate(client, agent_id))
    assert first["effect"] == "created" and first["evidence_applied"] == 1
    after_one = _explain(client, agent_id, first["belief_id"])
    for _ in range(2):
        again = _belief_change(_investigate(client, agent_id))
        assert again["belief_id"] == first["belief_id"]
        assert again["evidence_applied"] == 0 and again["already_counted"] == 1
        assert "1 passage(s) already counted" in again["summary"]

    after_three = _explain(client, agent_id, first["belief_id"])
    assert after_three["belief"]["strength"] == after_one["belief"]["strength"]
    assert after_three["belief"]["tension"] == after_one["belief"]["tension"]
    assert [e["text"] for e in after_three["evidence_for"]] == [SPRING]
    assert len(after_three["investigations"]) == 3


def test_a_sentence_the_corpus_holds_twice_counts_once(
    client: TestClient, make_agent: MakeAgent
) -> None:
    agent_id = make_agent("Twice-told researcher")
    _load(
        client,
        agent_id,
        {"id": "tide1", "title": "Tide tables 2024", "text": SPRING},
        {"id": "tide1-copy", "title": "Tide tables (copy)", "text": "  spring TIDES occur at new "
         "moon and at full moon,\nwhen the sun and moon align."},
        NEAP,
    )  # fmt: skip

    change = _belief_change(_investigate(client, agent_id))

    assert change["effect"] == "created"
    assert change["evidence_applied"] == 1 and change["already_counted"] == 1
    explained = _explain(client, agent_id, change["belief_id"])
    assert len(explained["evidence_for"]) == 1


def test_the_explanation_names_the_investigation_that_created_the_belief(
    client: TestClient, make_agent: MakeAgent
) -> None:
    agent_id = make_agent("Explained researcher")
    _load(client, agent_id, {"id": "tide1", "title": "Tide tables 2024", "text": SPRING}, NEAP)

    detail = _investigate(client, agent_id)
    change = _belief_change(detail)
    explained = _explain(client, agent_id, change["belief_id"])

    [created] = [e for e in explained["recent_events"] if e.get("action") == "created"]
    assert created["kind"] == "research"
    [informing] = explained["investigations"]
    assert informing["investigation_id"] == detail["investigation"]["id"]
    assert informing["question"] == QUESTION and informing["effect"] == "created"
    assert informing["hypothesis_id"] == change["hypothesis_id"]
    assert informing["evidence"] == 1
    assert informing["sources"] == [{"title": "Tide tables 2024", "origin": "tides.jsonl:1"}]
    assert f"investigation {detail['investigation']['id']}" in explained["summary"]
