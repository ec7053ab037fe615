"""An edge made by hand is history (docs/beliefs.md §6): a SUPPORTS edge linked, re-weighed or
removed over REST writes an event on its target, and a CONTRADICTS pair recorded or resolved one
on each belief, so the history, the explanation and the replay can tell it (REST, real Neo4j)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.beliefs.mechanics import Mechanics
from app.beliefs.replay import differences_from_stored, replay_agent, replay_events
from app.beliefs.revision import revise_belief
from app.graph.client import GraphClient
from app.reasoning.offline.reasoner import OfflineReasoner


def _belief(client: TestClient, agent: str, statement: str, strength: float) -> str:
    body = {"statement": statement, "category": "contextual", "strength": strength}
    response = client.post(f"/v1/agents/{agent}/beliefs", json=body)
    assert response.status_code == 201, response.text
    belief_id: str = response.json()["id"]
    return belief_id


def _edge(client: TestClient, agent: str, **edge: Any) -> dict[str, Any]:
    response = client.post(f"/v1/agents/{agent}/edges", json=edge)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def _events(client: TestClient, agent: str, belief: str) -> list[dict[str, Any]]:
    """The belief's events, oldest first."""
    events: list[dict[str, Any]] = client.get(f"/v1/agents/{agent}/beliefs/{belief}").json()[
        "events"
    ]
    return sorted(events, key=lambda e: e["seq"])


def _replay(client: TestClient, agent: str) -> dict[str, Any]:
    report: dict[str, Any] = client.get(f"/v1/agents/{agent}/replay").json()
    return report


def test_a_support_linked_by_hand_writes_an_event_then_the_cascade(
    client: TestClient, agent: str
) -> None:
    a = _belief(client, agent, "A is true", 0.9)
    b = _belief(client, agent, "B is true", 0.5)

    _edge(client, agent, type="SUPPORTS", source_id=a, target_id=b, weight=0.7)

    linked, cascade = _events(client, agent, b)[-2:]
    assert (linked["kind"], linked["action"]) == ("manual", "support_linked")
    assert (linked["supporter_id"], linked["weight"]) == (a, 0.7)
    assert linked["old_strength"] == linked["new_strength"] == 0.5
    assert "'A is true'" in linked["note"] and "linked by hand, weight 0.7" in linked["note"]
    assert cascade["kind"] == "cascade" and cascade["new_strength"] == pytest.approx(0.9)
    assert cascade["seq"] == linked["seq"] + 1
    why = client.get(f"/v1/agents/{agent}/beliefs/{b}/explanation").json()
    assert any(e.get("action") == "support_linked" for e in why["recent_events"])
    at = datetime.fromisoformat(linked["at"]).isoformat()
    assert (
        f"Its supporters last changed at {at}: SUPPORTS from {a} ('A is true') "
        "linked by hand, weight 0.7." in why["summary"]
    )
    assert _replay(client, agent)["differences"] == []

    # Posting the same edge again changes nothing and writes nothing.
    before = len(_events(client, agent, b))
    _edge(client, agent, type="SUPPORTS", source_id=a, target_id=b, weight=0.7)
    assert len(_events(client, agent, b)) == before


def test_a_support_reweighed_by_hand_writes_an_event_and_re_derives(
    client: TestClient, agent: str
) -> None:
    a = _belief(client, agent, "A is true", 0.9)
    c = _belief(client, agent, "C is true", 0.3)
    b = _belief(client, agent, "B is true", 0.5)
    _edge(client, agent, type="SUPPORTS", source_id=a, target_id=b, weight=1.0)
    _edge(client, agent, type="SUPPORTS", source_id=c, target_id=b, weight=1.0)
    assert _events(client, agent, b)[-1]["new_strength"] == pytest.approx(0.6)

    result = _edge(client, agent, type="SUPPORTS", source_id=a, target_id=b, weight=0.5)

    assert result["created"] is False and result["weight"] == 0.5
    reweighed, cascade = _events(client, agent, b)[-2:]
    assert (reweighed["kind"], reweighed["action"]) == ("manual", "support_reweighed")
    assert (reweighed["supporter_id"], reweighed["weight"], reweighed["old_weight"]) == (
        a,
        0.5,
        1.0,
    )
    assert cascade["kind"] == "cascade"
    assert cascade["new_strength"] == pytest.approx((0.5 * 0.9 + 0.3) / 1.5)
    assert _replay(client, agent)["differences"] == []


