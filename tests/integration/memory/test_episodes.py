"""Episode import through the API: idempotent, whole-or-nothing, sessions, people, beliefs."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from app.memory import episodes
from tests.support.memory_rest import import_episodes


def _episodes(client: TestClient, agent: str, **params: str) -> list[dict[str, object]]:
    response = client.get(f"/v1/agents/{agent}/episodes", params=params)
    assert response.status_code == 200, response.text
    rows: list[dict[str, object]] = response.json()
    return rows


def test_a_conversation_log_imports_once_with_sessions_people_and_beliefs(
    client: TestClient, agent: str
) -> None:
    belief = client.post(
        f"/v1/agents/{agent}/beliefs",
        json={"statement": "Month-end close takes five days", "category": "contextual"},
    ).json()["id"]
    log = [
        {
            "external_id": "log-1",
            "speaker": "Priya",
            "text": "The close took seven days this month, the bank feed broke again.",
            "occurred_at": "2026-01-31T17:00:00Z",
            "session": "close-jan",
            "emotional_valence": -0.8,
            "about": [belief],
        },
        {
            "external_id": "log-2",
            "speaker": "assistant",
            "text": "I will reconcile the bank feed manually until it is fixed.",
            "occurred_at": "2026-01-31T17:01:00Z",
            "session": "close-jan",
            "outcome": "success",
            "actions": 3,
        },
    ]
    first = import_episodes(client, agent, *log, end_sessions=True)
    again = import_episodes(client, agent, *log)

    assert (first["created"], first["existing"], first["embedded"]) == (2, 0, True)
    assert (again["created"], again["existing"]) == (0, 2)
    assert [e["id"] for e in again["episodes"]] == [e["id"] for e in first["episodes"]]
    stored = _episodes(client, agent, session="close-jan")
    assert len(stored) == 2 and all(e["has_embedding"] for e in stored)
    by_id = {e["external_id"]: e for e in stored}
    assert (by_id["log-1"]["is_peak"], by_id["log-1"]["salience"]) == (True, 2.0)
    assert (by_id["log-2"]["is_end"], by_id["log-2"]["salience"]) == (True, 1.5)
    assert by_id["log-1"]["trivial"] is True and by_id["log-2"]["trivial"] is False
    detail = client.get(f"/v1/agents/{agent}/episodes/{first['episodes'][0]['id']}").json()
    assert [p["name"] for p in detail["people"]] == ["Priya"]
    assert [b["id"] for b in detail["about"]] == [belief]
    # The assistant is the agent itself, not a person.
    people = client.get(f"/v1/agents/{agent}/people").json()
    names = [p["name"] for p in people["data"]] if isinstance(people, dict) else people
    assert "assistant" not in str(names)


def test_one_bad_item_rejects_the_batch_naming_index_and_field(
    client: TestClient, agent: str
) -> None:
    good = {"external_id": "ok-1", "speaker": "Sam", "text": "All invoices are posted."}
    bad = {"external_id": "bad-1", "speaker": "Sam", "text": "x", "emotional_valence": 3}
    response = client.post(f"/v1/agents/{agent}/episodes", json={"episodes": [good, bad]})
    missing_belief = client.post(
        f"/v1/agents/{agent}/episodes",
        json={"episodes": [good, {**good, "external_id": "ok-2", "about": ["no-such-belief"]}]},
    )
    repeated = client.post(f"/v1/agents/{agent}/episodes", json={"episodes": [good, good]})

    assert response.status_code == 422
    assert ["body", "episodes", 1, "emotional_valence"] in [
        e["location"] for e in response.json()["error"]["details"]["errors"]
    ]
    assert missing_belief.status_code == 422
    assert missing_belief.json()["error"]["message"].startswith("episodes[1].about: no belief")
    assert missing_belief.json()["error"]["details"]["errors"][0]["location"] == [
        "body",
        "episodes",
        1,
        "about",
        0,
    ]
    assert repeated.status_code == 422 and "episodes[1].external_id" in repeated.text
    assert _episodes(client, agent) == []


def test_unknown_agent_is_404_and_unknown_session_is_404(client: TestClient, agent: str) -> None:
    item = {"speaker": "Sam", "text": "hello"}
    assert client.post("/v1/agents/ghost/episodes", json={"episodes": [item]}).status_code == 404
    # An unknown agent has no beliefs: what the items are about cannot turn its 404 into a 422.
    about = {**item, "about": ["b-1"]}
    ghost = client.post("/v1/agents/ghost/episodes", json={"episodes": [about]})
    assert ghost.status_code == 404 and ghost.json()["error"]["code"] == "agent_not_found"
    assert client.get("/v1/agents/ghost/episodes").status_code == 404
    assert client.post(f"/v1/agents/{agent}/sessions/none/end").status_code == 404


def test_a_repeated_memory_raises_the_interference_of_the_older_one(
    client: TestClient, agent: str
) -> None:
    text = "Bart danced at the Christmas party and felt very happy."
    import_episodes(
        client,
        agent,
        {"external_id": "old", "speaker": "Bart", "text": text, "occurred_at": "2023-12-25"},
        {"external_id": "other", "speaker": "Bart", "text": "The audit fieldwork starts in May."},
    )
    import_episodes(
        client,
        agent,
        {
            "external_id": "new",
            "speaker": "Bart",
            "text": "Bart danced at the Christmas party and was very happy.",
            "occurred_at": "2024-12-25",
        },
    )
    interference = {e["external_id"]: e["interference"] for e in _episodes(client, agent)}

    assert interference == {"old": 1, "other": 0, "new": 0}


def test_evidence_from_a_person_weighs_their_relationship_value(
    client: TestClient, agent: str
) -> None:
    belief = client.post(
        f"/v1/agents/{agent}/beliefs",
        json={"statement": "Vendors are paid in 30 days", "category": "contextual"},
    ).json()["id"]
    person = client.post(
        f"/v1/agents/{agent}/people", json={"name": "Vera Director", "seniority": "director"}
    ).json()
    value = person["relationship_value"]
    evidence = {
        "text": "We paid a vendor after 60 days",
        "stance": "contradicting",
        "confidence": 0.5,
        "source_weight": 1.0,
        "source_person_id": person["id"],
    }
    applied = client.post(f"/v1/agents/{agent}/beliefs/{belief}/evidence", json=evidence)
    ghost = client.post(
        f"/v1/agents/{agent}/beliefs/{belief}/evidence",
        json={**evidence, "source_person_id": "nobody"},
    )

    assert applied.status_code == 200, applied.text
    assert applied.json()["results"][0]["new_tension"] == pytest.approx(0.15 * 0.5 * value)
    assert ghost.status_code == 404 and ghost.json()["error"]["code"] == "person_not_found"
    after = client.get(f"/v1/agents/{agent}/beliefs/{belief}").json()["belief"]
    assert after["tension"] == pytest.approx(0.15 * 0.5 * value)


def _batch_of(chars: int) -> list[dict[str, str]]:
    """Episodes of ``chars`` characters in all (speaker, text, user message and response), each
    field as long as an episode may hold it: mostly spaces, so that the batch within the limit
    is quick to read and embed."""
    field = 20_000
    items: list[dict[str, str]] = []
    left = chars
    while left:
        fields = {"speaker": "Sam"}
        left -= len("Sam")
        for name in ("text", "user_message", "response"):
            size = min(field, left)
            if size:
                fields[name] = "ledger" + " " * (size - 8) + "ok" if size > 8 else "x" * size
                left -= size
        items.append({"external_id": f"long-{len(items)}", **fields})
    return items


def test_a_batch_over_the_characters_one_import_reads_is_413_and_writes_nothing(
    client: TestClient, agent: str
) -> None:
    limit = episodes.MAX_BATCH_CHARS
    url = f"/v1/agents/{agent}/episodes"
    over = client.post(url, json={"episodes": _batch_of(limit + 1)})

    assert over.status_code == 413, over.text
    error = over.json()["error"]
    assert error["code"] == "payload_too_large"
    assert (error["details"]["size"], error["details"]["limit"]) == (limit + 1, limit)
    assert f"at most {limit} in one request" in error["message"]
    assert "split the batch" in error["message"]
    assert _episodes(client, agent) == []
    assert client.get(f"/v1/agents/{agent}/people").json()["count"] == 0
    within = client.post(url, json={"episodes": _batch_of(limit)})
    assert within.status_code == 201, within.text
    declared = client.get("/openapi.json").json()["paths"]["/v1/agents/{agent_id}/episodes"]
    assert f"more than {limit} characters" in declared["post"]["responses"]["413"]["description"]


def test_a_speaker_whose_name_two_people_share_is_the_oldest_of_them(
    client: TestClient, agent: str
) -> None:
    # Two people may share a name (docs/memory.md §2): a look-up by name takes the oldest, and
    # so does an imported turn's speaker, linked to one person, not to every namesake.
    people = f"/v1/agents/{agent}/people"
    first = client.post(people, json={"name": "Dana Smith"}).json()
    second = client.post(people, json={"name": "dana smith"}).json()

    report = import_episodes(
        client,
        agent,
        {"speaker": "DANA SMITH", "text": "The bank feed broke again."},
        {"speaker": "Dana Smith", "text": "It is fixed now."},
    )

    for item in report["episodes"]:
        detail = client.get(f"/v1/agents/{agent}/episodes/{item['id']}").json()
        assert [p["id"] for p in detail["people"]] == [first["id"]]
    namesake = client.get(f"{people}/{second['id']}").json()
    assert namesake["last_seen"] == second["last_seen"]
    assert client.get(people).json()["count"] == 2


def test_episodes_are_listed_by_speaker_in_any_case(client: TestClient, agent: str) -> None:
    # People are found by name in any case; so are a speaker's episodes.
    import_episodes(
        client,
        agent,
        {"speaker": "Priya Patel", "text": "The bank feed broke again."},
        {"speaker": "assistant", "text": "I will reconcile it by hand."},
    )

    for asked in ("Priya Patel", "priya patel", "PRIYA PATEL "):
        found = _episodes(client, agent, speaker=asked)
        assert [e["text"] for e in found] == ["The bank feed broke again."], asked
    assert _episodes(client, agent, speaker="Priya") == []


def test_ending_a_batchs_sessions_skips_a_key_only_an_episode_already_held_names(
    client: TestClient, agent: str
) -> None:
    # An item already held keeps its stored session; the key it names now has no episode. The
    # batch's new episode was written and then the import answered 404 "no session 'later'".
    import_episodes(
        client, agent, {"external_id": "a", "speaker": "Sam", "text": "hi", "session": "s1"}
    )
    response = client.post(
        f"/v1/agents/{agent}/episodes",
        json={
            "episodes": [
                {"external_id": "b", "speaker": "Sam", "text": "bye", "session": "s1"},
                {"external_id": "a", "speaker": "Sam", "text": "hi", "session": "later"},
            ],
            "end_sessions": True,
        },
    )

    assert response.status_code == 201, response.text
    report = response.json()
    assert (report["created"], report["existing"]) == (1, 1)
    assert [s["session"] for s in report["sessions_ended"]] == ["s1"]
    assert {e["external_id"] for e in _episodes(client, agent, session="s1")} == {"a", "b"}
