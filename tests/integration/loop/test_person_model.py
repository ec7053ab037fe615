"""The person model the loop keeps and reads (docs/memory.md §2, issue 40): trust moved by a
correction learned from the person and by their answers to proposals, each change with its
reason; knowledge per domain, topics, inferred goals and successful patterns; and a turn that
reads them (who may correct the agent, how much their evidence weighs, how deep the answer
goes). Real Neo4j, offline reasoner, the REST API."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

from app.cli.main import app as cli_app
from tests.integration.loop.conftest import Agent

REMEMBER_BELIEF = "Dates the person asks me to remember, such as when an audit starts, are noted"
INVOICES = "Supplier invoices are approved by one person"
CORRECTION = "No, supplier invoices are not approved by one person."
ACCRUAL = "Accrued expenses are recorded in the period in which they are incurred"
ACCRUAL_BACKGROUND = "Accruals are reversed at the start of the following period"
QUESTION = "When are accrued expenses recorded?"


def _person(agent: Agent, name: str, **fields: Any) -> str:
    made = agent.client.post(f"/v1/agents/{agent.id}/people", json={"name": name, **fields})
    assert made.status_code == 201, made.text
    person_id: str = made.json()["id"]
    return person_id


def _named(agent: Agent, name: str) -> dict[str, Any]:
    found = agent.get("/people", text=name.lower())["data"]
    assert found, name
    person: dict[str, Any] = agent.get(f"/people/{found[0]['id']}")
    return person


def _answer(agent: Agent, approval_id: str, **body: Any) -> dict[str, Any]:
    response = agent.client.post(f"/v1/agents/{agent.id}/approvals/{approval_id}", json=body)
    assert response.status_code == 200, response.text
    answered: dict[str, Any] = response.json()
    return answered


def test_a_learned_correction_raises_trust_and_says_why(agent: Agent) -> None:
    agent.belief(INVOICES, 0.8)
    _person(agent, "Maria Lopez", seniority="director")
    turn = agent.chat(CORRECTION, speaker="Maria Lopez")
    assert [learned["kind"] for learned in turn["learned"]] == ["correction"]
    maria = _named(agent, "Maria Lopez")
    assert maria["trust"] == 0.55  # 0.5 + 0.1 · (1 − 0.5)
    [change] = maria["trust_history"]
    assert change["cause"] == "correction" and change["ref"] == turn["turn_id"]
    assert change["before"] == 0.5 and change["after"] == 0.55
    assert "not approved by one person" in change["reason"]


def test_trust_lets_a_person_of_modest_rank_correct_the_agent(agent: Agent) -> None:
    belief = agent.belief(INVOICES, 0.8)
    sam = _person(agent, "Sam Lee")  # seniority unknown: authority 0.5, below 0.7
    assert agent.chat(CORRECTION, speaker="Sam Lee")["learned"] == []
    assert _named(agent, "Sam Lee")["trust_history"] == []  # nothing learned, nothing moved
    edited = agent.client.patch(f"/v1/agents/{agent.id}/people/{sam}", json={"trust": 0.75})
    assert edited.status_code == 200, edited.text
    [edit] = edited.json()["trust_history"]
    assert edit["cause"] == "edit" and edit["before"] == 0.5 and edit["after"] == 0.75
    turn = agent.chat(CORRECTION, speaker="Sam Lee")
    [learned] = turn["learned"]
    assert learned["kind"] == "correction" and learned["contradicts"] == [belief]
    history = _named(agent, "Sam Lee")["trust_history"]
    assert [change["cause"] for change in history] == ["correction", "edit"]
    assert "Sam Lee's word has proven reliable" in turn["appraisal"]["recommended_approach"]


def test_approved_work_that_succeeds_raises_trust_and_is_a_pattern_and_a_goal(
    agent: Agent,
) -> None:
    agent.belief(REMEMBER_BELIEF, 0.55)
    _person(agent, "Olga Brandt", seniority="manager")
    asked = agent.chat(
        "Please remember that the audit fieldwork starts on Tuesday", speaker="Olga Brandt"
    )
    assert asked["approval"] is not None, asked
    olga = _named(agent, "Olga Brandt")
    [goal] = olga["inferred_goals"]
    assert goal["goal"] == asked["work_unit"]["description"] and goal["verb"] == "remember"
    assert olga["trust_history"] == [] and olga["successful_patterns"] == []

    resumed = _answer(agent, asked["approval"]["id"], action="approve", speaker="Olga Brandt")
    assert resumed["execution"]["status"] == "executed"
    olga = _named(agent, "Olga Brandt")
    [change] = olga["trust_history"]
    assert change["cause"] == "approval" and change["ref"] == asked["approval"]["id"]
    assert change["after"] > change["before"] == 0.5 and olga["trust"] == change["after"]
    assert "succeeded" in change["reason"]
    [pattern] = olga["successful_patterns"]
    assert pattern["mode"] == "proposal" and pattern["verb"] == "remember"
    assert pattern["pattern"] == f"proposal of remember in {asked['frame']}, standard answer"

    # Her next turn's appraisal reads what she is working towards and what worked with her.
    turn = agent.chat("What did I ask you to remember?", speaker="Olga Brandt")
    [present] = turn["memory"]["people_present"]
    assert present["goals"] == [goal["goal"]] and present["trust"] == olga["trust"]
    approach = turn["appraisal"]["recommended_approach"]
    assert f"Olga Brandt is working towards: {goal['goal']}" in approach
    assert f"What worked with Olga Brandt before: {pattern['pattern']}" in approach


def test_a_rejection_moves_trust_with_its_reason(agent: Agent) -> None:
    agent.belief(REMEMBER_BELIEF, 0.55)
    _person(agent, "Olga Brandt", seniority="manager")
    asked = agent.chat(
        "Please remember that the audit closing meeting is on Friday", speaker="Olga Brandt"
    )
    assert asked["approval"] is not None, asked
    _answer(
        agent, asked["approval"]["id"], action="reject", text="Not that one", speaker="Olga Brandt"
    )
    olga = _named(agent, "Olga Brandt")
    [change] = olga["trust_history"]
    assert change["cause"] == "rejection" and change["ref"] == asked["approval"]["id"]
    assert change["after"] > change["before"]
    assert olga["successful_patterns"] == []  # a rejection is not a success


def test_trust_weighs_a_persons_evidence(agent: Agent) -> None:
    belief = agent.belief(INVOICES, 0.8)
    trusted = _person(agent, "Tia Trusted", trust=1.0)
    doubted = _person(agent, "Dan Doubted", trust=0.0)

    def contradicted_by(person_id: str) -> float:
        before = agent.tension(belief)
        response = agent.client.post(
            f"/v1/agents/{agent.id}/beliefs/{belief}/evidence",
            json={
                "text": "not so",
                "stance": "contradicting",
                "confidence": 1.0,
                "source_person_id": person_id,
            },
        )
        assert response.status_code in (200, 201), response.text
        return agent.tension(belief) - before

    # The same relationship value (0.40): trust alone makes the difference, three to one.
    assert contradicted_by(trusted) > 2.5 * contradicted_by(doubted) > 0


def test_knowledge_per_domain_decides_how_deep_the_answer_goes(agent: Agent) -> None:
    agent.belief(ACCRUAL, 0.9, domain="accruals")
    agent.belief(ACCRUAL_BACKGROUND, 0.85, domain="accruals")
    first = agent.chat(
        "I'm new to accruals: what is an accrued expense, and when is it recorded?",
        speaker="Pat Novak",
    )
    assert first["relevant_belief"]["id"] is not None
    pat = _named(agent, "Pat Novak")
    assert pat["knowledge"]["accruals"]["level"] == "novice"
    agent.chat(
        "In my experience accrued expenses are recorded in the period they are incurred.",
        speaker="Eve Stone",
    )
    assert _named(agent, "Eve Stone")["knowledge"]["accruals"]["level"] == "expert"

    novice = agent.chat(QUESTION, speaker="Pat Novak")
    expert = agent.chat(QUESTION, speaker="Eve Stone")
    assert "new in accruals" in novice["appraisal"]["recommended_approach"]
    assert "expert in accruals" in expert["appraisal"]["recommended_approach"]
    assert "For background" in novice["response"] and "For background" not in expert["response"]
    assert len(novice["response"]) > len(expert["response"])


def test_a_persons_topics_are_counted_most_recent_first(agent: Agent) -> None:
    agent.chat("The pottery class moved to Thursday.", speaker="Kim Park")
    agent.chat("My pottery glaze cracked again in the kiln.", speaker="Kim Park")
    agent.chat("The kayak trip is on Saturday.", speaker="Kim Park")
    topics = _named(agent, "Kim Park")["topics"]
    counted = {topic["topic"]: topic["count"] for topic in topics}
    assert counted["pottery"] == 2 and counted["kiln"] == 1
    # The latest turn's topics first (ties by count, then by name).
    assert [topic["topic"] for topic in topics[:3]] == ["kayak", "saturday", "trip"]
    # The next turn of theirs carries them to the reasoner.
    turn = agent.chat("Is the pottery class still on Thursday?", speaker="Kim Park")
    [present] = turn["memory"]["people_present"]
    assert present["topics"][:3] == ["kayak", "saturday", "trip"]


def test_a_topic_is_shown_as_the_word_said_most_not_its_stem(
    agent: Agent, cli: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent.chat("We went hiking in the hills.", speaker="Lee Chan")
    agent.chat("The hiking trail was closed.", speaker="Lee Chan")
    agent.chat("I hike on Sundays.", speaker="Lee Chan")
    topics = {topic["stem"]: topic for topic in _named(agent, "Lee Chan")["topics"]}
    # "hiking" twice, "hike" once: one topic (the stem is its key), shown as "hiking".
    assert topics["hik"]["topic"] == "hiking" and topics["hik"]["count"] == 3
    turn = agent.chat("Is the trail open again?", speaker="Lee Chan")
    [present] = turn["memory"]["people_present"]
    assert "hiking" in present["topics"] and "hik" not in present["topics"]
    monkeypatch.setenv("CREDENCE_AGENT_ID", agent.id)
    shown = cli.invoke(cli_app, ["people", "show", "lee chan"])
    assert shown.exit_code == 0, shown.output
    assert "hiking (3)" in shown.output and "hik (" not in shown.output


def test_the_person_view_in_the_terminal_shows_what_the_loop_learned(
    agent: Agent, cli: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent.belief(INVOICES, 0.8)
    _person(agent, "Maria Lopez", seniority="director")
    agent.chat(CORRECTION, speaker="Maria Lopez")
    monkeypatch.setenv("CREDENCE_AGENT_ID", agent.id)
    shown = cli.invoke(cli_app, ["people", "show", "maria lopez"])
    assert shown.exit_code == 0, shown.output
    assert "trust 0.500 → 0.550 (correction" in shown.output
    assert "topics: " in shown.output
