"""People, frames, working memory, rules and self through the REST API (real Neo4j)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support.agents import MakeAgent


def _problem_fields(response: Any) -> set[str]:
    """Every name in the locations of the problems of a 422 answer."""
    errors = response.json()["error"]["details"]["errors"]
    return {str(part) for error in errors for part in error["location"]}


def test_people_through_the_api(client: TestClient, agent: str) -> None:
    url = f"/v1/agents/{agent}/people"
    created = client.post(
        url,
        json={
            "name": "Maria Lopez",
            "email": "maria@example.com",
            "seniority": "manager",
            "preferences": {"tone": "brief"},
        },
    )
    assert created.status_code == 201, created.text
    person = created.json()
    assert person["authority"] == 0.7
    assert person["relationship_value"] == pytest.approx(0.6 * 0.7 + 0.2 * 0.5)
    assert person["affect"] == {"valence": 0.0, "arousal": 0.0, "stress": 0.0}

    patched = client.patch(
        f"{url}/{person['id']}",
        json={"seniority": "c_suite", "knowledge_level": "expert", "preferences": {"lang": "en"}},
    )
    assert patched.status_code == 200, patched.text
    assert patched.json()["authority"] == 0.95
    assert patched.json()["preferences"] == {"tone": "brief", "lang": "en"}
    assert client.get(f"{url}/{person['id']}").json() == patched.json()
    listed = client.get(url, params={"text": "maria", "sort": "name"}).json()
    assert listed["count"] == 1 and listed["data"][0]["id"] == person["id"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "   "}, "name"),
        ({"name": "X", "seniority": "boss"}, "seniority"),
        ({"name": "X", "email": "not-an-email"}, "email"),
        ({"name": "X", "trust": 1.5}, "trust"),
        ({"name": "X", "affect": {"valence": -2}}, "valence"),
        ({"name": "X", "birth_source": "full"}, "birth_source"),
        ({"name": "X", "preferences": {"a": {"nested": 1}}}, "preferences"),
    ],
)
def test_bad_people_are_refused_with_the_field_named(
    client: TestClient, agent: str, body: dict[str, Any], field: str
) -> None:
    response = client.post(f"/v1/agents/{agent}/people", json=body)

    assert response.status_code == 422, response.text
    assert field in _problem_fields(response)
    assert client.get(f"/v1/agents/{agent}/people").json()["count"] == 0


def test_a_bad_patch_changes_nothing(client: TestClient, agent: str) -> None:
    person = client.post(f"/v1/agents/{agent}/people", json={"name": "Sam"}).json()
    url = f"/v1/agents/{agent}/people/{person['id']}"

    for body, field in (({"name": None}, "name"), ({"seniority": "x", "trust": 0.9}, "seniority")):
        response = client.patch(url, json=body)
        assert response.status_code == 422, response.text
        assert field in _problem_fields(response)
    assert client.get(url).json() == person


@pytest.mark.parametrize(
    ("preferences", "message"),
    [
        (
            {"desk": {"floor": 3}},
            "preference 'desk' must be a string, a number, a boolean or a list of strings",
        ),
        ({"tags": ["x"] * 101}, "preference 'tags' holds 101 strings (at most 100)"),
    ],
)
def test_a_preference_of_the_wrong_kind_or_size_is_one_clear_error(
    client: TestClient, agent: str, preferences: dict[str, Any], message: str
) -> None:
    # A nested map was refused once per kind a preference may be, each "located" at a type
    # name (preferences.desk.constrained-str, ...); a list of strings had no bound at all.
    person = client.post(f"/v1/agents/{agent}/people", json={"name": "Sam"}).json()
    url = f"/v1/agents/{agent}/people/{person['id']}"

    for response in (
        client.post(f"/v1/agents/{agent}/people", json={"name": "Kim", "preferences": preferences}),
        client.patch(url, json={"preferences": preferences}),
    ):
        assert response.status_code == 422, response.text
        errors = response.json()["error"]["details"]["errors"]
        assert len(errors) == 1 and message in errors[0]["message"], errors
        assert errors[0]["location"][:2] == ["body", "preferences"]
    assert client.get(url).json() == person
    assert client.get(f"/v1/agents/{agent}/people").json()["count"] == 1


def test_people_of_another_agent_and_unknown_agents(
    client: TestClient, agent: str, other_agent: str
) -> None:
    person = client.post(f"/v1/agents/{agent}/people", json={"name": "Secret"}).json()

    foreign = client.get(f"/v1/agents/{other_agent}/people/{person['id']}")
    assert foreign.status_code == 404
    assert foreign.json()["error"]["code"] == "person_not_found"
    patch = client.patch(f"/v1/agents/{other_agent}/people/{person['id']}", json={"trust": 0.1})
    assert patch.status_code == 404
    assert client.get(f"/v1/agents/{other_agent}/people").json()["count"] == 0
    missing = f"missing-{uuid.uuid4()}"
    for response in (
        client.get(f"/v1/agents/{missing}/people"),
        client.post(f"/v1/agents/{missing}/people", json={"name": "Ghost"}),
        client.get(f"/v1/agents/{missing}/people/{person['id']}"),
        client.get(f"/v1/agents/{missing}/frames"),
        client.get(f"/v1/agents/{missing}/working-memory"),
        client.post(f"/v1/agents/{missing}/working-memory/tasks", json={"description": "x"}),
        client.post(f"/v1/agents/{missing}/working-memory/notes", json={"content": "x"}),
        client.get(f"/v1/agents/{missing}/rules"),
        client.post(f"/v1/agents/{missing}/rules", json={"trigger_concept": "a", "content": "b"}),
        client.get(f"/v1/agents/{missing}/self"),
    ):
        assert response.status_code == 404, response.text
        assert response.json()["error"]["code"] == "agent_not_found"


def test_frames_and_selection(client: TestClient, agent: str) -> None:
    empty = client.get(f"/v1/agents/{agent}/frames").json()
    assert empty == {"data": [], "count": 0, "selection": None}

    chosen = client.get(
        f"/v1/agents/{agent}/frames", params={"text": "The sync is failing with an error"}
    ).json()
    selection = chosen["selection"]
    assert selection["selection"]["key"] == "debug"
    assert selection["selection"]["patterns"] == ["error", "failing"]
    assert selection["frame"]["default_stakes"] == "medium"
    assert selection["from_defaults"] is True
    counts = {s["key"]: s["matches"] for s in selection["selection"]["scores"]}
    assert counts["debug"] == 2 and counts["conversation"] == 0
    assert client.get(f"/v1/agents/{agent}/frames", params={"text": ""}).status_code == 422


_PATHS = "/v1/agents/{agent_id}/working-memory/tasks"


def test_working_memory_through_the_api(client: TestClient, agent: str) -> None:
    base = f"/v1/agents/{agent}/working-memory"
    first = client.post(f"{base}/tasks", json={"description": "Close March"}).json()
    for n in range(4):
        added = client.post(f"{base}/tasks", json={"description": f"task {n}"})
        assert added.status_code == 201, added.text
    assert added.json()["evicted"] == [first["task"]["id"]]
    note = client.post(f"{base}/notes", json={"content": "CFO wants numbers", "priority": 9})
    assert note.status_code == 201, note.text
    entity = client.post(f"{base}/entities", json={"name": "ACME Ltd", "kind": "company"})
    assert entity.status_code == 200, entity.text
    done = client.post(f"{base}/tasks/{added.json()['task']['id']}/complete")
    assert done.status_code == 200 and done.json()["state"] == "completed"

    memory = client.get(base, params={"at": "2026-06-30T12:00:00Z"}).json()
    assert [t["description"] for t in memory["tasks"]] == ["task 2", "task 1", "task 0"]
    assert memory["objects"]["temporal"]["is_quarter_end"] is True
    assert memory["objects"]["temporal"]["urgency_multiplier"] == 2.0
    assert memory["objects"]["entities"][0]["name"] == "ACME Ltd"
    now = client.get(base).json()
    assert [n["content"] for n in now["notes"]] == ["CFO wants numbers"]
    unknown = client.post(f"{base}/tasks/{uuid.uuid4()}/complete")
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "task_not_found"

    # The task the fourth one pushed out is no longer open: completing it is a 409 naming its
    # state, and it stays evicted.
    evicted = client.post(f"{base}/tasks/{first['task']['id']}/complete")
    assert evicted.status_code == 409, evicted.text
    error = evicted.json()["error"]
    assert error["code"] == "task_closed" and error["details"]["state"] == "evicted"
    assert "evicted" in error["message"]
    tasks = client.get(f"{base}/tasks", params={"state": "evicted"}).json()["data"]
    assert [t["id"] for t in tasks] == [first["task"]["id"]]
    assert [m["state"] for m in tasks[0]["history"]] == ["planning", "evicted"]
    operation = client.get("/openapi.json").json()["paths"][f"{_PATHS}/{{task_id}}/complete"]
    assert "task_closed" in operation["post"]["responses"]["409"]["description"]


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("tasks", {"description": ""}, "description"),
        ("tasks", {"description": "x", "state": "done"}, "state"),
        ("notes", {"content": "x", "priority": 11}, "priority"),
        ("notes", {"content": "x", "ttl_s": 0}, "ttl_s"),
        ("notes", {"content": "x", "ttl_s": 10**9}, "ttl_s"),
        ("entities", {"name": " "}, "name"),
    ],
)
def test_bad_working_memory_input_writes_nothing(
    client: TestClient, agent: str, path: str, body: dict[str, Any], field: str
) -> None:
    base = f"/v1/agents/{agent}/working-memory"
    response = client.post(f"{base}/{path}", json=body)

    assert response.status_code == 422, response.text
    assert field in _problem_fields(response)
    memory = client.get(base).json()
    assert memory["tasks"] == [] and memory["notes"] == []
    assert memory["objects"]["entities"] == []


def test_rules_through_the_api(client: TestClient, agent: str, other_agent: str) -> None:
    url = f"/v1/agents/{agent}/rules"
    created = client.post(
        url, json={"trigger_concept": "vendor onboarding", "content": "Check the W-9 first"}
    )
    assert created.status_code == 201, created.text
    rule = created.json()
    assert rule["effective_confidence"] == rule["confidence"] == 0.8  # seed 003
    validated = client.post(f"{url}/{rule['id']}/validate").json()
    assert validated["validation_count"] == 1 and validated["last_validated"]
    assert client.get(url).json()["count"] == 1
    assert client.get(f"/v1/agents/{other_agent}/rules").json()["count"] == 0
    assert client.get(f"/v1/agents/{other_agent}/rules/{rule['id']}").status_code == 404

    bad = client.post(url, json={"trigger_concept": "x", "content": "y", "source": "oracle"})
    assert bad.status_code == 422 and "source" in _problem_fields(bad)
    unknown = client.post(
        url, json={"trigger_concept": "x", "content": "y", "derived_from": ["nope"]}
    )
    assert unknown.status_code == 422 and "derived_from" in _problem_fields(unknown)
    assert client.get(url).json()["count"] == 1


def test_self_through_the_api(client: TestClient, make_agent: MakeAgent) -> None:
    agent = make_agent("Api Ada")
    view = client.get(f"/v1/agents/{agent}/self")
    assert view.status_code == 200, view.text
    assert view.json()["identity"]["name"] == "Api Ada"
    assert view.json()["identity"]["terminal_creed"] == []

    goal = client.patch(f"/v1/agents/{agent}/self", json={"identity_goal": "Be useful"})
    assert goal.status_code == 200 and goal.json()["identity"]["identity_goal"] == "Be useful"
    refused = client.patch(f"/v1/agents/{agent}/self", json={"terminal_creed": ["Obey"]})
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "creed_immutable"
    assert client.get(f"/v1/agents/{agent}/self").json()["identity"]["terminal_creed"] == []
    blank = client.patch(f"/v1/agents/{agent}/self", json={"name": " "})
    assert blank.status_code == 422 and "name" in _problem_fields(blank)