async def test_the_replay_flags_a_link_by_hand_whose_cascade_never_ran(
    client: TestClient, agent: str, graph: GraphClient
) -> None:
    """The link's event tells the replay the target now rests on that supporter: an edge
    written with its event but without the cascade is named."""
    a = _belief(client, agent, "A is true", 0.9)
    b = _belief(client, agent, "B is true", 0.5)

    # The edge's own query, without the cascade create_edge runs after it.
    edge = {"source_id": a, "target_id": b, "weight": 0.7}
    await graph.write("beliefs/edges/create_supports", agent_id=agent, edge=edge, kind="manual")

    report = _replay(client, agent)
    linked = _events(client, agent, b)[-1]
    assert linked["action"] == "support_linked"
    assert report["differences"] == [
        f"{b}: strength 0.5 should be derived from 1 supporter(s) since seq {linked['seq']} "
        f"(support_linked), which give 0.9: no cascade re-derived it"
    ]


def test_a_contradiction_recorded_and_resolved_by_hand_writes_events_on_both(
    client: TestClient, agent: str
) -> None:
    a = _belief(client, agent, "A is true", 0.9)
    b = _belief(client, agent, "B is true", 0.5)

    _edge(client, agent, type="CONTRADICTS", source_id=a, target_id=b, strength=0.8)

    for belief, other in ((a, b), (b, a)):
        event = _events(client, agent, belief)[-1]
        assert (event["kind"], event["action"]) == ("manual", "contradiction_recorded")
        assert (event["contradicting_id"], event["strength"], event["status"]) == (
            other,
            0.8,
            "open",
        )
        assert event["old_tension"] == event["new_tension"]

    _edge(
        client,
        agent,
        type="CONTRADICTS",
        source_id=b,
        target_id=a,
        status="resolved",
        resolution="A holds",
    )

    for belief in (a, b):
        event = _events(client, agent, belief)[-1]
        assert (event["action"], event["status"], event["resolution"]) == (
            "contradiction_resolved",
            "resolved",
            "A holds",
        )
    before = len(_events(client, agent, a))
    _edge(client, agent, type="CONTRADICTS", source_id=a, target_id=b, status="resolved")
    assert len(_events(client, agent, a)) == before  # nothing changed, nothing written
    assert _replay(client, agent)["differences"] == []


def test_a_support_removed_by_hand_writes_an_event_and_re_derives_from_those_left(
    client: TestClient, agent: str
) -> None:
    a = _belief(client, agent, "A is true", 0.9)
    c = _belief(client, agent, "C is true", 0.3)
    b = _belief(client, agent, "B is true", 0.5)
    _edge(client, agent, type="SUPPORTS", source_id=a, target_id=b, weight=1.0)
    _edge(client, agent, type="SUPPORTS", source_id=c, target_id=b, weight=1.0)

    response = client.delete(f"/v1/agents/{agent}/edges/supports/{a}/{b}")

    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["source_id"], body["target_id"], body["weight"]) == (a, b, 1.0)
    assert [(m["id"], m["new"]) for m in body["cascade"]] == [(b, pytest.approx(0.3))]
    removed, cascade = _events(client, agent, b)[-2:]
    assert (removed["kind"], removed["action"]) == ("manual", "support_removed")
    assert (removed["supporter_id"], removed["weight"]) == (a, 1.0)
    assert "removed by hand" in removed["note"]
    assert cascade["kind"] == "cascade" and cascade["supporter_ids"] == [c]
    detail = client.get(f"/v1/agents/{agent}/beliefs/{b}").json()
    assert detail["belief"]["strength"] == pytest.approx(0.3)
    assert _replay(client, agent)["differences"] == []

    again = client.delete(f"/v1/agents/{agent}/edges/supports/{a}/{b}")
    assert again.status_code == 404 and again.json()["error"]["code"] == "edge_not_found"
    nobody = client.delete(f"/v1/agents/{agent}/edges/supports/nope/{b}")
    assert nobody.status_code == 404 and nobody.json()["error"]["code"] == "belief_not_found"


