"""A cascade event records the supporters it was derived from (docs/beliefs.md §6), so that the
replay re-derives it and an explanation names them (REST, real Neo4j)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.beliefs.cascade import MAX_RECORDED_SUPPORTERS
from app.graph.client import GraphClient


def _belief(client: TestClient, agent: str, statement: str, strength: float) -> str:
    body = {"statement": statement, "category": "contextual", "strength": strength}
    response = client.post(f"/v1/agents/{agent}/beliefs", json=body)
    assert response.status_code == 201, response.text
    belief_id: str = response.json()["id"]
    return belief_id


def _support(client: TestClient, agent: str, source: str, target: str, weight: float) -> None:
    edge = {"type": "SUPPORTS", "source_id": source, "target_id": target, "weight": weight}
    response = client.post(f"/v1/agents/{agent}/edges", json=edge)
    assert response.status_code == 200, response.text


def _derived(client: TestClient, agent: str) -> tuple[str, str, str]:
    """A 0.9 and B 0.34 support C with weight 1 each: C is derived as 0.62."""
    a = _belief(client, agent, "A is true", 0.9)
    b = _belief(client, agent, "B is true", 0.34)
    c = _belief(client, agent, "C is true", 0.5)
    _support(client, agent, a, c, 1.0)
    _support(client, agent, b, c, 1.0)
    return a, b, c


def _latest_event(client: TestClient, agent: str, belief: str) -> dict[str, Any]:
    event: dict[str, Any] = client.get(f"/v1/agents/{agent}/beliefs/{belief}").json()["events"][0]
    return event


def test_a_cascade_event_records_the_supporters_it_counted(client: TestClient, agent: str) -> None:
    a, b, c = _derived(client, agent)

    event = _latest_event(client, agent, c)

    assert event["kind"] == "cascade" and event["new_strength"] == pytest.approx(0.62)
    supporters = sorted([(a, 0.9), (b, 0.34)])  # equal weights: by id
    assert event["supporter_ids"] == [s for s, _ in supporters]
    assert event["supporter_strengths"] == [strength for _, strength in supporters]
    assert event["supporter_weights"] == [1.0, 1.0]
    assert event["supporter_count"] == 2
    assert (event["weighted_sum"], event["weight_sum"]) == (pytest.approx(1.24), 2.0)
    # An outcome on C moves it off the mean: the replay does not hold it to its supporters.
    outcome = {"outcome": "success", "moral_valence": "neutral", "severity": 0.0}
    assert client.post(f"/v1/agents/{agent}/beliefs/{c}/outcome", json=outcome).status_code == 200
    report = client.get(f"/v1/agents/{agent}/replay").json()
    assert report["consistent"], report["differences"]
    assert report["trusted_cascades"] == 0


async def test_the_replay_flags_a_cascade_its_inputs_do_not_give(
    client: TestClient, agent: str, test_graph: GraphClient
) -> None:
    a, _, c = _derived(client, agent)
    url = f"/v1/agents/{agent}/replay"
    assert client.get(url).json()["consistent"]

    seq = (
        await test_graph.write(
            "beliefs/tamper_cascade_event",
            agent_id=agent,
            belief_id=c,
            changes={"new_strength": 0.7, "supporter_strengths": None},
            forget_inputs=False,
        )
    )[0]["seq"]

    report = client.get(url).json()
    assert report["consistent"] is False and report["difference_count"] == 1
    assert report["differences"] == [
        f"seq {seq} (cascade) on {c}: formula gives strength {1.24 / 2}, event recorded 0.7"
    ]

    # A supporter recorded at a strength it did not have then: named, and the sums disagree.
    event = _latest_event(client, agent, c)
    strengths = [0.8 if s == a else 0.34 for s in event["supporter_ids"]]
    await test_graph.write(
        "beliefs/tamper_cascade_event",
        agent_id=agent,
        belief_id=c,
        changes={"new_strength": event["weighted_sum"] / 2, "supporter_strengths": strengths},
        forget_inputs=False,
    )
    differences = client.get(url).json()["differences"]
    assert differences == [
        f"seq {seq} (cascade) on {c}: supporter {a} counted at strength 0.8 but replay has 0.9",
        f"seq {seq} (cascade) on {c}: the sums recorded are not those of the supporters listed",
    ]


async def test_a_cascade_event_without_inputs_is_taken_on_trust_and_said_so(
    client: TestClient, agent: str, test_graph: GraphClient
) -> None:
    """Events written before cascade events recorded their inputs still replay."""
    _, _, c = _derived(client, agent)
    await test_graph.write(
        "beliefs/tamper_cascade_event",
        agent_id=agent,
        belief_id=c,
        changes={"new_strength": None, "supporter_strengths": None},
        forget_inputs=True,
    )

    report = client.get(f"/v1/agents/{agent}/replay").json()

    assert report["consistent"], report["differences"]
    assert report["trusted_cascades"] == 1
    why = client.get(f"/v1/agents/{agent}/beliefs/{c}/explanation").json()
    assert why["latest_derivation"]["supporter_count"] is None
    assert "it did not name them" in why["summary"]


async def test_the_replay_flags_a_cascade_that_never_ran(
    client: TestClient, agent: str, graph: GraphClient
) -> None:
    """The bug the deactivation once had: a supporter deactivated without the cascade leaves
    the derived strength stale; the recorded inputs show it."""
    a, _, c = _derived(client, agent)
    seq = _latest_event(client, agent, c)["seq"]

    # The deactivation's own query, without the cascade deactivate_belief_in runs after it.
    await graph.write("beliefs/store/deactivate_belief", agent_id=agent, belief_id=a)

    report = client.get(f"/v1/agents/{agent}/replay").json()
    assert report["differences"] == [
        f"{c}: strength {1.24 / 2} was derived at seq {seq} from 2 supporter(s), which now give "
        f"0.34: no cascade re-derived it"
    ]


def test_the_explanation_names_the_supporters_of_the_latest_derivation(
    client: TestClient, agent: str
) -> None:
    """ "Why 0.62?": the mean of A 0.90 and B 0.34, each of weight 1, at the cascade's time."""
    a, b, c = _derived(client, agent)
    url = f"/v1/agents/{agent}/beliefs/{c}/explanation"

    why = client.get(url).json()

    derivation = why["latest_derivation"]
    assert derivation["strength"] == pytest.approx(0.62) and derivation["current"] is True
    assert derivation["supporter_count"] == 2
    assert {
        (s["id"], s["statement"], s["strength"], s["weight"]) for s in derivation["supporters"]
    } == {
        (a, "A is true", 0.9, 1.0),
        (b, "B is true", 0.34, 1.0),
    }
    assert derivation["cause"] and derivation["at"]
    summary = why["summary"]
    assert "Its strength 0.62 was derived at" in summary
    assert "'A is true' 0.90 (w 1.00)" in summary and "'B is true' 0.34 (w 1.00)" in summary
    # A belief no cascade ever derived has none.
    assert (
        client.get(f"/v1/agents/{agent}/beliefs/{a}/explanation").json()["latest_derivation"]
        is None
    )

    # An outcome moves it off the mean: the derivation is no longer its strength, and says so.
    outcome = {"outcome": "failure", "moral_valence": "neutral", "severity": 1.0}
    assert client.post(f"/v1/agents/{agent}/beliefs/{c}/outcome", json=outcome).status_code == 200
    moved = client.get(url).json()
    assert moved["latest_derivation"]["current"] is False
    assert "Its latest derivation, 0.62, was derived" in moved["summary"]
    assert "later events moved it since" in moved["summary"]


