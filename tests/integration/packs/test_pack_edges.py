"""A pack's SUPPORTS and CONTRADICTS edges across its versions (docs/packs.md §3): a version
that drops an edge between beliefs it keeps retires it (a SUPPORTS edge removed with an event
recording it, a CONTRADICTS edge resolved), what it supported is re-derived, and a version that
adds or re-weighs a SUPPORTS edge into a belief the agent already holds re-derives that belief
(real Neo4j)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.beliefs.edges import create_edge
from app.beliefs.mechanics import Mechanics
from app.beliefs.models import EdgeCreate
from app.beliefs.replay import (
    compare_with_stored,
    differences_from_stored,
    replay_agent,
    replay_events,
)
from app.cli.main import app as cli_app
from app.graph.client import GraphClient
from app.packs.loader import PackLoadReport, load_pack
from app.seeds.pack_schema import KnowledgePack

NAME = "edge-lifecycle"


def _document(version: int, beliefs: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "name": NAME,
        "version": version,
        "industry": "testing",
        "description": "A pack whose edges change between versions.",
        "beliefs": beliefs,
    }


def _belief(key: str, strength: float, **links: Any) -> dict[str, Any]:
    return {
        "key": key,
        "statement": f"Statement {key} about ledgers.",
        "category": "contextual",
        "strength": strength,
        **links,
    }


def _two_supporters(c_weight: float | None) -> list[dict[str, Any]]:
    """a (0.9) and, when ``c_weight`` is given, c (0.3) support top; a contradicts c in every
    version (so the contradiction is not what changes here)."""
    top_links = [{"key": "top", "weight": 1.0}]
    return [
        _belief("a", 0.9, supports=top_links),
        _belief(
            "c",
            0.3,
            supports=[{"key": "top", "weight": c_weight}] if c_weight is not None else [],
        ),
        _belief("top", 0.5),
    ]


async def _load(
    graph: GraphClient, agent: str, version: int, beliefs: list[dict[str, Any]]
) -> PackLoadReport:
    pack = KnowledgePack.model_validate(_document(version, beliefs))
    return await load_pack(graph, None, Mechanics(), agent, pack, strength_cap=None)


async def _strengths(graph: GraphClient, agent: str) -> dict[str, float]:
    state = await graph.read("packs/loader/get_pack_state", agent_id=agent, pack_name=NAME)
    return {row["key"]: row["strength"] for row in state[0]["beliefs"]}


async def _edges(test_graph: GraphClient, agent: str) -> dict[tuple[str, str, str], Any]:
    rows = await test_graph.read("packs/pack_edges", agent_id=agent)
    return {(row["type"], row["source"], row["target"]): row["props"] for row in rows}


async def _events(graph: GraphClient, agent: str) -> list[dict[str, Any]]:
    rows = await graph.read(
        "beliefs/events/list_events", agent_id=agent, belief_id=None, after_seq=0, limit=1000
    )
    events: list[dict[str, Any]] = rows[0]["events"]
    return events


async def _consistent(graph: GraphClient, agent: str) -> None:
    """The event log explains the graph, and the dissatisfaction sums are the graph's."""
    assert await compare_with_stored(graph, Mechanics(), agent) == []
    sums = await graph.read("beliefs/dissatisfaction/get_sums", agent_id=agent)
    recomputed = await graph.write("beliefs/dissatisfaction/recompute_sums", agent_id=agent)
    for key in ("d_imp", "d_imp_deg", "d_t_imp", "d_t_imp_deg"):
        assert sums[0][key] == pytest.approx(recomputed[0][key])
    assert sums[0]["d_max_degree"] == recomputed[0]["d_max_degree"]


