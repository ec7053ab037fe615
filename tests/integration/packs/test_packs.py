"""Knowledge packs loaded into an agent: whole, idempotent, upgraded with lineage, replayable."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from prometheus_client import REGISTRY

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.beliefs.mechanics import Mechanics
from app.beliefs.replay import compare_with_stored
from app.embeddings.embedder import shared_embedder
from app.embeddings.settings import EmbeddingSettings
from app.graph.client import GraphClient
from app.packs.loader import initial_strengths, load_pack
from app.seeds.files import find_pack, read_all_packs
from app.seeds.pack_schema import KnowledgePack


def _state(client: TestClient, agent: str) -> list[dict[str, Any]]:
    response = client.get(f"/v1/agents/{agent}/packs")
    assert response.status_code == 200, response.text
    packs: list[dict[str, Any]] = response.json()
    return packs


def test_a_shipped_pack_loads_once_through_the_api(client: TestClient, agent: str) -> None:
    pack = find_pack("gaap-fundamentals")
    first = client.post(f"/v1/agents/{agent}/packs/gaap-fundamentals/load")
    again = client.post(f"/v1/agents/{agent}/packs/gaap-fundamentals/load")

    assert first.status_code == 200, first.text
    report = first.json()
    assert report["status"] == "loaded" and report["created"] == len(pack.beliefs)
    assert report["supports_created"] == sum(len(b.supports) for b in pack.beliefs)
    assert report["contradicts_created"] == sum(len(b.contradicts) for b in pack.beliefs)
    assert report["embedded"] is True
    assert again.json()["status"] == "unchanged" and again.json()["created"] == 0
    assert _state(client, agent) == [
        {
            "name": "gaap-fundamentals",
            "version": pack.version,
            "industry": pack.industry,
            "description": pack.description,
            "loaded_at": _state(client, agent)[0]["loaded_at"],
            "beliefs": len(pack.beliefs),
            "superseded": 0,
            "inactive": 0,
            "skill": None,
        }
    ]
    beliefs = client.get(f"/v1/agents/{agent}/beliefs", params={"limit": 500}).json()
    assert beliefs["count"] == len(pack.beliefs)


def test_a_pack_loaded_after_birth_starts_under_the_birth_cap(
    client: TestClient, agent: str
) -> None:
    """Autonomy is earned: a pack loaded any time starts uncertain, as birth's industry packs do,
    and keeps its own figure as the prior."""
    pack = find_pack("gaap-fundamentals")
    cap = Mechanics().birth_strength_cap
    assert cap is not None and any(b.strength > cap for b in pack.beliefs)

    assert client.post(f"/v1/agents/{agent}/packs/gaap-fundamentals/load").status_code == 200

    beliefs = client.get(f"/v1/agents/{agent}/beliefs", params={"limit": 500}).json()["data"]
    by_statement = {b["statement"]: b for b in beliefs}
    for seeded in pack.beliefs:
        stored = by_statement[seeded.statement]
        assert stored["strength"] <= cap + 1e-9, seeded.key
        if not seeded.supports:
            assert stored["prior_strength"] == pytest.approx(seeded.strength), seeded.key


def test_unknown_pack_and_unknown_agent_are_404(client: TestClient, agent: str) -> None:
    assert client.post(f"/v1/agents/{agent}/packs/no-such-pack/load").status_code == 404
    assert client.post("/v1/agents/ghost/packs/gaap-fundamentals/load").status_code == 404
    assert client.get("/v1/agents/ghost/packs").status_code == 404


@pytest.mark.parametrize("pack", read_all_packs(), ids=lambda p: p.name)
async def test_every_shipped_pack_loads_consistently(
    graph: GraphClient, pack: KnowledgePack
) -> None:
    mechanics = Mechanics()
    agent = await create_agent(graph, AgentCreate(name=f"pack {pack.name}"))
    embedder = shared_embedder(EmbeddingSettings())

    report = await load_pack(graph, embedder, mechanics, agent.id, pack)

    assert report.created == len(pack.beliefs) and report.degraded is None
    # Stored strengths follow the engine: supported beliefs carry their supporters' mean.
    expected = initial_strengths(pack, {}, mechanics.birth_strength_cap)
    rows = await graph.read("packs/loader/get_pack_state", agent_id=agent.id, pack_name=pack.name)
    stored = {row["key"]: row["strength"] for row in rows[0]["beliefs"]}
    assert stored == pytest.approx(expected, abs=1e-9)
    # The event log explains the loaded graph exactly, and the dissatisfaction sums are kept.
    assert await compare_with_stored(graph, mechanics, agent.id) == []
    sums = await graph.read("beliefs/dissatisfaction/get_sums", agent_id=agent.id)
    recomputed = await graph.write("beliefs/dissatisfaction/recompute_sums", agent_id=agent.id)
    assert sums[0]["d_imp"] == pytest.approx(recomputed[0]["d_imp"])
    assert sums[0]["d_max_degree"] == recomputed[0]["d_max_degree"]


async def test_a_new_version_keeps_learned_strengths_and_supersedes_changed_statements(
    graph: GraphClient,
) -> None:
    from app.beliefs.models import OutcomeIn
    from app.beliefs.updates import apply_outcome

    mechanics = Mechanics()
    pack = find_pack("nonprofit-accounting")
    agent = await create_agent(graph, AgentCreate(name="upgrader"))
    await load_pack(graph, None, mechanics, agent.id, pack)
    state = await graph.read("packs/loader/get_pack_state", agent_id=agent.id, pack_name=pack.name)
    held = {row["key"]: row for row in state[0]["beliefs"]}
    leaf = next(
        b
        for b in pack.beliefs
        if not any(b.key in [s.key for s in o.supports] for o in pack.beliefs)
    )
    changed = next(b for b in pack.beliefs if b.key != leaf.key and not b.supports)
    await apply_outcome(
        graph,
        mechanics,
        agent.id,
        held[leaf.key]["id"],
        OutcomeIn(outcome="failure", moral_valence="neutral", severity=1.0),
    )
    learned = (
        await graph.read("packs/loader/get_pack_state", agent_id=agent.id, pack_name=pack.name)
    )[0]["beliefs"]
    learned_strength = next(r["strength"] for r in learned if r["key"] == leaf.key)

    v2 = pack.model_copy(deep=True)
    v2.version = 2
    target = next(b for b in v2.beliefs if b.key == changed.key)
    target.statement = changed.statement + " (restated in version 2)"
    dropped = next(
        b
        for b in v2.beliefs
        if b.key not in (leaf.key, changed.key)
        and not b.supports
        and not b.contradicts
        and not any(b.key in [link.key for link in o.supports + o.contradicts] for o in v2.beliefs)
    )
    v2.beliefs = [b for b in v2.beliefs if b.key != dropped.key]
    counted = REGISTRY.get_sample_value("credence_revisions_total", {"mode": "pack_upgrade"}) or 0
    report = await load_pack(graph, None, mechanics, agent.id, v2)

    after = (
        await graph.read("packs/loader/get_pack_state", agent_id=agent.id, pack_name=pack.name)
    )[0]["beliefs"]
    by_key = {row["key"]: row for row in after}
    assert (report.status, report.superseded, report.created) == ("upgraded", 1, 0)
    assert report.retired == [dropped.key] and dropped.key not in by_key
    assert by_key[leaf.key]["strength"] == pytest.approx(learned_strength)
    assert by_key[changed.key]["statement"].endswith("(restated in version 2)")
    assert by_key[changed.key]["id"] != held[changed.key]["id"]
    revisions = await graph.read(
        "beliefs/revision/list_revisions", agent_id=agent.id, skip=0, limit=10
    )
    assert [r["mode"] for r in revisions[0]["revisions"]] == ["pack_upgrade"]
    assert (
        REGISTRY.get_sample_value("credence_revisions_total", {"mode": "pack_upgrade"})
        == counted + 1
    )
    assert await compare_with_stored(graph, mechanics, agent.id) == []
