"""The decisions section of the context (seed 002's past decisions): a decision the loop made
comes back in its line, the relevant ones first, newest among equals, at most k, and only when
the section is asked for."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from app.graph.client import GraphClient
from app.retrieval.decisions import decision_items
from tests.integration.loop.conftest import Agent

REMEMBER_BELIEF = "Dates the person asks me to remember, such as when an audit starts, are noted"
DAY = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


async def _decided(
    graph: GraphClient, agent: Agent, description: str, outcome: str, confidence: float, day: int
) -> str:
    decision_id = str(uuid.uuid4())
    await graph.write(
        "loop/create_decision_at",
        agent_id=agent.id,
        id=decision_id,
        description=description,
        outcome=outcome,
        confidence=confidence,
        created_at=DAY + timedelta(days=day),
    )
    return decision_id


def _decisions(agent: Agent, q: str, k: int = 10) -> list[dict[str, object]]:
    context = agent.get("/context", q=q, k=k, section="decisions")
    assert list(context["sections"]) == ["decisions"]
    section = context["sections"]["decisions"]
    assert section["error"] is None
    items: list[dict[str, object]] = section["items"]
    return items


def test_a_decision_the_loop_made_comes_back_in_its_line(agent: Agent) -> None:
    agent.belief(REMEMBER_BELIEF, 0.9)
    done = agent.chat("Please remember that the audit starts on Monday")
    assert done["mode"] == "autonomous" and done["execution"]["status"] == "executed"
    description = done["work_unit"]["description"]

    [item] = _decisions(agent, description)
    assert item["id"] == done["decision_id"]
    # Seed 002's finalize: a success ends at confidence 0.8.
    assert item["line"] == f"- [success] {description} (confidence: 0.80)"
    assert item["outcome"] == "success" and item["confidence"] == 0.8

    everything = agent.get("/context", q=description)
    assert [i["id"] for i in everything["sections"]["decisions"]["items"]] == [done["decision_id"]]
    others = agent.get("/context", q=description, section=["beliefs", "episodes"])
    assert "decisions" not in others["sections"]


async def test_relevant_then_newest_first_and_at_most_k(
    agent: Agent, test_graph: GraphClient
) -> None:
    old = await _decided(test_graph, agent, "Reconcile the Chase bank account", "failure", 0.3, 0)
    new = await _decided(test_graph, agent, "Reconcile the Chase bank account", "success", 0.8, 5)
    both = await _decided(
        test_graph, agent, "Reconcile the Chase bank account and the Amex card", "pending", 0.6, 2
    )
    await _decided(test_graph, agent, "Note the audit start date", "success", 0.8, 9)

    items = _decisions(agent, "reconcile the Amex card and the bank account")
    # The one that says every word asked for first; then the two equal ones, newest first; the
    # audit note says none of the words and is left out.
    assert [i["id"] for i in items] == [both, new, old]
    assert [i["line"] for i in items] == [
        "- [pending] Reconcile the Chase bank account and the Amex card (confidence: 0.60)",
        "- [success] Reconcile the Chase bank account (confidence: 0.80)",
        "- [failure] Reconcile the Chase bank account (confidence: 0.30)",
    ]
    assert [i["id"] for i in _decisions(agent, "reconcile the bank account", k=2)] == [new, old]
    assert _decisions(agent, "vendor bank details") != []
    assert _decisions(agent, "weather in Lisbon") == []


async def test_only_the_newest_decisions_of_the_scan_are_ranked(
    agent: Agent, test_graph: GraphClient, graph: GraphClient
) -> None:
    # decision_scan (CREDENCE_RETRIEVAL__DECISION_SCAN) bounds how many of the newest decisions
    # the query ranks: with 1, an older decision that says more of its words is not read.
    older = await _decided(
        test_graph, agent, "Reconcile the Amex card statement", "failure", 0.3, 0
    )
    newer = await _decided(test_graph, agent, "Reconcile the ledger", "success", 0.8, 4)
    question = "reconcile the Amex card statement"
    every = await decision_items(graph, agent.id, question, 10, scan=200)
    assert [i["id"] for i in every] == [older, newer]
    # The times come back as the datetimes written (read from their text, app/graph/times.py).
    assert [i["created_at"] for i in every] == [DAY, DAY + timedelta(days=4)]
    assert all(i["resolved_at"] is None or isinstance(i["resolved_at"], datetime) for i in every)
    newest = await decision_items(graph, agent.id, question, 10, scan=1)
    assert [i["id"] for i in newest] == [newer]


async def test_a_turn_recalls_a_related_past_decision_that_went_wrong(
    agent: Agent, test_graph: GraphClient
) -> None:
    """Seed 002: past decisions are in the turn's context; the appraisal names one that failed."""
    await _decided(test_graph, agent, "Reconcile the Chase bank account", "failure", 0.3, 0)
    await _decided(test_graph, agent, "Note the audit start date", "success", 0.8, 1)

    related = agent.chat("Please reconcile the Chase bank account for March")
    unrelated = agent.chat("What is the weather like in Lisbon?")

    assert (
        "A past decision like this went wrong ([failure] Reconcile the Chase bank account "
        "(confidence: 0.30))" in related["appraisal"]["recommended_approach"]
    )
    assert "past decision" not in unrelated["appraisal"]["recommended_approach"]
