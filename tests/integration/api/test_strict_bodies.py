"""Over HTTP: a string for a boolean, a boolean for an integer and a string, a boolean or a number
past JSON's (NaN, Infinity, 1e400) for a float are 422s naming the field, and nothing is written;
query-string flags and floats, and integers for floats still parse
(tests/unit/api/test_strict_bodies.py walks every request model and every pack model)."""

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
        (
            "beliefs",
            {"statement": "Sky is blue", "category": "contextual", "strength": "0.8"},
            "strength",
            "float_type",
        ),
        (
            "beliefs",
            {"statement": "Sky is blue", "category": "contextual", "importance": True},
            "importance",
            "float_type",
        ),
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
    tense = client.get(f"/v1/agents/{agent}/beliefs?min_tension=0.5")
    assert tense.status_code == 200, tense.text
    assert tense.json()["data"] == []
    note = client.post(
        f"/v1/agents/{agent}/working-memory/notes", json={"content": "call back", "priority": 7}
    )
    assert note.status_code == 201, note.text
    assert note.json()["priority"] == 7


@pytest.mark.parametrize("number", ["1e400", "-1e400", "NaN", "Infinity", "-Infinity"])
def test_a_float_past_json_s_numbers_is_a_422_and_nothing_is_written(
    client: TestClient, agent: str, number: str
) -> None:
    """Python's JSON reader takes NaN and Infinity and reads 1e400 as infinity: none of them is
    stored (a bounded field said "less than or equal to 1" of NaN; now it is the number)."""
    body = '{"statement": "Sky is blue", "category": "contextual", "strength": ' + number + "}"
    refused = client.post(
        f"/v1/agents/{agent}/beliefs",
        content=body,
        headers={"content-type": "application/json"},
    )
    assert _problems(refused) == [(["body", "strength"], "finite_number")]
    assert client.get(f"/v1/agents/{agent}/beliefs").json()["data"] == []


def _pack(belief: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": "float-checks",
        "version": 1,
        "industry": "testing",
        "description": "A pack for the float checks.",
        "beliefs": [{"key": "b", "statement": "Ledgers balance.", "category": "ethical", **belief}],
    }


@pytest.mark.parametrize(
    ("belief", "location"),
    [
        ({"strength": "0.5"}, ["body", "beliefs", 0, "strength"]),
        ({"importance": False}, ["body", "beliefs", 0, "importance"]),
        ({"contexts": {"month_end": "0.9"}}, ["body", "beliefs", 0, "contexts", "month_end"]),
    ],
)
def test_a_pack_document_s_float_given_as_text_is_a_422_and_nothing_is_loaded(
    client: TestClient, agent: str, belief: dict[str, Any], location: list[str | int]
) -> None:
    refused = client.post(f"/v1/agents/{agent}/packs", json=_pack(belief))
    assert refused.status_code == 422, refused.text
    assert refused.json()["error"]["code"] == "seed_file_invalid"
    locations = [e["location"] for e in refused.json()["error"]["details"]["errors"]]
    assert locations == [location]
    assert client.get(f"/v1/agents/{agent}/packs").json() == []
    assert client.get(f"/v1/agents/{agent}/beliefs").json()["data"] == []


def test_a_pack_document_s_integer_for_a_float_still_loads(client: TestClient, agent: str) -> None:
    loaded = client.post(f"/v1/agents/{agent}/packs", json=_pack({"importance": 1}))
    assert loaded.status_code == 200, loaded.text
    [belief] = client.get(f"/v1/agents/{agent}/beliefs").json()["data"]
    assert belief["importance"] == 1.0
