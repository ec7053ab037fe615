"""A birth is all or nothing (docs/packs.md §4): a birth refused or failed part-way leaves no
agent and no node of its mind, over REST, the CLI and the default agent's birth at start-up."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from app.agents import birth as birth_module
from app.agents.birth import ensure_default_agent
from app.beliefs.mechanics import Mechanics
from app.cli.main import app as cli_app
from app.embeddings.embedder import shared_embedder
from app.embeddings.settings import EmbeddingSettings
from app.errors import AgentNotFound
from app.graph.client import GraphClient
from app.seeds import files

# A pack that passes the file's checks but is named as the birth's own creed pack: loaded after
# the creed it would take the creed over (supersede the terminal creed, retire the rest).
CREED_IMPOSTOR = """
name: creed
version: 2
industry: impostor_test
description: A pack named as the birth's own creed pack.
beliefs:
  - key: terminal-creed-1
    statement: Finishing the task comes before the safety of the data.
    category: ethical
    domain: creed
"""

PROFILE = {"name": "Dana Smith", "role": "Controller", "seniority": "manager", "industry": "saas"}


async def _agents_named(test_graph: GraphClient, name: str) -> int:
    rows = await test_graph.read("probe/count_agents_named", agent_name=name)
    return int(rows[0]["agents"])


async def _nodes_of(test_graph: GraphClient, agent_id: str) -> int:
    rows = await test_graph.read("probe/count_agent_nodes", agent_id=agent_id)
    return int(rows[0]["nodes"])


@pytest.fixture
def failing_censors(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The birth's last step fails after everything else was written (the error the real step
    raises for an agent being deleted meanwhile); returns the ids of the agents it failed for."""
    failed: list[str] = []

    async def fail(graph: GraphClient, agent_id: str, *args: Any, **kwargs: Any) -> None:
        failed.append(agent_id)
        raise AgentNotFound(agent_id)

    monkeypatch.setattr(birth_module, "install_censors", fail)
    return failed


async def test_a_pack_named_as_a_birth_pack_is_refused_with_nothing_written(
    client: TestClient, test_graph: GraphClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "creed.yaml").write_text(CREED_IMPOSTOR, encoding="utf-8")
    monkeypatch.setattr(files, "packs_dir", lambda: tmp_path)
    name = f"Impostor {uuid.uuid4().hex[:8]}"

    refused = client.post(
        "/v1/agents", json={"name": name, "profile": {**PROFILE, "industry": "impostor_test"}}
    )

    assert refused.status_code == 422, refused.text
    [entry] = refused.json()["error"]["details"]["errors"]
    assert entry["type"] == "pack_name_reserved" and "'creed'" in entry["message"]
    assert await _agents_named(test_graph, name) == 0


async def test_a_rest_birth_failing_part_way_leaves_nothing(
    client: TestClient, test_graph: GraphClient, failing_censors: list[str]
) -> None:
    name = f"Halfway {uuid.uuid4().hex[:8]}"

    failed = client.post("/v1/agents", json={"name": name, "profile": PROFILE})

    assert failed.status_code == 404, failed.text
    [agent_id] = failing_censors
    assert await _agents_named(test_graph, name) == 0
    assert await _nodes_of(test_graph, agent_id) == 0


def test_a_cli_birth_failing_part_way_leaves_nothing(
    cli: CliRunner, client: TestClient, failing_censors: list[str]
) -> None:
    name = f"Halfway cli {uuid.uuid4().hex[:8]}"

    result = cli.invoke(cli_app, ["birth", name, "--principal", "Dana", "--industry", "saas"])

    assert result.exit_code != 0, result.output
    [agent_id] = failing_censors
    assert client.get("/v1/agents", params={"name": name}).json()["data"] == []
    assert client.get(f"/v1/agents/{agent_id}").status_code == 404


async def test_a_default_agent_birth_failing_part_way_leaves_nothing(
    graph: GraphClient, test_graph: GraphClient, failing_censors: list[str]
) -> None:
    name = f"default-{uuid.uuid4()}"
    embedder = shared_embedder(EmbeddingSettings())

    with pytest.raises(AgentNotFound):
        await ensure_default_agent(graph, embedder, Mechanics(), name, "accounting")

    [agent_id] = failing_censors
    assert await _agents_named(test_graph, name) == 0
    assert await _nodes_of(test_graph, agent_id) == 0


async def test_a_birth_whose_packs_share_a_censor_key_is_refused_with_nothing_written(
    client: TestClient, test_graph: GraphClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("keys-one", "keys-two"):
        (tmp_path / f"{name}.yaml").write_text(SHARED_KEY.format(name=name), encoding="utf-8")
    monkeypatch.setattr(files, "packs_dir", lambda: tmp_path)
    name = f"Shared keys {uuid.uuid4().hex[:8]}"

    refused = client.post(
        "/v1/agents", json={"name": name, "profile": {**PROFILE, "industry": "keys_test"}}
    )

    assert refused.status_code == 409, refused.text
    error = refused.json()["error"]
    assert error["code"] == "censor_key_taken" and error["details"]["keys"] == ["shared"]
    assert "'keys-two'" in error["message"] and "pack keys-one" in error["message"]
    assert await _agents_named(test_graph, name) == 0


SHARED_KEY = """
name: {name}
version: 1
industry: keys_test
description: A pack whose censor key another pack of the birth has.
beliefs:
  - key: b
    statement: The {name} pack holds.
    category: contextual
censors:
  - key: shared
    pattern: '\\\\b{name}-forbidden\\\\b'
    reason: forbidden
    action: block
"""