def test_a_belief_with_many_supporters_records_a_bounded_list(
    client: TestClient, agent: str
) -> None:
    """The event lists the heaviest supporters only, with the count and the sums of all, and
    the replay still re-derives it."""
    top = _belief(client, agent, "Top holds", 0.5)
    count = MAX_RECORDED_SUPPORTERS + 5
    supporters = []
    for index in range(count):
        supporter = _belief(client, agent, f"Supporter {index}", 0.2 + 0.01 * index)
        _support(client, agent, supporter, top, round(0.1 + 0.01 * index, 2))
        supporters.append(supporter)

    event = _latest_event(client, agent, top)

    assert event["kind"] == "cascade" and event["supporter_count"] == count
    assert event["supporter_ids"] == supporters[::-1][:MAX_RECORDED_SUPPORTERS]  # heaviest first
    weights = [round(0.1 + 0.01 * index, 2) for index in range(count)]
    assert event["weight_sum"] == pytest.approx(sum(weights))
    assert event["new_strength"] == pytest.approx(
        sum(w * (0.2 + 0.01 * i) for i, w in enumerate(weights)) / sum(weights)
    )
    assert client.patch(
        f"/v1/agents/{agent}/beliefs/{supporters[0]}", json={"is_active": False}
    ).is_success
    assert _latest_event(client, agent, top)["supporter_count"] == count - 1
    report = client.get(f"/v1/agents/{agent}/replay").json()
    assert report["consistent"], report["differences"]
