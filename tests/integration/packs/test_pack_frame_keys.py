"""A frame key names one frame of an agent (docs/packs.md §2): a pack that brings a key a shipped
default frame or another pack's frame (a retired one included) already holds is refused, a 409
``frame_key_taken`` naming the key and its holder, and nothing of the pack is written; the frame
holding the key keeps its content and its source (real Neo4j, through the API). The frames are
listed shipped first, then each pack's in its order."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.graph.client import GraphClient
from app.memory.frames import default_frames, install_frames
from app.seeds import files


def _frame(key: str, name: str) -> dict[str, Any]:
    return {
        "key": key,
        "name": name,
        "activation_patterns": [f"{key} work"],
        "default_category": "contextual",
        "default_stakes": "low",
    }


def _pack(name: str, *frame_keys: str, version: int = 1) -> dict[str, Any]:
    return {
        "name": name,
        "version": version,
        "industry": "testing",
        "description": "A pack for the frame key checks.",
        "beliefs": [{"key": "b", "statement": f"{name} holds.", "category": "contextual"}],
        "frames": [_frame(key, f"{name} {key}") for key in frame_keys],
    }


def _load(client: TestClient, agent: str, document: dict[str, Any]) -> Any:
    return client.post(f"/v1/agents/{agent}/packs", json=document)


def _packs(client: TestClient, agent: str) -> list[str]:
    return [pack["name"] for pack in client.get(f"/v1/agents/{agent}/packs").json()]


def _frames(client: TestClient, agent: str) -> dict[str, tuple[str, str]]:
    response = client.get(f"/v1/agents/{agent}/frames")
    assert response.status_code == 200, response.text
    return {f["key"]: (f["name"], f["source"]) for f in response.json()["data"]}


def test_a_pack_bringing_another_pack_s_frame_key_is_refused_whole(
    client: TestClient, agent: str
) -> None:
    assert _load(client, agent, _pack("first-frames", "shared", "own")).status_code == 200

    refused = _load(client, agent, _pack("second-frames", "shared", "fresh"))

    assert refused.status_code == 409, refused.text
    error = refused.json()["error"]
    assert error["code"] == "frame_key_taken"
    assert error["details"]["keys"] == ["shared"]
    assert "'second-frames'" in error["message"] and "pack first-frames" in error["message"]
    assert _packs(client, agent) == ["first-frames"]
    assert _frames(client, agent) == {
        "shared": ("first-frames shared", "pack:first-frames"),
        "own": ("first-frames own", "pack:first-frames"),
    }
    # The pack holding the key loads again, and upgrades (its own keys are its own).
    assert _load(client, agent, _pack("first-frames", "shared", version=2)).status_code == 200


def test_a_retired_frame_of_another_pack_still_holds_its_key(
    client: TestClient, agent: str
) -> None:
    assert _load(client, agent, _pack("retiring", "kept", "dropped")).status_code == 200
    upgraded = _load(client, agent, _pack("retiring", "kept", version=2))
    assert upgraded.json()["retired_frames"] == ["dropped"]

    refused = _load(client, agent, _pack("claimant", "dropped"))

    assert refused.status_code == 409, refused.text
    assert "pack retiring, retired" in refused.json()["error"]["message"]
    assert _packs(client, agent) == ["retiring"]


async def test_a_pack_bringing_a_shipped_default_frame_s_key_is_refused(
    client: TestClient, agent: str, graph: GraphClient
) -> None:
    installed = {frame.key: frame for frame in await install_frames(graph, agent)}

    refused = _load(client, agent, _pack("takes-task", "task", "extra"))

    assert refused.status_code == 409, refused.text
    error = refused.json()["error"]
    assert error["code"] == "frame_key_taken" and error["details"]["keys"] == ["task"]
    assert "shipped default frame" in error["message"]
    assert _packs(client, agent) == []
    frames = _frames(client, agent)
    assert frames["task"] == (installed["task"].name, "seed") and "extra" not in frames


def test_an_agent_without_the_default_frames_installed_keeps_their_keys(
    client: TestClient, agent: str
) -> None:
    # The frame choice falls back on the shipped defaults an agent has not installed: a pack's
    # "question" would replace the shipped one there as well.
    refused = _load(client, agent, _pack("takes-question", "question"))

    assert refused.status_code == 409, refused.text
    assert refused.json()["error"]["details"]["keys"] == ["question"]
    assert _frames(client, agent) == {}


async def test_frames_are_listed_shipped_first_then_each_pack_s_in_its_order(
    client: TestClient, agent: str, graph: GraphClient
) -> None:
    # A pack loaded before the shipped frames are installed still comes after them.
    assert _load(client, agent, _pack("alpha-frames", "alpha-2", "alpha-1")).status_code == 200
    await install_frames(graph, agent)
    assert _load(client, agent, _pack("beta-frames", "beta-2", "beta-1")).status_code == 200

    listed = client.get(f"/v1/agents/{agent}/frames").json()["data"]

    shipped = [frame.key for frame in default_frames()]
    assert [f["key"] for f in listed] == [*shipped, "alpha-2", "alpha-1", "beta-2", "beta-1"]
    positions = [f["position"] for f in listed]
    assert positions == sorted(positions) and len(set(positions)) == len(positions)


SHARED_FRAME = """
name: {name}
version: 1
industry: frame_keys_test
description: A pack whose frame key another pack of the birth has.
beliefs:
  - key: b
    statement: The {name} pack holds.
    category: contextual
frames:
  - key: shared-frame
    name: The {name} frame
    activation_patterns: ["{name} work"]
    default_category: contextual
    default_stakes: low
"""

PROFILE = {"name": "Dana Smith", "role": "Controller", "seniority": "manager"}


async def test_a_birth_whose_packs_share_a_frame_key_is_refused_with_nothing_written(
    client: TestClient, test_graph: GraphClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("frames-one", "frames-two"):
        (tmp_path / f"{name}.yaml").write_text(SHARED_FRAME.format(name=name), encoding="utf-8")
    monkeypatch.setattr(files, "packs_dir", lambda: tmp_path)
    name = f"Shared frames {uuid.uuid4().hex[:8]}"

    refused = client.post(
        "/v1/agents", json={"name": name, "profile": {**PROFILE, "industry": "frame_keys_test"}}
    )

    assert refused.status_code == 409, refused.text
    error = refused.json()["error"]
    assert error["code"] == "frame_key_taken" and error["details"]["keys"] == ["shared-frame"]
    assert "'frames-two'" in error["message"] and "pack frames-one" in error["message"]
    rows = await test_graph.read("probe/count_agents_named", agent_name=name)
    assert int(rows[0]["agents"]) == 0