async def test_a_version_that_drops_a_supports_edge_retires_it_and_re_derives_its_target(
    graph: GraphClient, test_graph: GraphClient
) -> None:
    agent = (await create_agent(graph, AgentCreate(name="edge dropper"))).id
    await _load(graph, agent, 1, _two_supporters(c_weight=1.0))
    assert (await _strengths(graph, agent))["top"] == pytest.approx(0.6)
    ids = {
        row["key"]: row["id"]
        for row in (
            await graph.read("packs/loader/get_pack_state", agent_id=agent, pack_name=NAME)
        )[0]["beliefs"]
    }

    report = await _load(graph, agent, 2, _two_supporters(c_weight=None))

    assert report.retired_supports == ["c -> top"]
    assert report.retired == [] and report.supports_created == 0
    assert ("SUPPORTS", "c", "top") not in await _edges(test_graph, agent)
    assert ("SUPPORTS", "a", "top") in await _edges(test_graph, agent)
    # top is now derived from a alone, and the log says why.
    assert (await _strengths(graph, agent))["top"] == pytest.approx(0.9)
    events = [e for e in await _events(graph, agent) if e["belief_id"] == ids["top"]]
    retired = next(e for e in events if e.get("action") == "support_retired")
    assert (retired["kind"], retired["supporter_id"], retired["weight"]) == (
        "pack",
        ids["c"],
        1.0,
    )
    assert retired["pack"] == NAME and retired["version"] == 2
    assert retired["old_strength"] == retired["new_strength"] == pytest.approx(0.6)
    moved = next(e for e in events if e["kind"] == "cascade")
    assert moved["seq"] > retired["seq"]
    assert (moved["old_strength"], moved["new_strength"]) == (
        pytest.approx(0.6),
        pytest.approx(0.9),
    )
    await _consistent(graph, agent)

    again = await _load(graph, agent, 2, _two_supporters(c_weight=None))
    assert again.retired_supports == [] and again.status == "unchanged"

    restored = await _load(graph, agent, 3, _two_supporters(c_weight=1.0))
    assert restored.supports_created == 1 and restored.retired_supports == []
    assert (await _strengths(graph, agent))["top"] == pytest.approx(0.6)
    await _consistent(graph, agent)


async def test_a_version_that_drops_a_contradiction_resolves_it(
    graph: GraphClient, test_graph: GraphClient, client: TestClient
) -> None:
    agent = (await create_agent(graph, AgentCreate(name="contradiction dropper"))).id
    with_conflict = [
        _belief("a", 0.8, contradicts=[{"key": "c", "strength": 0.7}]),
        _belief("c", 0.4),
    ]
    without = [_belief("a", 0.8), _belief("c", 0.4)]
    await _load(graph, agent, 1, with_conflict)
    assert (await _edges(test_graph, agent))[("CONTRADICTS", "a", "c")]["status"] == "open"

    report = await _load(graph, agent, 2, without)

    assert report.retired_contradicts == ["a -> c"]
    edge = (await _edges(test_graph, agent))[("CONTRADICTS", "a", "c")]
    assert edge["status"] == "resolved"
    assert edge["resolution"] == f"retired by pack {NAME} v2"
    assert edge["retired_by_pack"] is True and edge["retired_in_version"] == 2
    assert edge["resolved_at"] is not None
    # No reader of open contradictions sees it any more.
    assert await graph.read("demo/list_open_contradictions", agent_id=agent) == []
    ids = {
        row["key"]: row["id"]
        for row in (
            await graph.read("packs/loader/get_pack_state", agent_id=agent, pack_name=NAME)
        )[0]["beliefs"]
    }
    shown = client.get(f"/v1/agents/{agent}/beliefs/{ids['a']}")
    assert shown.status_code == 200, shown.text
    assert [c["status"] for c in shown.json()["contradictions"]] == ["resolved"]
    explained = client.get(f"/v1/agents/{agent}/beliefs/{ids['a']}/explanation")
    assert explained.status_code == 200, explained.text
    assert explained.json()["open_contradictions"] == []
    await _consistent(graph, agent)
    assert (await _load(graph, agent, 2, without)).retired_contradicts == []

    restored = await _load(graph, agent, 3, with_conflict)

    assert restored.contradicts_created == 1 and restored.retired_contradicts == []
    edge = (await _edges(test_graph, agent))[("CONTRADICTS", "a", "c")]
    assert (edge["status"], edge.get("resolution"), edge.get("retired_in_version")) == (
        "open",
        None,
        None,
    )
    assert len(await graph.read("demo/list_open_contradictions", agent_id=agent)) == 1
    await _consistent(graph, agent)


