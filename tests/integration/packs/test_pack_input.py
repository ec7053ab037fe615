"""A pack sent in the body (``POST /v1/agents/{id}/packs``) that the schema's field types alone
let through: a version past what the graph stores, a SUPPORTS chain deeper than Python's
recursion limit. Each is a 422 naming the field with nothing written, or loads; never a 500.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient


def _document(version: int = 1, **fields: Any) -> dict[str, Any]:
    return {
        "name": "input-checks",
        "version": version,
        "industry": "testing",
        "description": "A pack for the input checks.",
        "beliefs": [{"key": "b", "statement": "Ledgers balance.", "category": "ethical"}],
        **fields,
    }


def _pack_censors(client: TestClient, agent: str, *, inactive: bool = False) -> list[Any]:
    response = client.get(
        f"/v1/agents/{agent}/censors", params={"source": "pack", "include_inactive": inactive}
    )
    assert response.status_code == 200, response.text
    censors: list[Any] = response.json()["data"]
    return censors


def _assert_nothing_written(client: TestClient, agent: str) -> None:
    assert client.get(f"/v1/agents/{agent}/packs").json() == []
    assert client.get(f"/v1/agents/{agent}/beliefs").json()["count"] == 0
    assert _pack_censors(client, agent, inactive=True) == []


def _chain(depth: int) -> list[dict[str, Any]]:
    """``depth`` beliefs, each SUPPORTing the next."""
    return [
        {
            "key": f"k{index}",
            "statement": "A link of the chain.",
            "category": "contextual",
            "supports": [{"key": f"k{index + 1}"}] if index + 1 < depth else [],
        }
        for index in range(depth)
    ]


def test_a_supports_chain_deeper_than_the_recursion_limit_is_never_a_500(
    client: TestClient, agent: str
) -> None:
    depth = 3000
    cyclic = _chain(depth)
    cyclic[-1]["supports"] = [{"key": "k0"}]

    refused = client.post(f"/v1/agents/{agent}/packs", json=_document(beliefs=cyclic))

    assert refused.status_code == 422, refused.text
    [problem] = refused.json()["error"]["details"]["errors"]
    assert problem["path"] == "beliefs"
    assert problem["reason"].startswith("SUPPORTS cycle k0 -> k1 -> k2 -> ")
    assert problem["reason"].endswith(f" -> k{depth - 1} -> k0")
    _assert_nothing_written(client, agent)

    loaded = client.post(f"/v1/agents/{agent}/packs", json=_document(beliefs=_chain(depth)))

    assert loaded.status_code == 200, loaded.text
    assert loaded.json()["created"] == depth
    assert loaded.json()["supports_created"] == depth - 1


@pytest.mark.parametrize("version", [2**31, 2**63, 2**70, 0])
def test_a_version_out_of_range_is_a_422_naming_the_field(
    client: TestClient, agent: str, version: int
) -> None:
    response = client.post(f"/v1/agents/{agent}/packs", json=_document(version))

    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "seed_file_invalid"
    assert [e["path"] for e in error["details"]["errors"]] == ["version"]
    _assert_nothing_written(client, agent)
    assert client.post(f"/v1/agents/{agent}/packs", json=_document()).status_code == 200


def test_the_largest_version_loads(client: TestClient, agent: str) -> None:
    response = client.post(f"/v1/agents/{agent}/packs", json=_document(2**31 - 1))

    assert response.status_code == 200, response.text
    assert response.json()["version"] == 2**31 - 1
    assert client.get(f"/v1/agents/{agent}/packs").json()[0]["version"] == 2**31 - 1
