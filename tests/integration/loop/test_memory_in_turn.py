"""Issue 13, memory in the turn: the turn assembles the context of GET /context and uses it —
a rule learned by reflection changes a later answer and is recorded as used (and validated when
it helped), the people present shape the appraisal, working memory reaches the answer, an
outcome moves the three most relevant beliefs (REST, real Neo4j, offline reasoner)."""

from __future__ import annotations

from app.graph.client import GraphClient
from tests.integration.loop.conftest import Agent

REMEMBER = "Dates the person asks me to remember, such as when an audit starts, are noted"
LATER = "Please remember that the audit report is due on Thursday"


def test_a_rule_learned_by_reflection_changes_a_later_answer(agent: Agent) -> None:
    agent.belief(REMEMBER, 0.9)
    before = agent.chat("Please remember that the audit report is due on Wednesday")
    assert before["memory"]["rules_used"] == []
    assert "A rule I follow here" not in before["response"]
    for message in (
        "Please remember that the audit starts on Monday",
        "Please remember that the audit fieldwork starts on Tuesday",
        "Please remember that the audit closing meeting is on Friday",
    ):
        assert agent.chat(message, session="audit")["execution"]["status"] == "executed"
    report = agent.client.post(f"/v1/agents/{agent.id}/reflect", json={"similarity": 0.5})
    assert report.status_code == 200, report.text
    [rule_id] = [c["rule_id"] for c in report.json()["clusters"] if c["rule_id"]]
    rule = agent.get(f"/rules/{rule_id}")

    later = agent.chat(LATER)
    used = later["memory"]["rules_used"]
    assert [r["id"] for r in used] == [rule_id]
    assert f"A rule I follow here: {rule['content']}" in later["response"]
    assert later["execution"]["status"] == "executed"
    # Recorded as used by the turn's decision, and validated: it helped (a success).
    validated = agent.get(f"/rules/{rule_id}")
    assert validated["validation_count"] == (rule["validation_count"] or 0) + 1
    assert validated["last_validated"] is not None


async def test_the_rule_is_recorded_as_used_by_the_decision_and_the_episode(
    agent: Agent, test_graph: GraphClient
) -> None:
    agent.belief(REMEMBER, 0.9)
    for message in (
        "Please remember that the audit starts on Monday",
        "Please remember that the audit fieldwork starts on Tuesday",
        "Please remember that the audit closing meeting is on Friday",
    ):
        agent.chat(message, session="audit")
    agent.client.post(f"/v1/agents/{agent.id}/reflect", json={"similarity": 0.5})
    later = agent.chat(LATER)
    [rule] = later["memory"]["rules_used"]
    rows = await test_graph.read(
        "loop/rules_used_by",
        agent_id=agent.id,
        decision_id=later["decision_id"],
        episode_id=later["turn_id"],
    )
    assert [row["id"] for row in rows] == [rule["id"]]


def test_the_people_present_shape_the_appraisal(agent: Agent) -> None:
    made = agent.client.post(
        f"/v1/agents/{agent.id}/people", json={"name": "Maria Lopez", "seniority": "director"}
    )
    assert made.status_code == 201, made.text
    message = "Please remember that the board meets on Friday"
    director = agent.chat(message, speaker="Maria Lopez")
    newcomer = agent.chat(message, speaker="Sam Lee")
    [present] = director["memory"]["people_present"]
    assert present["name"] == "Maria Lopez" and present["speaker"] is True
    assert present["authority"] == 0.8
    assert director["appraisal"]["decided_by"] == "Maria Lopez"
    assert (
        "Maria Lopez (authority 0.80) decides here"
        in (director["appraisal"]["recommended_approach"])
    )
    # Sam Lee is micro-born by his turn: authority 0.5, nobody present decides.
    assert newcomer["appraisal"]["decided_by"] is None
    assert director["appraisal"]["face_threat"] > newcomer["appraisal"]["face_threat"]


def test_working_memory_reaches_the_answer(agent: Agent) -> None:
    task = agent.client.post(
        f"/v1/agents/{agent.id}/working-memory/tasks",
        json={"description": "Close the March books"},
    )
    assert task.status_code == 201, task.text
    turn = agent.chat("What is left before the March books close?")
    assert turn["memory"]["working_memory_items"] == 1
    assert "On my task list: Close the March books." in turn["response"]


def test_an_outcome_moves_the_three_most_relevant_beliefs(ordinary_day_agent: Agent) -> None:
    # An ordinary day: the outcome moves the default strengths (at a month end, the month's).
    agent = ordinary_day_agent
    relevant = [
        agent.belief(REMEMBER, 0.8),
        agent.belief("Audit dates a person mentions are written down as notes", 0.8),
        agent.belief("Reminders about audit dates are kept in working memory", 0.8),
        agent.belief("Audit start dates are remembered when a person asks", 0.8),
    ]
    unrelated = agent.belief("The office coffee machine is cleaned on Fridays", 0.8)
    turn = agent.chat("Please remember that the audit starts on Monday")
    assert turn["execution"]["status"] == "executed"
    moved = [belief for belief in relevant if agent.strength(belief) > 0.8]
    assert len(moved) == 3
    assert turn["relevant_belief"]["id"] in moved
    assert agent.strength(unrelated) == 0.8
