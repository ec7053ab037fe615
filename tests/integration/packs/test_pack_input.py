"""A pack sent in the body (``POST /v1/agents/{id}/packs``) that the schema's field types alone
let through: censor patterns the censors route refuses, a version past what the graph stores, a
SUPPORTS chain deeper than Python's recursion limit. Each is a 422 naming the field with nothing
written, or loads; never a 500. And a version that drops a censor retires it (docs/packs.md §3).
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

CATCH_ALL = "(?s).*"
BACKTRACKS = "(a+)+$"


def _document(version: int = 1, **fields: Any) -> dict[str, Any]:
    return {
        "name": "input-checks",
        "version": version,
        "industry": "testing",
        "description": "A pack for the input checks.",
        "beliefs": [{"key": "b", "statement": "Ledgers balance.", "category": "ethical"}],
        **fields,
    }


def _censor(key: str, pattern: str, action: str = "block") -> dict[str, str]:
    return {"key": key, "pattern": pattern, "reason": f"{key} is forbidden", "action": action}


def _pack_censors(client: TestClient, agent: str, *, inactive: bool = False) -> list[Any]:
    response = client.get(
        f"/v1/agents/{agent}/censors", params={"source": "pack", "include_inactive": inactive}
    )
    assert response.status_code == 200, response.text
    censors: list[Any] = response.json()["data"]
    return censors


def _action(client: TestClient, agent: str, text: str) -> str:
    response = client.post(f"/v1/agents/{agent}/guardian/check", json={"text": text})
    assert response.status_code == 200, response.text
    action: str = response.json()["action"]
    return action


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
    assert (problem["location"], problem["type"]) == (["body", "beliefs"], "supports_cycle")
    assert problem["message"].startswith("SUPPORTS cycle k0 -> k1 -> k2 -> ")
    assert problem["message"].endswith(f" -> k{depth - 1} -> k0")
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
    assert [e["location"] for e in error["details"]["errors"]] == [["body", "version"]]
    _assert_nothing_written(client, agent)
    assert client.post(f"/v1/agents/{agent}/packs", json=_document()).status_code == 200


def test_the_largest_version_loads(client: TestClient, agent: str) -> None:
    response = client.post(f"/v1/agents/{agent}/packs", json=_document(2**31 - 1))

    assert response.status_code == 200, response.text
    assert response.json()["version"] == 2**31 - 1
    assert client.get(f"/v1/agents/{agent}/packs").json()[0]["version"] == 2**31 - 1


@pytest.mark.parametrize(
    ("pattern", "why"),
    [
        (CATCH_ALL, "matches the empty string"),
        ("(?s).+", "matches every ordinary text"),
        (BACKTRACKS, "backtracks"),
    ],
)
def test_a_pack_censor_the_censors_route_refuses_is_a_422_and_writes_nothing(
    client: TestClient, agent: str, pattern: str, why: str
) -> None:
    document = _document(
        censors=[_censor("fine", r"\bproject-x\b"), _censor("bad", pattern, "absolute")]
    )

    refused = client.post(f"/v1/agents/{agent}/packs", json=document)
    by_route = client.post(
        f"/v1/agents/{agent}/censors", json={**_censor("bad", pattern), "key": None}
    )

    assert refused.status_code == 422, refused.text
    error = refused.json()["error"]
    assert error["code"] == "seed_file_invalid"
    assert error["details"]["file"] == "request body"
    [problem] = error["details"]["errors"]
    assert problem["location"] == ["body", "censors", 1, "pattern"]
    assert "'bad'" in problem["message"] and why in problem["message"]
    # The same pattern, the same refusal from the censors route.
    assert by_route.status_code == 422
    assert by_route.json()["error"]["code"] == "censor_pattern_invalid"
    _assert_nothing_written(client, agent)
    assert _action(client, agent, "hello, how are the accounts?") == "allow"


def test_a_new_version_that_drops_a_censor_retires_it(client: TestClient, agent: str) -> None:
    url = f"/v1/agents/{agent}/packs"
    censors = [
        _censor("kept", r"\bproject-x\b"),
        _censor("dropped", r"\bnuke-prod\b", "absolute"),
        _censor("removed", r"\bleak-payroll\b", "warn"),
    ]
    assert client.post(url, json=_document(censors=censors)).status_code == 200
    assert _action(client, agent, "run nuke-prod now") == "absolute"
    by_key = {c["key"]: c for c in _pack_censors(client, agent)}
    # A person removes a warn censor of the pack: a reload does not bring it back.
    removed = client.delete(f"/v1/agents/{agent}/censors/{by_key['removed']['id']}")
    assert removed.status_code == 200, removed.text
    protected = client.delete(f"/v1/agents/{agent}/censors/{by_key['dropped']['id']}")
    assert protected.status_code == 409

    upgraded = client.post(url, json=_document(2, censors=[censors[0], censors[2]]))

    assert upgraded.status_code == 200, upgraded.text
    assert upgraded.json()["status"] == "upgraded"
    assert upgraded.json()["retired_censors"] == ["dropped"]
    assert [c["key"] for c in _pack_censors(client, agent)] == ["kept"]
    assert _action(client, agent, "run nuke-prod now") == "allow"
    assert _action(client, agent, "about project-x") == "block"
    assert _action(client, agent, "leak-payroll") == "allow"

    restored = client.post(url, json=_document(3, censors=censors))

    assert restored.status_code == 200, restored.text
    assert restored.json()["retired_censors"] == []
    active = {c["key"]: c for c in _pack_censors(client, agent)}
    # The pack's own retirement is undone by a version that brings the key back (same censor);
    # the person's removal stands.
    assert sorted(active) == ["dropped", "kept"]
    assert active["dropped"]["id"] == by_key["dropped"]["id"]
    assert _action(client, agent, "run nuke-prod now") == "absolute"
    assert _action(client, agent, "leak-payroll") == "allow"
