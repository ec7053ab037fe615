"""Issue 13, history: every turn's judgements read the session's earlier turns from the graph,
and the offline reasoner understands a follow-up through them (REST, real Neo4j, offline)."""

from __future__ import annotations

from app.reasoning.offline.replies import clause
from tests.integration.loop.conftest import Agent

WIRES = "Wire transfers above ten thousand dollars need the controller's approval"
OTHER = "Expense reports are submitted within thirty days of the expense"


def test_a_follow_up_is_understood_through_the_previous_turn(agent: Agent) -> None:
    wires = agent.belief(WIRES, 0.8)
    agent.belief(OTHER, 0.8)
    first = agent.chat("Let's talk about wire transfers.", session="h1", speaker="Dana Fox")
    assert first["relevant_belief"]["id"] == wires
    assert first["memory"]["history_turns"] == 0

    follow_up = agent.chat("Who has to approve them?", session="h1", speaker="Dana Fox")
    assert follow_up["memory"]["history_turns"] == 1
    assert follow_up["memory"]["understood_as"] == "Who has to approve wire transfers?"
    assert follow_up["relevant_belief"]["id"] == wires
    assert clause(WIRES) in follow_up["response"]

    # The same words with no earlier turn to lean on: nothing to resolve "them" to.
    alone = agent.chat("Who has to approve them?", session="h2", speaker="Dana Fox")
    assert alone["memory"]["history_turns"] == 0
    assert alone["memory"]["understood_as"] is None
    assert alone["relevant_belief"] is None or alone["relevant_belief"]["id"] != wires


def test_history_is_bounded_and_read_from_the_graph(agent: Agent) -> None:
    agent.belief(WIRES, 0.8)
    for index in range(12):
        agent.chat(f"Note number {index} about wire transfers.", session="long")
    turn = agent.chat("And what about them?", session="long")
    # 12 earlier turns in the graph; the appraisal reads at most 10 of them.
    assert turn["memory"]["history_turns"] == 10
    # Another session's turns are not this one's history.
    assert agent.chat("Hello there.", session="other")["memory"]["history_turns"] == 0


def test_a_question_already_answered_is_not_asked_again(agent: Agent) -> None:
    for statement in (WIRES, OTHER):
        agent.contradict(agent.belief(statement, 0.8), 3)
    first = agent.chat("What about wire transfers?", session="q1")
    assert first["questions"], "a medium band answer asks about the tense belief"
    asked = first["questions"][-1]
    second = agent.chat("Yes, still true. What about wire transfers?", session="q1")
    assert asked not in second["questions"]
    assert asked not in second["response"]