async def test_a_new_supporter_of_a_held_belief_enters_its_derived_strength(
    graph: GraphClient,
) -> None:
    agent = (await create_agent(graph, AgentCreate(name="new supporters"))).id
    await _load(graph, agent, 1, [_belief("a", 0.9), _belief("b", 0.3)])
    assert (await _strengths(graph, agent))["b"] == pytest.approx(0.3)

    # a (held) and n (new, 0.1) now support b (held).
    report = await _load(
        graph,
        agent,
        2,
        [
            _belief("a", 0.9, supports=[{"key": "b", "weight": 1.0}]),
            _belief("b", 0.3),
            _belief("n", 0.1, supports=[{"key": "b", "weight": 1.0}]),
        ],
    )

    assert report.supports_created == 2 and report.created == 1
    assert (await _strengths(graph, agent))["b"] == pytest.approx(0.5)
    await _consistent(graph, agent)


async def test_a_version_that_re_weighs_a_supports_edge_re_derives_its_target(
    graph: GraphClient, test_graph: GraphClient
) -> None:
    agent = (await create_agent(graph, AgentCreate(name="re-weigher"))).id
    await _load(graph, agent, 1, _two_supporters(c_weight=1.0))
    ids = {
        row["key"]: row["id"]
        for row in (
            await graph.read("packs/loader/get_pack_state", agent_id=agent, pack_name=NAME)
        )[0]["beliefs"]
    }
    # A person re-weighs a -> top; reloading the same version leaves their weight.
    person = EdgeCreate(type="SUPPORTS", source_id=ids["a"], target_id=ids["top"], weight=0.25)
    await create_edge(graph, Mechanics(), agent, person)
    await _load(graph, agent, 1, _two_supporters(c_weight=1.0))
    assert (await _edges(test_graph, agent))[("SUPPORTS", "a", "top")]["weight"] == 0.25

    report = await _load(graph, agent, 2, _two_supporters(c_weight=0.5))

    edges = await _edges(test_graph, agent)
    assert edges[("SUPPORTS", "c", "top")]["weight"] == 0.5
    assert edges[("SUPPORTS", "a", "top")]["weight"] == 0.25
    expected = (0.25 * 0.9 + 0.5 * 0.3) / 0.75
    assert (await _strengths(graph, agent))["top"] == pytest.approx(expected)
    assert report.supports_created == 0 and report.retired_supports == []
    await _consistent(graph, agent)


def test_the_cli_lists_the_edges_a_version_retired(
    cli: CliRunner, agent: str, tmp_path: Path
) -> None:
    first = _two_supporters(c_weight=1.0)
    first[0]["contradicts"] = [{"key": "c", "strength": 0.5}]
    files = []
    for version, beliefs in ((1, first), (2, _two_supporters(c_weight=None))):
        path = tmp_path / f"v{version}.yaml"
        path.write_text(yaml.safe_dump(_document(version, beliefs)), encoding="utf-8")
        files.append(path)

    loaded = [cli.invoke(cli_app, ["packs", "load", str(f), "--agent", agent]) for f in files]

    for result in loaded:
        assert result.exit_code == 0, result.output
    assert "SUPPORTS edges no longer in the pack (removed): c -> top" in loaded[1].output
    assert "CONTRADICTS edges no longer in the pack (resolved): a -> c" in loaded[1].output


