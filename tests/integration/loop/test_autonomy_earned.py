"""Issue 13, autonomy is earned: a newborn agent holds its industry packs' knowledge
"appropriately uncertain" (the birth strength policy, seed 000: 0.5, the pack's figure kept as
its prior), so it proposes before it acts, and becomes autonomous as approved outcomes confirm
the belief (REST, real Neo4j, offline reasoner)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.integration.loop.conftest import Agent

PROFILE = {
    "name": "Dana Smith",
    "email": "dana@acme.example",
    "role": "Controller",
    "seniority": "manager",
    "company": "Acme",
    "industry": "saas",
}
REQUEST = "Please track the monthly bank reconciliation once the bank statement arrives"


def test_a_new_agent_moves_from_proposal_to_autonomy_as_outcomes_confirm_it(
    ordinary_day_client: TestClient,
) -> None:
    # An ordinary day: outcomes move the default strengths (at a month end, the month's).
    client = ordinary_day_client
    born = client.post("/v1/agents", json={"name": "Novice", "profile": PROFILE})
    assert born.status_code == 201, born.text
    agent = Agent(client, born.json()["id"])
    pack_beliefs = agent.get("/beliefs", limit=500, sort="newest")["data"]
    from_packs = [b for b in pack_beliefs if b["source"] == "pack"]
    assert from_packs and all(b["strength"] <= 0.5 for b in from_packs)
    assert any(b["prior_strength"] > 0.5 for b in from_packs)
    creed = [b for b in pack_beliefs if b["is_immutable"]]
    assert creed and all(b["strength"] > 0.5 for b in creed)  # the birth's own: not capped

    modes, strengths = [], []
    for _ in range(6):
        turn = agent.chat(REQUEST, speaker="Dana Smith")
        modes.append(turn["mode"])
        relevant = turn["relevant_belief"]
        assert relevant is not None, turn
        strengths.append(relevant["strength"])
        if turn["mode"] == "autonomous":
            assert turn["execution"]["status"] == "executed"
            break
        assert turn["mode"] == "proposal", turn["appraisal"]
        approved = client.post(
            f"/v1/agents/{agent.id}/approvals/{turn['approval']['id']}",
            json={"action": "approve", "speaker": "Dana Smith"},
        )
        assert approved.status_code == 200, approved.text
        assert approved.json()["execution"]["status"] == "executed"
    assert modes[0] == "proposal", modes
    assert modes[-1] == "autonomous", (modes, strengths)
    assert strengths == sorted(strengths) and strengths[0] <= 0.5 < strengths[-1]
    belief = agent.get(f"/beliefs/{relevant['id']}")["belief"]
    assert belief["prior_strength"] > 0.5 and belief["is_invalidated"] is False
