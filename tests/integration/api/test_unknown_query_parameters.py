"""A query parameter a /v1 route does not take is a 422 naming it, on every route (the context's
own check, generalised): a misspelt filter (`?statuss=pending`, `?limt=5`) was ignored, so the
client got every item, or the default page, as though it had asked for that. The analytics
route, whose query string is the query's parameters, checks them itself."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient


@pytest.mark.parametrize(
    ("path", "query"),
    [
        ("/revisions", {"limt": "5"}),
        ("/approvals", {"statuss": "pending"}),
        ("/working-memory/tasks", {"states": "completed"}),
        ("/status", {"verbose": "1"}),
        ("/self", {"x": "1"}),
    ],
)
def test_an_unknown_query_parameter_is_422_naming_it(
    client: TestClient, agent: str, path: str, query: dict[str, str]
) -> None:
    response = client.get(f"/v1/agents/{agent}{path}", params=query)

    assert response.status_code == 422, response.text
    [entry] = response.json()["error"]["details"]["errors"]
    assert entry["location"] == ["query", next(iter(query))]
    assert entry["type"] == "extra_forbidden"


def test_the_parameters_a_route_takes_are_still_taken(client: TestClient, agent: str) -> None:
    assert client.get(f"/v1/agents/{agent}/revisions", params={"limit": 5}).status_code == 200
    assert client.get(f"/v1/agents/{agent}/analytics/cascade_depths").status_code == 200
    analytics = client.get(f"/v1/agents/{agent}/analytics/longest_lineages", params={"limit": 3})
    assert analytics.status_code == 200, analytics.text


def test_every_v1_operation_declares_the_422(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    for path, operations in schema["paths"].items():
        if path.startswith("/v1/"):
            for method, operation in operations.items():
                assert "422" in operation["responses"], (method, path)