async def test_a_contradiction_follows_the_version_and_stays_one_edge_per_pair(
    graph: GraphClient, test_graph: GraphClient
) -> None:
    """A version that changes a contradiction's strength moves it; one that names the pair the
    other way round keeps the pair's one edge (the conflict register's rule), open."""
    agent = (await create_agent(graph, AgentCreate(name="contradiction mover"))).id
    await _load(
        graph,
        agent,
        1,
        [_belief("a", 0.8, contradicts=[{"key": "c", "strength": 0.7}]), _belief("c", 0.4)],
    )

    await _load(
        graph,
        agent,
        2,
        [_belief("a", 0.8, contradicts=[{"key": "c", "strength": 0.3}]), _belief("c", 0.4)],
    )
    edges = await _edges(test_graph, agent)
    assert edges[("CONTRADICTS", "a", "c")]["strength"] == pytest.approx(0.3)

    report = await _load(
        graph,
        agent,
        3,
        [_belief("a", 0.8), _belief("c", 0.4, contradicts=[{"key": "a", "strength": 0.3}])],
    )
    edges = await _edges(test_graph, agent)
    assert [key for key in edges if key[0] == "CONTRADICTS"] == [("CONTRADICTS", "a", "c")]
    assert edges[("CONTRADICTS", "a", "c")]["status"] == "open"
    assert report.retired_contradicts == [] and report.contradicts_created == 0
    await _consistent(graph, agent)


async def test_a_pack_born_belief_s_supporters_are_in_its_history_and_replay_checks_it(
    graph: GraphClient,
) -> None:
    """Each SUPPORTS edge a pack links writes a support_linked event (kind pack) on its target,
    so replay knows what a pack-born derived belief rests on: it checks that belief (a supporter
    moved without a cascade is named) rather than standing aside."""
    agent = (await create_agent(graph, AgentCreate(name="pack-born replay"))).id
    await _load(graph, agent, 1, _two_supporters(c_weight=1.0))
    ids = await _ids(graph, agent)
    top = [e for e in await _events(graph, agent) if e["belief_id"] == ids["top"]]
    linked = [e for e in top if e.get("action") == "support_linked"]
    assert sorted((e["supporter_id"], e["weight"], e["kind"]) for e in linked) == sorted(
        [(ids["a"], 1.0, "pack"), (ids["c"], 1.0, "pack")]
    )
    assert all(e["pack"] == NAME and e["version"] == 1 for e in linked)
    assert all(f"linked by pack {NAME} v1, weight 1.0" in e["note"] for e in linked)
    assert all(e["seq"] > top[0]["seq"] for e in linked)  # after its creation
    await _consistent(graph, agent)

    replay = await replay_agent(graph, Mechanics(), agent)
    assert replay.beliefs[ids["top"]].derived_from == {ids["a"]: 1.0, ids["c"]: 1.0}
    # A supporter that moves without a cascade is now named (before, replay stood aside).
    events = await _events(graph, agent)
    a = replay.beliefs[ids["a"]]
    events.append(
        {
            "seq": max(e["seq"] for e in events) + 1,
            "belief_id": ids["a"],
            "kind": "reinforcement",
            "weight": 1.0,
            "old_strength": a.strength,
            "old_tension": a.tension,
        }
    )
    stored = (await graph.read("beliefs/events/get_belief_states", agent_id=agent))[0]["states"]
    differences = differences_from_stored(replay_events(events, Mechanics()), stored)
    assert any(
        d.startswith(f"{ids['top']}: strength") and "no cascade re-derived it" in d
        for d in differences
    ), differences


async def test_a_version_that_re_weighs_a_supports_edge_leaves_a_support_reweighed_event(
    graph: GraphClient,
) -> None:
    agent = (await create_agent(graph, AgentCreate(name="pack re-weigh event"))).id
    await _load(graph, agent, 1, _two_supporters(c_weight=1.0))
    ids = await _ids(graph, agent)

    await _load(graph, agent, 2, _two_supporters(c_weight=0.5))

    events = [e for e in await _events(graph, agent) if e["belief_id"] == ids["top"]]
    reweighed = [e for e in events if e.get("action") == "support_reweighed"]
    assert [(e["kind"], e["supporter_id"], e["old_weight"], e["weight"]) for e in reweighed] == [
        ("pack", ids["c"], 1.0, 0.5)
    ]
    assert reweighed[0]["version"] == 2
    assert f"re-weighed by pack {NAME} v2, weight 1.0 -> 0.5" in reweighed[0]["note"]
    cascade = next(e for e in events if e["kind"] == "cascade")
    assert cascade["seq"] > reweighed[0]["seq"]
    await _consistent(graph, agent)
    replay = await replay_agent(graph, Mechanics(), agent)
    assert replay.beliefs[ids["top"]].derived_from == {ids["a"]: 1.0, ids["c"]: 0.5}


