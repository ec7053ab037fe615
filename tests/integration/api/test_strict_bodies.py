"""Over HTTP: a string for a boolean and a boolean for an integer are 422s naming the field, and
nothing is written; query-string flags and integers for floats still parse
(tests/unit/api/test_strict_bodies.py walks every request model)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient


def _problems(response: Any) -> list[tuple[list[str | int], str]]:
    assert response.status_code == 422, response.text
    assert response.json()["error"]["code"] == "invalid_input"
    errors = response.json()["error"]["details"]["errors"]
    return [(error["location"], error["type"]) for error in errors]


@pytest.mark.parametrize(
    ("path", "body", "field", "error_type"),
    [
        (
            "working-memory/notes",
            {"content": "call back", "priority": True},
            "priority",
            "int_type",
        ),
        ("working-memory/notes", {"content": "call back", "ttl_s": False}, "ttl_s", "int_type"),
        ("guardian/check", {"text": "hello", "audit": "yes"}, "audit", "bool_type"),
        (
            "beliefs",
            {"statement": "Sky is blue", "category": "contextual", "is_core": "no"},
            "is_core",
            "bool_type",
        ),
        ("reflect", {"dry_run": "true"}, "dry_run", "bool_type"),
    ],
)
def test_a_wrong_type_is_a_422_naming_the_field_and_nothing_is_written(
    client: TestClient, agent: str, path: str, body: dict[str, Any], field: str, error_type: str
) -> None:
    refused = client.post(f"/v1/agents/{agent}/{path}", json=body)
    assert _problems(refused) == [(["body", field], error_type)]
    assert client.get(f"/v1/agents/{agent}/working-memory").json()["notes"] == []
    assert client.get(f"/v1/agents/{agent}/beliefs").json()["data"] == []


def test_query_flags_and_integers_for_floats_still_parse(client: TestClient, agent: str) -> None:
    created = client.post(
        f"/v1/agents/{agent}/beliefs",
        json={"statement": "Sky is blue", "category": "contextual", "strength": 1, "is_core": True},
    )
    assert created.status_code == 201, created.text
    assert created.json()["strength"] == 1.0
    listed = client.get(f"/v1/agents/{agent}/beliefs?active=true")
    assert [b["statement"] for b in listed.json()["data"]] == ["Sky is blue"]
    note = client.post(
        f"/v1/agents/{agent}/working-memory/notes", json={"content": "call back", "priority": 7}
    )
    assert note.status_code == 201, note.text
    assert note.json()["priority"] == 7