async def test_removing_a_support_keeps_the_degrees_and_sums_as_a_recount_gives(
    client: TestClient, agent: str, graph: GraphClient
) -> None:
    a = _belief(client, agent, "A is true", 0.9)
    b = _belief(client, agent, "B is true", 0.5)
    c = _belief(client, agent, "C is true", 0.4)
    _edge(client, agent, type="SUPPORTS", source_id=a, target_id=b, weight=1.0)
    _edge(client, agent, type="SUPPORTS", source_id=c, target_id=b, weight=1.0)
    assert client.delete(f"/v1/agents/{agent}/edges/supports/{a}/{b}").status_code == 200

    kept = (await graph.read("beliefs/dissatisfaction/get_sums", agent_id=agent))[0]
    recount = (await graph.write("beliefs/dissatisfaction/recompute_sums", agent_id=agent))[0]

    for key in ("d_imp", "d_imp_deg", "d_t_imp", "d_t_imp_deg", "d_max_degree"):
        assert kept[key] == pytest.approx(recount[key]), key


async def test_a_revised_supporter_s_edges_are_in_their_targets_histories(
    client: TestClient, agent: str, graph: GraphClient
) -> None:
    """A revision moves the old belief's SUPPORTS edges to the new one: each belief it held up
    gets a support_moved event naming both, the new belief a support_linked for each supporter
    it took over, so replay still knows what each rests on and checks it (it stood aside: the
    supporter it knew was gone from the edges)."""
    s = _belief(client, agent, "S is true", 0.8)
    a = _belief(client, agent, "A is true", 0.9)
    c = _belief(client, agent, "C is true", 0.3)
    t = _belief(client, agent, "T is true", 0.5)
    r = _belief(client, agent, "R is true", 0.5)
    _edge(client, agent, type="SUPPORTS", source_id=s, target_id=a, weight=1.0)
    _edge(client, agent, type="SUPPORTS", source_id=a, target_id=t, weight=1.0)
    _edge(client, agent, type="SUPPORTS", source_id=c, target_id=t, weight=0.5)
    _edge(client, agent, type="CONTRADICTS", source_id=a, target_id=r, strength=0.4)

    outcome = await revise_belief(
        graph, Mechanics(), OfflineReasoner(), agent, a, mode="manual", with_cascade=False
    )

    [revision] = outcome.revisions
    new = revision.new_belief_id
    assert new is not None
    moved = [e for e in _events(client, agent, t) if e.get("action") == "support_moved"]
    assert [(e["kind"], e["supporter_id"], e["old_supporter_id"], e["weight"]) for e in moved] == [
        ("revision", new, a, 1.0)
    ]
    assert moved[0]["revision_id"] == revision.id
    assert f"SUPPORTS from {a} moved to its revision {new}" in moved[0]["note"]
    created, *rest = _events(client, agent, new)
    assert created["action"] == "created"
    taken = [e for e in rest if e.get("action") == "support_linked"]
    assert [(e["kind"], e["supporter_id"], e["weight"]) for e in taken] == [("revision", s, 1.0)]
    assert f"moved from {a} by revision {revision.id}" in taken[0]["note"]
    conflict = [e for e in _events(client, agent, r) if e.get("action") == "contradiction_moved"]
    assert [(e["contradicting_id"], e["old_contradicting_id"]) for e in conflict] == [(new, a)]
    why = client.get(f"/v1/agents/{agent}/beliefs/{t}/explanation").json()
    assert "Its supporters last changed at" in why["summary"]
    assert f"SUPPORTS from {a} moved to its revision {new}" in why["summary"]
    assert _replay(client, agent)["differences"] == []

    replay = await replay_agent(graph, Mechanics(), agent)
    assert replay.beliefs[t].derived_from == {new: 1.0, c: 0.5}
    assert replay.beliefs[new].derived_from == {s: 1.0}
    # Replay checks both: a supporter moved without a cascade is named.
    events = await _all_events(graph, agent)
    for supporter, derived in ((c, t), (s, new)):
        state = replay.beliefs[supporter]
        extra = {
            "seq": max(e["seq"] for e in events) + 1,
            "belief_id": supporter,
            "kind": "reinforcement",
            "weight": 1.0,
            "old_strength": state.strength,
            "old_tension": state.tension,
        }
        stored = (await graph.read("beliefs/events/get_belief_states", agent_id=agent))[0]
        found = differences_from_stored(
            replay_events([*events, extra], Mechanics()), stored["states"]
        )
        assert any(
            d.startswith(f"{derived}: strength") and "no cascade re-derived it" in d for d in found
        ), found


async def _all_events(graph: GraphClient, agent: str) -> list[dict[str, Any]]:
    rows = await graph.read(
        "beliefs/events/list_events", agent_id=agent, belief_id=None, after_seq=0, limit=1000
    )
    events: list[dict[str, Any]] = rows[0]["events"]
    return events
