"""Explaining a belief on a scripted history (REST): the SUPPORTS chain with its weights, the
evidence for and against with its source, the open contradiction and the revision."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.integration.beliefs.scripted_history import LEAF, MIDDLE, RIVAL, ROOT, script_history


def test_the_explanation_tells_the_whole_story_of_a_revised_belief(client: TestClient) -> None:
    agent = client.post("/v1/agents", json={"name": "Explainer"}).json()["id"]
    history = script_history(client, agent)

    response = client.get(f"/v1/agents/{agent}/beliefs/{history.new_root}/explanation")

    assert response.status_code == 200, response.text
    why = response.json()
    assert why["belief"]["id"] == history.new_root and why["belief"]["is_active"]
    chain = {(s["id"], s["depth"]): s for s in why["support_chain"]}
    assert set(chain) == {(history.middle, 1), (history.leaf, 2)}
    assert chain[(history.middle, 1)]["weight"] == pytest.approx(0.8)
    assert chain[(history.middle, 1)]["supports_id"] == history.new_root
    assert chain[(history.leaf, 2)]["weight"] == pytest.approx(0.5)
    assert chain[(history.leaf, 2)]["path_weight"] == pytest.approx(0.4)
    assert chain[(history.leaf, 2)]["supports_statement"] == MIDDLE

    assert [e["text"] for e in why["evidence_for"]] == ["March collections came in on plan"]
    assert why["evidence_for"][0]["source_person"] == "Dana Smith"
    assert why["evidence_for"][0]["belief_id"] == history.old_root
    against = why["evidence_against"]
    assert len(against) == 6
    assert against[0]["text"] == "Collections slipped two weeks in month 5"  # newest first
    assert against[-1]["source_person"] == "Dana Smith"
    assert {e["source_person_id"] for e in against} == {history.person, None}

    assert [c["id"] for c in why["open_contradictions"]] == [history.rival]
    assert why["open_contradictions"][0]["statement"] == RIVAL
    assert [p["id"] for p in why["predecessors"]] == [history.old_root]
    assert why["predecessors"][0]["statement"] == ROOT
    assert why["successors"] == []
    [revision] = why["revisions"]
    assert revision["id"] == history.revision
    assert (revision["old_belief_id"], revision["new_belief_id"]) == (
        history.old_root,
        history.new_root,
    )
    assert revision["mode"] == "threshold" and revision["trigger_tension"] >= 0.7
    assert why["recent_events"]

    summary = why["summary"]
    assert MIDDLE in summary and "weight 0.80" in summary
    assert "1 for, 6 against" in summary
    assert RIVAL in summary
    assert f"replaced {ROOT!r}" in summary

    # The old belief says what it became; the leaf has nothing holding it up.
    old = client.get(f"/v1/agents/{agent}/beliefs/{history.old_root}/explanation").json()
    assert not old["belief"]["is_active"]
    assert [s["id"] for s in old["successors"]] == [history.new_root]
    leaf = client.get(f"/v1/agents/{agent}/beliefs/{history.leaf}/explanation").json()
    assert leaf["support_chain"] == [] and "No other belief supports it" in leaf["summary"]
    assert LEAF in leaf["summary"]

    shallow = client.get(
        f"/v1/agents/{agent}/beliefs/{history.new_root}/explanation", params={"depth": 1}
    ).json()
    assert [s["id"] for s in shallow["support_chain"]] == [history.middle]


def test_explaining_an_unknown_belief_or_a_bad_depth_is_refused(client: TestClient) -> None:
    agent = client.post("/v1/agents", json={"name": "Explainer"}).json()["id"]
    missing = client.get(f"/v1/agents/{agent}/beliefs/nope/explanation")
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "belief_not_found"
    too_deep = client.get(f"/v1/agents/{agent}/beliefs/nope/explanation", params={"depth": 9})
    assert too_deep.status_code == 422 and "depth" in too_deep.json()["error"]["message"]


def test_the_overview_shows_dissatisfaction_tense_beliefs_and_revisions(
    client: TestClient,
) -> None:
    agent = client.post("/v1/agents", json={"name": "Overseen"}).json()["id"]
    history = script_history(client, agent)

    response = client.get(f"/v1/agents/{agent}/overview", params={"top": 3})

    assert response.status_code == 200, response.text
    overview = response.json()
    assert overview["agent"]["id"] == agent and overview["agent"]["revisions"] == 1
    assert overview["dissatisfaction"]["band"] in ("low", "medium", "high")
    assert [r["id"] for r in overview["recent_revisions"]] == [history.revision]
    tensions = [b["tension"] for b in overview["most_tense"]]
    assert tensions == sorted(tensions, reverse=True) and all(t > 0 for t in tensions)


def test_the_summary_counts_every_piece_and_only_the_supporters_that_count(
    client: TestClient, agent: str
) -> None:
    """The lists stop at ``limit`` (20) but the summary counts all 30 pieces; a deactivated
    supporter is named apart, not as support (the strength no longer counts it); the latest
    piece against is the last one written, even when a batch wrote them all at one time."""
    url = f"/v1/agents/{agent}"
    ids = {}
    for name, strength in (("Apples are red", 0.9), ("Bananas are blue", 0.1), ("Fruit", 0.5)):
        body = {"statement": name, "strength": strength, "category": "aesthetic"}
        ids[name] = client.post(f"{url}/beliefs", json=body).json()["id"]
    fruit = ids["Fruit"]
    for supporter in ("Apples are red", "Bananas are blue"):
        edge = {"type": "SUPPORTS", "source_id": ids[supporter], "target_id": fruit}
        assert client.post(f"{url}/edges", json=edge).status_code == 200
    gone = client.patch(f"{url}/beliefs/{ids['Bananas are blue']}", json={"is_active": False})
    assert gone.status_code == 200
    items = [
        {"belief_id": fruit, "text": f"for {n}", "stance": "reinforcing", "confidence": 0.5}
        for n in range(25)
    ] + [
        {"belief_id": fruit, "text": f"against {n}", "stance": "contradicting", "confidence": 0.1}
        for n in range(5)
    ]
    assert client.post(f"{url}/evidence", json={"items": items}).status_code == 200

    why = client.get(f"{url}/beliefs/{fruit}/explanation").json()

    assert len(why["evidence_for"]) + len(why["evidence_against"]) == 20  # the limit
    assert why["evidence_totals"] == {"reinforcing": 25, "contradicting": 5, "other": 0}
    assert why["support_totals"] == {"active": 1, "inactive": 1, "deeper": 0}
    summary = why["summary"]
    assert "Evidence: 25 for, 5 against, 0 other." in summary
    assert "Supported by 'Apples are red' (weight 1.00)." in summary
    assert "No longer held, so no longer counted in its strength: 'Bananas are blue'." in summary
    assert [e["text"] for e in why["evidence_against"]] == [
        f"against {n}" for n in range(4, -1, -1)
    ]
    assert "Latest against: 'against 4'." in summary
