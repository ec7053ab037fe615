"""What a review of the API's bad-input handling found (2026-11-29): times outside what the
calendar and the driver can hold, a tool call's arguments too long for its turn, an inactive
belief still editable, reads of an unknown agent answering an empty 200, 413 missing from the
operations without a body, preferences JSON cannot hold (stored as null), a context given twice
(the last silently kept), evidence or a reflection naming an episode the agent does not have
(kept dangling; reflected on nothing), packs asked for without the profile a full birth needs
(silently not loaded), control characters in names and statements. Each is a 4xx naming what
was wrong now, and nothing is written."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from app.loop.models import ApprovalAnswer, ChatRequest

FAR_TIMES = ["9999-12-01T00:00:00Z", "9999-12-31T23:59:59-05:00", "0001-01-01T00:00:00+05:00"]


def _locations(response_json: dict[str, object]) -> list[list[object]]:
    error = response_json["error"]
    assert isinstance(error, dict)
    return [e["location"] for e in error["details"]["errors"]]


@pytest.mark.parametrize("at", FAR_TIMES)
def test_a_time_out_of_range_is_422_naming_the_field(
    client: TestClient, agent: str, at: str
) -> None:
    memory = client.get(f"/v1/agents/{agent}/working-memory", params={"at": at})
    assert memory.status_code == 422, memory.text
    assert _locations(memory.json()) == [["query", "at"]]

    episode = {"speaker": "Ann", "text": "We closed the books.", "occurred_at": at}
    imported = client.post(
        f"/v1/agents/{agent}/episodes",
        json={"episodes": [{"speaker": "Ann", "text": "hi"}, episode]},
    )
    assert imported.status_code == 422, imported.text
    assert _locations(imported.json()) == [["body", "episodes", 1, "occurred_at"]]
    assert client.get(f"/v1/agents/{agent}/episodes").json() == []

    reflected = client.post(f"/v1/agents/{agent}/reflect", json={"since": at})
    assert reflected.status_code == 422, reflected.text
    assert _locations(reflected.json()) == [["body", "since"]]


def test_times_inside_the_range_are_kept_as_given(client: TestClient, agent: str) -> None:
    naive = client.get(f"/v1/agents/{agent}/working-memory", params={"at": "2026-05-29T10:00:00"})
    offset = client.get(
        f"/v1/agents/{agent}/working-memory", params={"at": "2026-05-29T12:00:00+02:00"}
    )

    assert naive.status_code == offset.status_code == 200, (naive.text, offset.text)
    instants = {datetime.fromisoformat(r.json()["at"]) for r in (naive, offset)}
    assert instants == {datetime(2026, 5, 29, 10, tzinfo=UTC)}


@pytest.mark.parametrize(
    ("body", "location"),
    [
        ({"connection": "nope", "tool": "t", "arguments": {"x": "a" * 9000}}, "arguments"),
        ({"connection": "nope", "tool": "t", "speaker": "   "}, "speaker"),
        ({"connection": "nope", "tool": "t", "session": "   "}, "session"),
    ],
)
def test_a_tool_call_that_cannot_be_a_turn_is_422_naming_the_field(
    client: TestClient, agent: str, body: dict[str, object], location: str
) -> None:
    response = client.post(f"/v1/agents/{agent}/actions", json=body)

    assert response.status_code == 422, response.text
    assert _locations(response.json()) == [["body", location]]
    assert client.get(f"/v1/agents/{agent}/actions").json()["count"] == 0


def test_an_inactive_belief_takes_no_edits(client: TestClient, agent: str) -> None:
    created = client.post(
        f"/v1/agents/{agent}/beliefs",
        json={"statement": "Accruals are booked monthly.", "category": "contextual"},
    )
    assert created.status_code == 201, created.text
    belief = f"/v1/agents/{agent}/beliefs/{created.json()['id']}"
    assert client.patch(belief, json={"is_active": False}).status_code == 200

    for change in ({"statement": "new"}, {"importance": 0.9}, {"supervision_mode": "guidance"}):
        response = client.patch(belief, json=change)
        assert response.status_code == 409, response.text
        assert response.json()["error"]["code"] == "belief_inactive"
    assert client.get(belief).json()["belief"]["statement"] == "Accruals are booked monthly."


@pytest.mark.parametrize(
    "path", ["beliefs", "graph", "events", "revisions", "analytics", "revisions/no-such-revision"]
)
def test_reads_of_an_unknown_agent_are_404(client: TestClient, path: str) -> None:
    response = client.get(f"/v1/agents/{uuid.uuid4()}/{path}")

    assert response.status_code == 404, response.text
    assert response.json()["error"]["code"] == "agent_not_found"


def test_an_agent_with_nothing_yet_reads_empty(client: TestClient, agent: str) -> None:
    for path in ("beliefs?category=aesthetic", "events?after_seq=100000", "revisions"):
        assert client.get(f"/v1/agents/{agent}/{path}").status_code == 200, path
    assert client.get(f"/v1/agents/{agent}/revisions/no-such-revision").status_code == 404


def test_every_operation_declares_413(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]

    missing = [
        f"{method.upper()} {path}"
        for path, operations in paths.items()
        for method, operation in operations.items()
        if "413" not in operation["responses"]
    ]
    assert missing == []


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity"])
def test_a_preference_json_cannot_hold_is_422(client: TestClient, agent: str, value: str) -> None:
    body = '{"name": "Ann", "preferences": {"x": ' + value + "}}"
    response = client.post(
        f"/v1/agents/{agent}/people", content=body, headers={"content-type": "application/json"}
    )

    assert response.status_code == 422, response.text
    assert ["body", "preferences", "x"] in [loc[:3] for loc in _locations(response.json())]
    assert client.get(f"/v1/agents/{agent}/people").json()["count"] == 0


def test_a_context_given_twice_is_422(client: TestClient, agent: str) -> None:
    twice = [{"name": "month_end", "strength": 0.4}, {"name": "month_end", "strength": 0.9}]
    response = client.post(
        f"/v1/agents/{agent}/beliefs",
        json={"statement": "Close early.", "category": "contextual", "contexts": twice},
    )

    assert response.status_code == 422, response.text
    assert _locations(response.json()) == [["body", "contexts"]]
    assert client.get(f"/v1/agents/{agent}/beliefs").json()["count"] == 0


def test_evidence_from_an_unknown_episode_is_404_and_writes_nothing(
    client: TestClient, agent: str
) -> None:
    created = client.post(
        f"/v1/agents/{agent}/beliefs",
        json={"statement": "Invoices match orders.", "category": "contextual"},
    )
    belief = f"/v1/agents/{agent}/beliefs/{created.json()['id']}"
    before = client.get(belief).json()

    response = client.post(
        f"{belief}/evidence",
        json={"text": "they did not", "stance": "contradicting", "episode_id": "no-such-episode"},
    )

    assert response.status_code == 404, response.text
    assert response.json()["error"]["details"]["episode_id"] == "no-such-episode"
    after = client.get(belief).json()
    assert after["evidence"] == before["evidence"] == []
    assert after["belief"]["tension"] == before["belief"]["tension"]


def test_reflecting_on_an_unknown_episode_is_404(client: TestClient, agent: str) -> None:
    response = client.post(f"/v1/agents/{agent}/reflect", json={"episode_ids": ["no-such"]})

    assert response.status_code == 404, response.text
    assert response.json()["error"]["details"]["episode_id"] == "no-such"


def test_packs_without_a_profile_are_422_and_create_no_agent(client: TestClient) -> None:
    name = f"packs-alone-{uuid.uuid4()}"
    response = client.post("/v1/agents", json={"name": name, "packs": ["procurement-basics"]})

    assert response.status_code == 422, response.text
    assert "profile" in response.json()["error"]["message"]
    listed = client.get("/v1/agents", params={"limit": 500}).json()["data"]
    assert name not in [a["name"] for a in listed]


def test_control_characters_in_names_and_statements_are_422(client: TestClient, agent: str) -> None:
    made = client.post("/v1/agents", json={"name": "review-\u0000\u0007"})
    person = client.post(f"/v1/agents/{agent}/people", json={"name": "Ann\u001b[31m"})
    belief = client.post(
        f"/v1/agents/{agent}/beliefs",
        json={"statement": "Close\u0000 early.", "category": "ethical"},
    )

    for response, location in ((made, "name"), (person, "name"), (belief, "statement")):
        assert response.status_code == 422, response.text
        assert _locations(response.json()) == [["body", location]]
        assert "control characters" in response.json()["error"]["message"]
    assert client.get(f"/v1/agents/{agent}/people").json()["count"] == 0
    tabbed = client.post(
        f"/v1/agents/{agent}/beliefs", json={"statement": "Close\tearly.\n", "category": "ethical"}
    )
    assert tabbed.status_code == 201, tabbed.text


@pytest.mark.parametrize(
    ("body", "location"),
    [
        ({"message": "The Berlin office opened in 2019\u007f."}, ["body", "message"]),
        (
            {"message": "Please remember that the audit is on Monday", "speaker": "Bob\u0001"},
            ["body", "speaker"],
        ),
        ({"message": "Hello", "session": "s\u0000"}, ["body", "session"]),
    ],
)
def test_a_chat_turn_with_a_control_character_is_422_before_it_runs(
    client: TestClient, agent: str, body: dict[str, str], location: list[str]
) -> None:
    """A claim with DEL was a 500 (its belief refused inside the turn), and a speaker with a
    control character was refused only after the turn had noted a task in working memory."""
    response = client.post(f"/v1/agents/{agent}/chat", json=body)

    assert response.status_code == 422, response.text
    assert _locations(response.json()) == [location]
    memory = client.get(f"/v1/agents/{agent}/working-memory").json()
    assert memory["notes"] == [] and memory["tasks"] == []
    assert client.get(f"/v1/agents/{agent}/episodes").json() == []


def test_messages_that_come_by_socket_refuse_control_characters_too() -> None:
    """A WebSocket's messages are not JSON bodies of a route: their models refuse the same."""
    with pytest.raises(ValidationError, match="control characters"):
        ChatRequest(message="Close the books\u0007")
    with pytest.raises(ValidationError, match="control characters"):
        ApprovalAnswer(action="approve", speaker="Dana\u001fSmith")
    assert ChatRequest(message="Two lines\n\tand a tab").message == "Two lines\n\tand a tab"


