"""A pack's frames across its versions (docs/packs.md §3): loading a pack installs its frames
(after birth too), a version that drops one retires it (kept, never deleted) so that no frame
choice picks it any more, and a version that brings the key back makes it active again (real
Neo4j, through the API)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

CLOSE = "closing the books at month end"


def _frame(key: str, patterns: list[str]) -> dict[str, Any]:
    return {
        "key": key,
        "name": key.replace("-", " ").capitalize(),
        "description": f"The {key} frame.",
        "activation_patterns": patterns,
        "default_category": "contextual",
        "default_stakes": "high",
        "questions_to_ask": ["Which period is this?"],
        "context_budget": 2500,
    }


FRAMES = [_frame("ledger-close", ["closing the books", "month end"]), _frame("audit", ["audit"])]


def _document(version: int, frames: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "name": "frame-lifecycle",
        "version": version,
        "industry": "testing",
        "description": "A pack whose frames change between versions.",
        "beliefs": [{"key": "b", "statement": "Ledgers balance.", "category": "ethical"}],
        "frames": frames,
    }


def _frames(client: TestClient, agent: str, text: str) -> tuple[list[str], str]:
    response = client.get(f"/v1/agents/{agent}/frames", params={"text": text})
    assert response.status_code == 200, response.text
    body = response.json()
    return sorted(f["key"] for f in body["data"]), body["selection"]["selection"]["key"]


def test_a_pack_installs_its_frames_and_a_version_that_drops_one_retires_it(
    client: TestClient, agent: str
) -> None:
    url = f"/v1/agents/{agent}/packs"
    loaded = client.post(url, json=_document(1, FRAMES))

    assert loaded.status_code == 200, loaded.text
    assert loaded.json()["frames"] == 2 and loaded.json()["retired_frames"] == []
    assert _frames(client, agent, CLOSE) == (["audit", "ledger-close"], "ledger-close")

    upgraded = client.post(url, json=_document(2, FRAMES[1:]))

    assert upgraded.status_code == 200, upgraded.text
    assert upgraded.json()["retired_frames"] == ["ledger-close"]
    installed, chosen = _frames(client, agent, CLOSE)
    assert installed == ["audit"] and chosen != "ledger-close"
    assert client.post(url, json=_document(2, FRAMES[1:])).json()["retired_frames"] == []

    restored = client.post(url, json=_document(3, FRAMES))

    assert restored.status_code == 200, restored.text
    assert restored.json()["retired_frames"] == []
    assert _frames(client, agent, CLOSE) == (["audit", "ledger-close"], "ledger-close")
