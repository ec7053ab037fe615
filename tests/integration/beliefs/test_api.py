"""The belief engine end to end through the REST API (real Neo4j, offline reasoner)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from app.cli.main import app as cli_app
from app.graph.client import GraphClient


def _belief(client: TestClient, agent: str, **fields: Any) -> str:
    body = {"statement": "Invoices are paid in 30 days", "category": "contextual", **fields}
    response = client.post(f"/v1/agents/{agent}/beliefs", json=body)
    assert response.status_code == 201, response.text
    belief_id: str = response.json()["id"]
    return belief_id


def test_a_belief_lives_its_whole_life_through_the_api(client: TestClient, agent: str) -> None:
    leaf = _belief(client, agent, strength=0.8, contexts=[{"name": "month_end", "strength": 0.3}])
    core = _belief(client, agent, statement="Cash is predictable", strength=0.9, importance=0.9)
    edge = client.post(
        f"/v1/agents/{agent}/edges",
        json={"type": "SUPPORTS", "source_id": leaf, "target_id": core, "weight": 1.0},
    )
    assert edge.status_code == 200, edge.text
    assert edge.json()["cascade"] == [{"id": core, "old": 0.9, "new": 0.8}]

    cycle = client.post(
        f"/v1/agents/{agent}/edges", json={"type": "SUPPORTS", "source_id": core, "target_id": leaf}
    )
    assert cycle.status_code == 409
    assert cycle.json()["error"]["code"] == "cycle_refused"
    assert cycle.json()["error"]["details"]["cycle"] == [leaf, core]

    outcome = client.post(
        f"/v1/agents/{agent}/beliefs/{leaf}/outcome",
        json={"outcome": "failure", "moral_valence": "neutral", "severity": 1.0},
    )
    assert outcome.status_code == 200
    assert outcome.json()["new_strength"] == pytest.approx(0.65)
    assert outcome.json()["cascade"][0]["id"] == core

    revision = None
    for number in range(5):
        response = client.post(
            f"/v1/agents/{agent}/beliefs/{leaf}/evidence",
            json={"text": f"Paid in 45 days ({number})", "stance": "contradicting"},
        )
        assert response.status_code == 200, response.text
        revisions = response.json()["revision"]["revisions"]
        if revisions:
            revision = revisions[0]
    assert revision is not None and revision["old_belief_id"] == leaf

    detail = client.get(f"/v1/agents/{agent}/beliefs/{leaf}").json()
    assert detail["belief"]["is_active"] is False
    assert detail["successors"][0]["id"] == revision["new_belief_id"]
    assert len(detail["evidence"]) == 5
    new = client.get(
        f"/v1/agents/{agent}/beliefs/{revision['new_belief_id']}", params={"context": "month_end"}
    ).json()
    assert new["supports"][0]["id"] == core
    assert new["strength_in_context"] == 0.3 and new["supervision_mode"] == "guidance"

    assert client.get(f"/v1/agents/{agent}/revisions").json()["count"] == 1
    one = client.get(f"/v1/agents/{agent}/revisions/{revision['id']}").json()
    assert one["revision"]["mode"] == "threshold"
    listed = client.get(f"/v1/agents/{agent}/beliefs", params={"text": "45 days"}).json()
    assert [b["id"] for b in listed["data"]] == [revision["new_belief_id"]]
    inactive = client.get(f"/v1/agents/{agent}/beliefs", params={"active": False}).json()
    assert [b["id"] for b in inactive["data"]] == [leaf]

    dissatisfaction = client.get(f"/v1/agents/{agent}/dissatisfaction").json()
    assert dissatisfaction["band"] in ("low", "medium", "high")
    assert dissatisfaction["contributors"][0]["id"] == core  # tension flowed up, core is central

    graph = client.get(f"/v1/agents/{agent}/graph", params={"include_inactive": True}).json()
    assert {n["id"] for n in graph["nodes"]} == {leaf, core, revision["new_belief_id"]}
    assert {e["type"] for e in graph["edges"]} == {"SUPPORTS", "SUPERSEDED_BY"}

    events = client.get(f"/v1/agents/{agent}/events", params={"belief_id": leaf}).json()
    kinds = [e["kind"] for e in events["data"]]
    assert kinds[0] == "manual" and "outcome" in kinds and kinds[-1] == "revision"


def test_contradictions_form_a_conflict_register(client: TestClient, agent: str) -> None:
    a = _belief(client, agent, statement="Remote work raises output")
    b = _belief(client, agent, statement="Remote work lowers output")
    url = f"/v1/agents/{agent}/edges"

    opened = client.post(
        url, json={"type": "CONTRADICTS", "source_id": a, "target_id": b, "strength": 0.8}
    ).json()
    resolved = client.post(
        url,
        json={
            "type": "CONTRADICTS",
            "source_id": b,
            "target_id": a,
            "status": "resolved",
            "resolution": "Depends on the team",
        },
    ).json()

    assert opened["created"] and opened["status"] == "open"
    assert not resolved["created"] and resolved["status"] == "resolved"
    detail = client.get(f"/v1/agents/{agent}/beliefs/{a}").json()
    assert detail["contradictions"] == [
        {
            "id": b,
            "statement": "Remote work lowers output",
            "strength": 0.8,
            "status": "resolved",
            "resolution": "Depends on the team",
            "direction": "outgoing",
        }
    ]


def test_edit_and_deactivate_are_recorded_not_deleted(client: TestClient, agent: str) -> None:
    belief = _belief(client, agent)
    url = f"/v1/agents/{agent}/beliefs/{belief}"

    edited = client.patch(
        url,
        json={
            "statement": "Invoices are paid in 35 days",
            "importance": 0.9,
            "supervision_mode": "proposal",
        },
    )
    deactivated = client.patch(url, json={"is_active": False})

    assert edited.status_code == 200 and edited.json()["importance"] == 0.9
    assert deactivated.json()["is_active"] is False
    detail = client.get(url).json()
    assert detail["supervision_mode"] == "proposal"
    assert [e["action"] for e in reversed(detail["events"])] == [
        "created",
        "updated",
        "deactivated",
    ]


def test_unknown_ids_are_404(client: TestClient, agent: str) -> None:
    missing_agent = client.get("/v1/agents/no-such-agent/beliefs/x")
    missing_belief = client.get(f"/v1/agents/{agent}/beliefs/no-such-belief")
    missing_outcome = client.post(
        f"/v1/agents/{agent}/beliefs/nope/outcome", json={"outcome": "success"}
    )
    missing_revision = client.get(f"/v1/agents/{agent}/revisions/nope")
    create_for_missing = client.post(
        "/v1/agents/no-such-agent/beliefs", json={"statement": "x", "category": "aesthetic"}
    )

    assert missing_agent.status_code == 404
    assert missing_belief.status_code == 404
    assert missing_belief.json()["error"] == {
        "code": "belief_not_found",
        "message": f"belief 'no-such-belief' does not exist for agent '{agent}'",
        "details": {"belief_id": "no-such-belief", "agent_id": agent},
    }
    assert missing_outcome.status_code == 404
    assert missing_revision.status_code == 404
    assert create_for_missing.status_code == 404
    assert create_for_missing.json()["error"]["code"] == "agent_not_found"


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("beliefs", {"statement": "x", "category": "contextual", "strength": 1.5}, "strength"),
        ("beliefs", {"statement": "x", "category": "spiritual"}, "category"),
        ("beliefs", {"statement": "  ", "category": "contextual"}, "statement"),
        (
            "beliefs",
            {
                "statement": "x",
                "category": "ethical",
                "contexts": [{"name": "Month End!", "strength": 0.2}],
            },
            "name",
        ),
        ("beliefs/{belief}/outcome", {"outcome": "success", "severity": -0.1}, "severity"),
        (
            "beliefs/{belief}/outcome",
            {"outcome": "success", "moral_valence": "sin"},
            "moral_valence",
        ),
        (
            "beliefs/{belief}/evidence",
            {"text": "x", "stance": "contradicting", "confidence": 2},
            "confidence",
        ),
        (
            "edges",
            {"type": "SUPPORTS", "source_id": "{belief}", "target_id": "x", "weight": 0},
            "weight",
        ),
    ],
)
def test_bad_input_is_422_naming_the_field_and_writes_nothing(
    client: TestClient, agent: str, path: str, body: dict[str, Any], field: str
) -> None:
    belief = _belief(client, agent)
    before = client.get(f"/v1/agents/{agent}/events").json()["count"]
    body = {
        k: (v.replace("{belief}", belief) if isinstance(v, str) else v) for k, v in body.items()
    }

    response = client.post(f"/v1/agents/{agent}/{path.replace('{belief}', belief)}", json=body)

    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "invalid_input"
    assert any(field in problem["location"] for problem in error["details"]["errors"])
    assert field in error["message"]
    assert client.get(f"/v1/agents/{agent}/events").json()["count"] == before


def test_a_batch_naming_an_unknown_belief_writes_nothing(client: TestClient, agent: str) -> None:
    belief = _belief(client, agent)
    before = client.get(f"/v1/agents/{agent}/beliefs/{belief}").json()

    response = client.post(
        f"/v1/agents/{agent}/evidence",
        json={
            "items": [
                {"belief_id": belief, "text": "a", "stance": "contradicting"},
                {"belief_id": "ghost", "text": "b", "stance": "contradicting"},
            ]
        },
    )

    assert response.status_code == 404
    assert response.json()["error"]["details"]["belief_id"] == "ghost"
    after = client.get(f"/v1/agents/{agent}/beliefs/{belief}").json()
    assert after["belief"]["tension"] == before["belief"]["tension"] == 0.0
    assert after["evidence"] == [] and len(after["events"]) == 1


def test_a_batch_of_evidence_applies_in_one_request(client: TestClient, agent: str) -> None:
    a = _belief(client, agent)
    b = _belief(client, agent, statement="Other")

    response = client.post(
        f"/v1/agents/{agent}/evidence",
        json={
            "items": [
                {"belief_id": a, "text": "x", "stance": "contradicting", "confidence": 0.5},
                {"belief_id": b, "text": "y", "stance": "reinforcing"},
                {"belief_id": a, "text": "z", "stance": "contradicting", "confidence": 0.5},
            ]
        },
    )

    assert response.status_code == 200
    results = response.json()["results"]
    assert [r["new_tension"] for r in results] == pytest.approx([0.075, 0.0, 0.15])
    assert results[1]["new_strength"] == pytest.approx(0.55)


def test_evidence_or_outcome_on_a_superseded_belief_is_409(client: TestClient, agent: str) -> None:
    belief = _belief(client, agent)
    client.patch(f"/v1/agents/{agent}/beliefs/{belief}", json={"is_active": False})

    evidence = client.post(
        f"/v1/agents/{agent}/beliefs/{belief}/evidence",
        json={"text": "x", "stance": "contradicting"},
    )
    outcome = client.post(
        f"/v1/agents/{agent}/beliefs/{belief}/outcome", json={"outcome": "success"}
    )

    assert evidence.status_code == 409 and outcome.status_code == 409
    assert evidence.json()["error"]["code"] == "belief_inactive"
    detail = client.get(f"/v1/agents/{agent}/beliefs/{belief}").json()
    assert detail["evidence"] == [] and detail["belief"]["tension"] == 0.0


def test_deactivating_twice_records_one_event(client: TestClient, agent: str) -> None:
    belief = _belief(client, agent)
    url = f"/v1/agents/{agent}/beliefs/{belief}"

    client.patch(url, json={"is_active": False})
    again = client.patch(url, json={"is_active": False})

    assert again.status_code == 200
    actions = [e["action"] for e in client.get(url).json()["events"]]
    assert actions.count("deactivated") == 1


def test_beliefs_needing_attention_are_the_invalidated_ones(
    client: TestClient, agent: str, cli: CliRunner
) -> None:
    """Seed 000's beliefs "needing attention": below their category's invalidation threshold
    (contextual 0.75), over REST and from the terminal."""
    url = f"/v1/agents/{agent}/beliefs"
    weak = client.post(
        url,
        json={
            "statement": "Petty cash is counted weekly",
            "strength": 0.5,
            "category": "contextual",
        },
    )
    firm = client.post(
        url,
        json={
            "statement": "Invoices are approved twice",
            "strength": 0.9,
            "category": "contextual",
        },
    )
    assert weak.status_code == firm.status_code == 201
    attention = client.get(url, params={"invalidated": True}).json()
    assert [b["id"] for b in attention["data"]] == [weak.json()["id"]]
    valid = client.get(url, params={"invalidated": False}).json()
    assert [b["id"] for b in valid["data"]] == [firm.json()["id"]]
    assert client.get(url).json()["count"] == 2
    assert client.get(url, params={"invalidated": "perhaps"}).status_code == 422

    listed = cli.invoke(cli_app, ["beliefs", "list", "--agent", agent, "--needing-attention"])
    assert listed.exit_code == 0, listed.output
    assert "Petty cash" in listed.output and "approved twice" not in listed.output


async def test_the_event_log_replays_to_the_graph_and_a_tampered_belief_shows(
    client: TestClient, agent: str, cli: CliRunner, test_graph: GraphClient
) -> None:
    """Seed 000's replay, reachable over REST and from the terminal: consistent after the
    engine's own writes; a strength changed behind its back is named."""
    url = f"/v1/agents/{agent}"
    belief = client.post(
        f"{url}/beliefs",
        json={
            "statement": "Accruals reverse next month",
            "strength": 0.8,
            "category": "contextual",
        },
    ).json()["id"]
    for _ in range(2):
        client.post(
            f"{url}/beliefs/{belief}/evidence",
            json={"text": "not so", "stance": "contradicting", "confidence": 0.5},
        )
    report = client.get(f"{url}/replay").json()
    assert report["consistent"] is True and report["events"] >= 3 and report["beliefs"] == 1
    # The CLI runs its own event loop: in a thread, beside this test's.
    clean = await asyncio.to_thread(cli.invoke, cli_app, ["beliefs", "replay", "--agent", agent])
    assert clean.exit_code == 0 and "explains every belief" in clean.output

    await test_graph.write(
        "beliefs/tamper_strength", agent_id=agent, belief_id=belief, strength=0.1
    )
    report = client.get(f"{url}/replay").json()
    assert report["consistent"] is False and report["difference_count"] == 1
    assert report["differences"][0].startswith(f"{belief}: strength stored 0.1")
    tampered = await asyncio.to_thread(cli.invoke, cli_app, ["beliefs", "replay", "--agent", agent])
    assert tampered.exit_code == 1 and "1 difference" in tampered.output
    assert client.get("/v1/agents/no-such-agent/replay").status_code == 404


