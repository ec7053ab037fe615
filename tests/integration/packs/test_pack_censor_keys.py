"""A censor key names one censor of an agent (docs/packs.md §2): a pack that brings a key a
shipped default, another pack or a manual censor already holds is refused, a 409
``censor_key_taken`` naming the key and its holder, and nothing of the pack is written."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from app.seeds.files import read_censors


def _pack(name: str, *censor_keys: str) -> dict[str, Any]:
    return {
        "name": name,
        "version": 1,
        "industry": "testing",
        "description": "A pack for the censor key checks.",
        "beliefs": [{"key": "b", "statement": f"{name} holds.", "category": "contextual"}],
        "censors": [
            {"key": key, "pattern": rf"\b{name}-{key}\b", "reason": "forbidden", "action": "block"}
            for key in censor_keys
        ],
    }


def _load(client: TestClient, agent: str, document: dict[str, Any]) -> Any:
    return client.post(f"/v1/agents/{agent}/packs", json=document)


def _packs(client: TestClient, agent: str) -> list[str]:
    return [pack["name"] for pack in client.get(f"/v1/agents/{agent}/packs").json()]


def _censor_packs(client: TestClient, agent: str) -> list[str | None]:
    response = client.get(f"/v1/agents/{agent}/censors", params={"include_inactive": True})
    return [c["pack_name"] for c in response.json()["data"] if c["source"] != "default"]


def test_a_pack_bringing_another_pack_s_censor_key_is_refused_whole(
    client: TestClient, agent: str
) -> None:
    assert _load(client, agent, _pack("first-keys", "shared", "own")).status_code == 200

    refused = _load(client, agent, _pack("second-keys", "shared", "fresh"))

    assert refused.status_code == 409, refused.text
    error = refused.json()["error"]
    assert error["code"] == "censor_key_taken"
    assert error["details"]["keys"] == ["shared"]
    assert "'second-keys'" in error["message"] and "pack first-keys" in error["message"]
    assert _packs(client, agent) == ["first-keys"]
    assert _censor_packs(client, agent) == ["first-keys", "first-keys"]
    # The pack holding the key loads again as it is (its own keys are its own).
    assert _load(client, agent, _pack("first-keys", "shared", "own")).status_code == 200


def test_a_pack_bringing_a_manual_censor_s_key_is_refused(client: TestClient, agent: str) -> None:
    added = client.post(
        f"/v1/agents/{agent}/censors",
        json={"pattern": r"\bmine-only\b", "reason": "mine", "action": "warn", "key": "mine"},
    )
    assert added.status_code in (200, 201), added.text

    refused = _load(client, agent, _pack("takes-mine", "mine"))

    assert refused.status_code == 409, refused.text
    assert "manual censor" in refused.json()["error"]["message"]
    assert "takes-mine" not in _packs(client, agent)


def test_a_pack_bringing_a_shipped_default_s_key_is_refused(client: TestClient, agent: str) -> None:
    shipped = read_censors().censors[0].key

    refused = _load(client, agent, _pack("takes-default", shipped))

    assert refused.status_code == 409, refused.text
    assert refused.json()["error"]["details"]["keys"] == [shipped]
    assert "shipped default" in refused.json()["error"]["message"]
    assert _packs(client, agent) == []
