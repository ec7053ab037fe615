"""One way to end a session: ``POST …/sessions/{s}/end`` is the whole close (summary, lessons,
peak-end salience, reflection when due), the same as ``…/close``; it was salience only, so a
user who called ``end`` got no summary."""

from __future__ import annotations

from app.graph.client import GraphClient
from tests.integration.loop.conftest import Agent


async def test_end_closes_a_chat_session_with_its_summary(
    agent: Agent, test_graph: GraphClient
) -> None:
    agent.chat("Our office opens at eight in the morning.", session="by-end", speaker="Dana Fox")
    last = agent.chat("The auditors arrive on the first of May.", session="by-end")

    response = agent.client.post(f"/v1/agents/{agent.id}/sessions/by-end/end")

    assert response.status_code == 200, response.text
    ended = response.json()
    assert ended["trigger"] == "explicit" and ended["episodes"] == 2
    assert ended["summary"].startswith("Session by-end: 2 turn(s) with Dana Fox.")
    assert ended["end_id"] == last["turn_id"]
    assert "reflection" in ended and "lessons" in ended
    [stored] = await test_graph.read("sessions/get_session_node", agent_id=agent.id, key="by-end")
    assert stored["summary"] == ended["summary"] and stored["close_trigger"] == "explicit"

    again = agent.client.post(f"/v1/agents/{agent.id}/sessions/by-end/close")
    assert again.status_code == 200, again.text
    assert {k: again.json()[k] for k in ("summary", "episodes", "peak_id", "end_id")} == {
        k: ended[k] for k in ("summary", "episodes", "peak_id", "end_id")
    }


def test_end_closes_an_imported_session_and_sets_its_salience(agent: Agent) -> None:
    imported = agent.client.post(
        f"/v1/agents/{agent.id}/episodes",
        json={
            "episodes": [
                {
                    "speaker": "Priya",
                    "text": "The close slipped again because the bank feed broke.",
                    "session": "imported",
                    "occurred_at": "2026-01-31T17:00:00Z",
                    "emotional_valence": -0.8,
                },
                {
                    "speaker": "assistant",
                    "text": "I will reconcile the bank feed by hand until it is fixed.",
                    "session": "imported",
                    "occurred_at": "2026-01-31T17:01:00Z",
                },
            ]
        },
    )
    assert imported.status_code == 201, imported.text

    response = agent.client.post(f"/v1/agents/{agent.id}/sessions/imported/end")

    assert response.status_code == 200, response.text
    ended = response.json()
    assert ended["episodes"] == 2 and ended["summary"].startswith("Session imported:")
    stored = agent.get("/episodes", session="imported")
    assert {e["is_peak"] for e in stored} == {True, False}
    assert any(e["is_end"] for e in stored)
    assert agent.client.post(f"/v1/agents/{agent.id}/sessions/none/end").status_code == 404


def test_a_session_key_is_read_as_the_turns_stored_it(agent: Agent) -> None:
    # A turn trims its session key: the same key, spaces and all, closes that session.
    agent.chat("Our office opens at eight in the morning.", session=" padded ")
    closed = agent.client.post(f"/v1/agents/{agent.id}/sessions/%20padded%20/close")
    assert closed.status_code == 200, closed.text
    assert closed.json()["session"] == "padded"

    # A blank key, or one with a control character, is a 422 naming it, not a 404.
    for key in ("%20%20", "a%00b"):
        bad = agent.client.post(f"/v1/agents/{agent.id}/sessions/{key}/close")
        assert bad.status_code == 422, bad.text
        [entry] = bad.json()["error"]["details"]["errors"]
        assert entry["location"] == ["path", "session"]
