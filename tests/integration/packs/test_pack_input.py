"""A pack sent in the body (``POST /v1/agents/{id}/packs``) that the schema's field types alone
let through: a SUPPORTS chain deeper than Python's recursion limit. It is a 422 naming the field
with nothing written, or it loads; never a 500.
"""

from __future__ import annotations

from typing import Any

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