async def test_a_pack_s_contradictions_are_in_both_beliefs_histories(
    graph: GraphClient,
) -> None:
    agent = (await create_agent(graph, AgentCreate(name="pack contradiction events"))).id
    beliefs = [
        _belief("x", 0.6, contradicts=[{"key": "y", "strength": 0.5}]),
        _belief("y", 0.4),
    ]
    await _load(graph, agent, 1, beliefs)
    ids = await _ids(graph, agent)
    recorded = [
        (e["belief_id"], e["contradicting_id"], e["strength"], e["kind"], e["version"])
        for e in await _events(graph, agent)
        if e.get("action") == "contradiction_recorded"
    ]
    assert sorted(recorded) == sorted(
        [(ids["x"], ids["y"], 0.5, "pack", 1), (ids["y"], ids["x"], 0.5, "pack", 1)]
    )
    beliefs[0]["contradicts"] = [{"key": "y", "strength": 0.8}]
    await _load(graph, agent, 2, beliefs)
    updated = [e for e in await _events(graph, agent) if e.get("action") == "contradiction_updated"]
    assert sorted((e["belief_id"], e["strength"]) for e in updated) == sorted(
        [(ids["x"], 0.8), (ids["y"], 0.8)]
    )
    await _load(graph, agent, 3, [_belief("x", 0.6), _belief("y", 0.4)])
    await _load(graph, agent, 4, beliefs)
    later = [
        (e["belief_id"], e["action"], e["version"], e["note"].split("') ")[1])
        for e in await _events(graph, agent)
        if e.get("version", 0) > 2 and e.get("contradicting_id")
    ]
    assert sorted(later) == sorted(
        [
            (ids["x"], "contradiction_resolved", 3, f"retired by pack {NAME} v3"),
            (ids["y"], "contradiction_resolved", 3, f"retired by pack {NAME} v3"),
            (
                ids["x"],
                "contradiction_reopened",
                4,
                f"reopened by pack {NAME} v4, strength 0.8, open",
            ),
            (
                ids["y"],
                "contradiction_reopened",
                4,
                f"reopened by pack {NAME} v4, strength 0.8, open",
            ),
        ]
    )
    await _consistent(graph, agent)


async def _ids(graph: GraphClient, agent: str) -> dict[str, str]:
    state = await graph.read("packs/loader/get_pack_state", agent_id=agent, pack_name=NAME)
    return {row["key"]: row["id"] for row in state[0]["beliefs"]}


async def test_the_explanation_names_the_supports_a_pack_linked_together(
    graph: GraphClient, client: TestClient
) -> None:
    """The explanation's summary names every supporter change of its latest moment (a pack
    version links them in one transaction), each as its event's note says."""
    agent = (await create_agent(graph, AgentCreate(name="pack explained"))).id
    await _load(graph, agent, 1, _two_supporters(c_weight=1.0))
    ids = await _ids(graph, agent)

    why = client.get(f"/v1/agents/{agent}/beliefs/{ids['top']}/explanation")

    assert why.status_code == 200, why.text
    notes = {
        key: f"SUPPORTS from {ids[key]} ('Statement {key} about ledgers.') linked by pack "
        f"{NAME} v1, weight 1.0"
        for key in ("a", "c")
    }
    summary = why.json()["summary"]
    assert "Its supporters last changed at " in summary
    assert notes["a"] in summary and notes["c"] in summary, summary
