"""Issue 13, sessions close: explicitly, at the end of a turn, or after an idle timeout; with a
summary, lessons, "learned:" items, peak-end salience, and a reflection run whose rule reaches
later turns (REST, real Neo4j, offline reasoner)."""

from __future__ import annotations

from datetime import timedelta

from app.clock import Clock
from app.config import Settings
from app.graph.client import GraphClient
from app.loop.sessions import close_idle_sessions
from app.runtime import Runtime
from tests.integration.loop.conftest import Agent

REMEMBER = "Dates the person asks me to remember, such as when an audit starts, are noted"
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")


async def test_a_closed_session_has_its_summary_lessons_and_a_reflection(
    agent: Agent, test_graph: GraphClient
) -> None:
    agent.belief(REMEMBER, 0.9)
    for day in DAYS:
        turn = agent.chat(
            f"Please remember that the audit meeting is on {day}",
            session="audit-week",
            speaker="Dana Fox",
        )
        assert turn["execution"]["status"] == "executed"
    fact = agent.chat(
        "Our fiscal year ends on the thirtieth of June.", session="audit-week", speaker="Dana Fox"
    )
    assert fact["learned"]

    response = agent.client.post(f"/v1/agents/{agent.id}/sessions/audit-week/close")
    assert response.status_code == 200, response.text
    closed = response.json()
    assert closed["trigger"] == "explicit" and closed["episodes"] == 6
    assert closed["summary"].startswith("Session audit-week: 6 turn(s) with Dana Fox.")
    assert "Outcomes: 5 success." in closed["summary"]
    assert "What worked: Please remember that the audit meeting is on Monday" in closed["lessons"]
    assert closed["learned"] == ["learned: Our fiscal year ends on the thirtieth of June."]
    assert closed["end_id"] == fact["turn_id"]
    # Five open episodes: reflection ran and consolidated them into a rule.
    reflection = closed["reflection"]
    assert reflection["ran"] is True and reflection["open_episodes"] >= 5
    [rule_id] = reflection["rules"]
    [stored] = await test_graph.read(
        "sessions/get_session_node", agent_id=agent.id, key="audit-week"
    )
    assert stored["summary"] == closed["summary"] and stored["lessons"] == closed["lessons"]
    assert stored["learned"] == closed["learned"] and stored["close_trigger"] == "explicit"

    # The rule reflection made reaches a later turn.
    later = agent.chat("Please remember that the audit meeting is on Saturday", session="next")
    assert rule_id in [rule["id"] for rule in later["memory"]["rules_used"]]

    missing = agent.client.post(f"/v1/agents/{agent.id}/sessions/no-such-session/close")
    assert missing.status_code == 404


async def test_a_session_closes_at_the_end_of_a_turn_and_when_idle(
    agent: Agent, settings: Settings, clock: Clock, graph: GraphClient, test_graph: GraphClient
) -> None:
    agent.chat("Our office opens at eight in the morning.", session="short", end_session=True)
    [ended] = await test_graph.read("sessions/get_session_node", agent_id=agent.id, key="short")
    assert ended["closed"] and ended["close_trigger"] == "end_of_turn"
    assert ended["summary"].startswith("Session short: 1 turn(s).")
    # Too few episodes to reflect on: said so, nothing run.

    agent.chat("The kitchen is cleaned every Friday afternoon.", session="left-open")
    services = Runtime(settings, graph, clock=clock).loop  # "now" as the API's turns wrote it
    assert await close_idle_sessions(services, agent.id) == []  # not idle yet
    later = services.clock.now() + timedelta(minutes=settings.loop.session_idle_timeout_minutes + 1)
    [closed] = await close_idle_sessions(services, agent.id, now=later)
    assert closed.session == "left-open" and closed.trigger == "idle_timeout"
    assert closed.reflection.ran is False and "needs 5" in closed.reflection.why
    [stored] = await test_graph.read(
        "sessions/get_session_node", agent_id=agent.id, key="left-open"
    )
    assert stored["closed"] and stored["close_trigger"] == "idle_timeout"
    # Closed sessions are not swept again.
    assert await close_idle_sessions(services, agent.id, now=later) == []


async def test_a_turn_in_a_closed_session_opens_it_again(
    agent: Agent, settings: Settings, clock: Clock, graph: GraphClient, test_graph: GraphClient
) -> None:
    agent.chat("Our office opens at eight in the morning.", session="reused", end_session=True)
    agent.chat("The kitchen is cleaned every Friday afternoon.", session="reused")
    [reopened] = await test_graph.read("sessions/get_session_node", agent_id=agent.id, key="reused")
    assert not reopened["closed"]

    # So it closes again when idle, its summary counting the later turn too.
    services = Runtime(settings, graph, clock=clock).loop
    later = services.clock.now() + timedelta(minutes=settings.loop.session_idle_timeout_minutes + 1)
    [closed] = await close_idle_sessions(services, agent.id, now=later)
    assert closed.session == "reused" and closed.trigger == "idle_timeout"
    assert closed.summary.startswith("Session reused: 2 turn(s).")