def test_deactivating_a_supporter_re_derives_what_it_supported(
    client: TestClient, agent: str
) -> None:
    """§6: a derived strength is the mean over the *active* supporters, so a supporter taken
    out re-derives every belief above it, each move a cascade event the replay explains."""
    url = f"/v1/agents/{agent}"
    strong = _belief(client, agent, statement="A is true", strength=0.9)
    weak = _belief(client, agent, statement="B is true", strength=0.1)
    middle = _belief(client, agent, statement="C is true", strength=0.5)
    top = _belief(client, agent, statement="D is true", strength=0.2)
    for source, target in ((strong, middle), (weak, middle), (middle, top)):
        edge = {"type": "SUPPORTS", "source_id": source, "target_id": target}
        assert client.post(f"{url}/edges", json=edge).status_code == 200
    assert client.get(f"{url}/beliefs/{top}").json()["belief"]["strength"] == pytest.approx(0.5)

    patched = client.patch(f"{url}/beliefs/{weak}", json={"is_active": False})

    assert patched.status_code == 200, patched.text
    for belief_id in (middle, top):
        detail = client.get(f"{url}/beliefs/{belief_id}").json()
        assert detail["belief"]["strength"] == pytest.approx(0.9)
        latest = detail["events"][0]
        assert (latest["kind"], latest["note"]) == ("cascade", f"deactivation of {weak}")
    # Deactivating it again changes nothing (and moves nothing).
    assert client.patch(f"{url}/beliefs/{weak}", json={"is_active": False}).status_code == 200
    report = client.get(f"{url}/replay").json()
    assert report["consistent"], report["differences"]


