"""The server errors schemathesis found (reliability issue) are client errors now: an
unbounded paging offset, dissatisfaction of an unknown agent, a birth profile whose email the
principal's Person would refuse. Each is refused before anything is written, naming the field."""

from __future__ import annotations

import logging
import uuid

import pytest
from fastapi.testclient import TestClient

PAGED = ["beliefs", "episodes", "people", "revisions", "rules"]


@pytest.mark.parametrize("collection", PAGED)
def test_a_huge_paging_offset_is_422_naming_skip(
    client: TestClient, agent: str, collection: str
) -> None:
    response = client.get(f"/v1/agents/{agent}/{collection}", params={"skip": 2**70})

    assert response.status_code == 422, response.text
    assert response.json()["error"]["details"]["errors"][0]["location"] == ["query", "skip"]
    assert client.get(f"/v1/agents/{agent}/{collection}", params={"skip": 10}).status_code == 200


def test_dissatisfaction_of_an_unknown_agent_is_404(client: TestClient) -> None:
    response = client.get(f"/v1/agents/{uuid.uuid4()}/dissatisfaction", params={"top": 99})

    assert response.status_code == 404, response.text
    assert response.json()["error"]["code"] == "agent_not_found"


def test_a_birth_profile_with_a_bad_email_is_422_naming_the_field(client: TestClient) -> None:
    name = f"odd-{uuid.uuid4()}"
    response = client.post(
        "/v1/agents",
        json={"name": name, "profile": {"name": "Ann", "email": "not-an-email"}, "enrich": True},
    )

    assert response.status_code == 422, response.text
    location = response.json()["error"]["details"]["errors"][0]["location"]
    assert location == ["body", "profile", "email"]


# Every route with an id or name in its path, and a body it accepts when the id is right.
ID_ROUTES = [
    ("get", "/beliefs/{id}", "belief_id", None),
    ("patch", "/beliefs/{id}", "belief_id", {"strength": 0.5}),
    ("get", "/beliefs/{id}/explanation", "belief_id", None),
    ("post", "/beliefs/{id}/evidence", "belief_id", {"text": "so", "stance": "reinforcing"}),
    ("post", "/beliefs/{id}/outcome", "belief_id", {"outcome": "confirmed"}),
    ("get", "/revisions/{id}", "revision_id", None),
    ("get", "/episodes/{id}", "episode_id", None),
    ("get", "/approvals/{id}", "approval_id", None),
    ("post", "/approvals/{id}", "approval_id", {"decision": "approve"}),
    ("get", "/analytics/{id}", "name", None),
    ("post", "/packs/{id}/load", "name", None),
    ("post", "/sessions/{id}/end", "session", None),
    ("post", "/sessions/{id}/close", "session", None),
]


@pytest.mark.parametrize(("method", "template", "parameter", "body"), ID_ROUTES)
def test_an_overlong_path_id_is_422_naming_the_parameter(
    client: TestClient,
    agent: str,
    method: str,
    template: str,
    parameter: str,
    body: dict[str, object] | None,
) -> None:
    too_long = "b" * 201
    response = client.request(
        method, f"/v1/agents/{agent}" + template.format(id=too_long), json=body
    )

    assert response.status_code == 422, response.text
    locations = [e["location"] for e in response.json()["error"]["details"]["errors"]]
    assert ["path", parameter] in locations


def test_a_65_character_belief_id_for_evidence_is_422_not_500(
    client: TestClient, agent: str
) -> None:
    response = client.post(
        f"/v1/agents/{agent}/beliefs/{'b' * 65}/evidence",
        json={"text": "so it is", "stance": "reinforcing"},
    )

    assert response.status_code == 422, response.text
    assert response.json()["error"]["details"]["errors"][0]["location"] == ["path", "belief_id"]


def test_an_unreadable_bookmark_on_the_context_is_one_422_and_no_logged_error(
    client: TestClient, agent: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        response = client.get(
            f"/v1/agents/{agent}/context",
            params={"q": "what do we know"},
            headers={"x-credence-bookmark": "FB:AAAA"},
        )

    assert response.status_code == 422, response.text
    assert response.json()["error"]["code"] == "invalid_bookmark"
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], [r.getMessage() for r in errors]
