"""Reflection consolidates chat turns into a rule without counting their outcomes twice (the
turn already recorded its outcome in the capability)."""

from __future__ import annotations

from app.memory.capability_map import capability_for
from tests.integration.loop.conftest import Agent

REMEMBER = "Dates the person asks me to remember, such as when an audit starts, are noted"


def _capability(agent: Agent, domain: str) -> dict[str, object]:
    capabilities = agent.get("/self")["capabilities"]
    return next(c for c in capabilities if c["domain"] == domain)


def test_turns_are_consolidated_once(agent: Agent) -> None:
    agent.belief(REMEMBER, 0.9)
    domains = set()
    for message in (
        "Please remember that the audit starts on Monday",
        "Please remember that the audit fieldwork starts on Tuesday",
        "Please remember that the audit closing meeting is on Friday",
    ):
        turn = agent.chat(message, session="audit-week")
        assert turn["execution"]["status"] == "executed", turn
        domains.add(capability_for(turn["work_unit"]["verb"], turn["frame"]))
    # The turns exercised the capability their verb names, not their frame's.
    assert domains == {"scheduling_and_follow_up"}
    (domain,) = domains
    assert domain is not None
    before = _capability(agent, domain)
    assert before["experience_count"] == 3
    response = agent.client.post(f"/v1/agents/{agent.id}/reflect", json={"similarity": 0.5})
    assert response.status_code == 200, response.text
    report = response.json()
    assert report["clusters"], report
    assert len(report["clusters"][0]["episode_ids"]) >= 2
    after = _capability(agent, domain)
    assert after["experience_count"] == before["experience_count"]
    assert after["proficiency"] == before["proficiency"]