async def test_dissatisfaction_sums_a_hair_below_zero_read_as_zero(
    client: TestClient, agent: str, test_graph: GraphClient
) -> None:
    """The running sums are kept by subtractions: once every tense belief was revised they read
    -7e-17, and the next chat turn failed (a 500: D below 0 refused by the appraisal)."""
    _belief(client, agent, statement="Invoices are matched to purchase orders", strength=0.8)
    await test_graph.write(
        "probe/set_dissatisfaction_sums", agent_id=agent, t_imp=-7.4e-17, t_imp_deg=-7.4e-17
    )
    assert client.get(f"/v1/agents/{agent}/dissatisfaction").json()["value"] == 0.0
    turn = client.post(
        f"/v1/agents/{agent}/chat", json={"message": "Are invoices matched to purchase orders?"}
    )
    assert turn.status_code == 200, turn.text
    assert turn.json()["dissatisfaction"]["value"] == 0.0


@pytest.mark.parametrize(("pin", "carried"), [("guidance", "guidance"), ("autonomous", None)])
def test_a_revision_carries_a_pin_that_holds_autonomy_back(
    client: TestClient, agent: str, pin: str, carried: str | None
) -> None:
    """A person's "ask me before acting on this" still holds for the belief that replaced it; a
    pin of autonomous is not granted to a new statement."""
    belief = _belief(client, agent, strength=0.8)
    pinned = client.patch(f"/v1/agents/{agent}/beliefs/{belief}", json={"supervision_mode": pin})
    assert pinned.status_code == 200, pinned.text
    revision = None
    for number in range(8):
        response = client.post(
            f"/v1/agents/{agent}/beliefs/{belief}/evidence",
            json={"text": f"Paid in 45 days ({number})", "stance": "contradicting"},
        )
        assert response.status_code == 200, response.text
        revision = revision or next(iter(response.json()["revision"]["revisions"]), None)
        if revision:
            break
    assert revision is not None and revision["old_belief_id"] == belief
    revised = client.get(f"/v1/agents/{agent}/beliefs/{revision['new_belief_id']}").json()
    stored = client.get(f"/v1/agents/{agent}/beliefs/{belief}").json()
    assert stored["belief"]["supervision_mode"] == pin
    assert revised["belief"]["supervision_mode"] == carried  # None: derived from its strength
