"""Every entry of an error's ``details.errors`` has one shape, whatever found the problem
(docs/api.md, "Error entries"): exactly ``location`` (path parts), ``message`` and ``type``.
Several kinds of error are walked through the real API and checked against that shape and the
OpenAPI document's ``ErrorEntry`` schema."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from jsonschema import Draft202012Validator

from app.graph.causality import HEADER

ENTRY_KEYS = {"location", "message", "type"}

_BELIEF = {"statement": "Invoices are approved twice.", "category": "contextual"}
_PACK = {"name": "entry-shapes", "version": 1, "industry": "testing", "description": "Shapes."}


def _censor_pattern(client: TestClient, agent: str) -> Any:
    body = {"pattern": "(unclosed", "reason": "r"}
    return client.post(f"/v1/agents/{agent}/censors", json=body)


def _request_validation(client: TestClient, agent: str) -> Any:
    return client.get(f"/v1/agents/{agent}/beliefs", params={"skip": 2**70})


def _pack_body(client: TestClient, agent: str) -> Any:
    beliefs = [{**_BELIEF, "key": "a"}, {**_BELIEF, "key": "a", "supports": [{"key": "ghost"}]}]
    return client.post(f"/v1/agents/{agent}/packs", json={**_PACK, "beliefs": beliefs})


def _episode_about(client: TestClient, agent: str) -> Any:
    episode = {"speaker": "Sam", "text": "About a belief.", "about": ["no-such-belief"]}
    return client.post(f"/v1/agents/{agent}/episodes", json={"episodes": [episode]})


def _corpus_file(client: TestClient, agent: str) -> Any:
    content = json.dumps({"text": "fine"}) + "\n" + json.dumps({"title": "no text"}) + "\n"
    files = [{"name": "bad.jsonl", "content": content}]
    return client.post(f"/v1/agents/{agent}/research/sources", json={"files": files})


def _analytics_params(client: TestClient, agent: str) -> Any:
    url = f"/v1/agents/{agent}/analytics/longest_lineages"
    return client.get(url, params={"limit": "many"})


def _bookmark_header(client: TestClient, agent: str) -> Any:
    return client.get(f"/v1/agents/{agent}/beliefs", headers={HEADER: "not a bookmark"})


def _research_source(client: TestClient, agent: str) -> Any:
    body = {"query": "tides", "sources": ["corpus", "no-such-source"]}
    return client.post(f"/v1/agents/{agent}/research/search", json=body)


# (how to provoke it, its code, the first entry's location and type, and what the top-level
# message starts with: the first problem, as before).
KINDS = {
    "request validation": (_request_validation, "invalid_input", ["query", "skip"], None, None),
    "censor pattern": (
        _censor_pattern,
        "censor_pattern_invalid",
        ["body", "pattern"],
        "pattern_refused",
        "censor pattern '(unclosed' refused",
    ),
    "pack body": (
        _pack_body,
        "seed_file_invalid",
        ["body", "beliefs", 1, "key"],
        "duplicate_key",
        "request body: beliefs[1].key: duplicate key 'a' (and 1 more)",
    ),
    "episode about": (
        _episode_about,
        "invalid_input",
        ["body", "episodes", 0, "about", 0],
        "not_found",
        "episodes[0].about: no belief 'no-such-belief' in this agent",
    ),
    "corpus file": (
        _corpus_file,
        "corpus_file_invalid",
        ["file", "bad.jsonl", "line", 2, "text"],
        "missing",
        "bad.jsonl line 2: text: Field required",
    ),
    "analytics params": (
        _analytics_params,
        "invalid_input",
        ["params", "limit"],
        "value_error",
        "invalid parameters for analytics 'longest_lineages': limit:",
    ),
    "research source": (
        _research_source,
        "unknown_research_source",
        ["body", "sources"],
        "not_found",
        "sources: no research source named 'no-such-source'",
    ),
    "bookmark header": (
        _bookmark_header,
        "invalid_bookmark",
        ["header", HEADER],
        "invalid_bookmark",
        f"invalid {HEADER} header",
    ),
}


@pytest.fixture(scope="module")
def entry_schema(client: TestClient) -> Draft202012Validator:
    """The OpenAPI document's schema of the error body, as the API publishes it."""
    document = client.get("/openapi.json").json()
    schema = {"$ref": "#/components/schemas/ErrorResponse", "components": document["components"]}
    return Draft202012Validator(schema)


@pytest.mark.parametrize("kind", KINDS)
def test_every_entry_has_exactly_location_message_and_type(
    client: TestClient, agent: str, entry_schema: Draft202012Validator, kind: str
) -> None:
    provoke, code, location, entry_type, message = KINDS[kind]

    response = provoke(client, agent)

    assert response.status_code == 422, response.text
    body = response.json()
    assert body["error"]["code"] == code
    entries = body["error"]["details"]["errors"]
    assert entries
    for entry in entries:
        assert set(entry) == ENTRY_KEYS, entry
        assert isinstance(entry["location"], list)
        assert all(isinstance(part, str | int) for part in entry["location"])
        assert isinstance(entry["message"], str) and entry["message"]
        assert isinstance(entry["type"], str) and entry["type"]
    assert entries[0]["location"] == location
    if entry_type is not None:
        assert entries[0]["type"] == entry_type
    if message is not None:
        assert body["error"]["message"].startswith(message), body["error"]["message"]
    assert not list(entry_schema.iter_errors(body)), list(entry_schema.iter_errors(body))


def test_the_openapi_entry_schema_names_exactly_the_documented_keys(client: TestClient) -> None:
    schemas = client.get("/openapi.json").json()["components"]["schemas"]

    entry = schemas["ErrorEntry"]
    assert set(entry["properties"]) == ENTRY_KEYS
    assert set(entry["required"]) == ENTRY_KEYS
    assert entry["additionalProperties"] is False
    errors = schemas["ErrorDetails"]["properties"]["errors"]
    assert errors["items"] == {"$ref": "#/components/schemas/ErrorEntry"}


def test_a_chat_socket_refusal_has_the_same_entries(client: TestClient, agent: str) -> None:
    with client.websocket_connect(f"/v1/agents/{agent}/ws/chat") as socket:
        socket.send_json({"message": "", "speaker": "Sam", "surprise": 1})
        frame = socket.receive_json()

    assert frame["type"] == "error" and frame["error"]["code"] == "invalid_input"
    entries = frame["error"]["details"]["errors"]
    assert entries and all(set(entry) == ENTRY_KEYS for entry in entries), entries
    assert {(tuple(e["location"]), e["type"]) for e in entries} >= {
        (("message",), "string_too_short"),
        (("surprise",), "extra_forbidden"),
    }