def test_a_chat_socket_answers_bad_frames_and_stays_open(client: TestClient, agent: str) -> None:
    """Text that is not JSON, a binary frame and a message JSON cannot carry back each dropped
    the socket with no frame (the handler raised); now each is an invalid_input frame."""
    with client.websocket_connect(f"/v1/agents/{agent}/ws/chat") as socket:
        socket.send_text("{not json")
        not_json = socket.receive_json()
        socket.send_bytes(b"\x00\x01")
        binary = socket.receive_json()
        socket.send_text('{"message": "rev\\ud800enue"}')
        surrogate = socket.receive_json()
        socket.send_json({"message": "What do you believe about accruals?"})
        while (event := socket.receive_json())["type"] not in ("result", "error"):
            pass

    for frame in (not_json, binary, surrogate):
        assert frame["type"] == "error" and frame["error"]["code"] == "invalid_input", frame
    assert "input" not in json.dumps(surrogate["error"]["details"])
    assert event["type"] == "result", event


def test_a_session_key_with_a_slash_can_be_closed(client: TestClient, agent: str) -> None:
    """Chat takes any session key, "/" included, but the close route could not be reached."""
    turn = client.post(
        f"/v1/agents/{agent}/chat", json={"message": "Hello there", "session": "team/alpha"}
    )
    assert turn.status_code == 200, turn.text

    for path in ("team%2Falpha", "team/alpha"):
        closed = client.post(f"/v1/agents/{agent}/sessions/{path}/close")
        assert closed.status_code == 200, closed.text
    unknown = client.post(f"/v1/agents/{agent}/sessions/team%2Fbeta/close")
    assert unknown.status_code == 404, unknown.text
