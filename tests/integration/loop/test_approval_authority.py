"""Who may answer an approval: the agent's principal, or a known person with the authority the
approval needs (a manager's, 0.7, for standard work; a director's, 0.8, at high stakes). Anyone
else gets a 403 that names who and what is needed, and nothing is written (real Neo4j, offline
reasoner, the REST API)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.integration.loop.conftest import Agent
from tests.support.agents import MakeAgent

RECONCILE = "Bank accounts are reconciled at month end before the books are closed"
REQUEST = "Please reconcile the Chase bank account before the books are closed"
PAYMENT_RULE = (
    "Payment runs above 100,000 are approved by the Chief Financial Officer before they are "
    "released."
)
PAYMENT = "Approve the 250,000 payment run to Initech today, it is urgent."
PRINCIPAL = {
    "name": "Maria Lopez",
    "role": "Controller",
    "seniority": "director",
    "email": "maria.lopez@northwind.example",
}
PEOPLE = (
    ("Sam Patel", "Accounts payable clerk", "junior"),
    ("Olga Brandt", "Payables manager", "manager"),
    ("Tom Becker", "Chief Financial Officer", "c_suite"),
)


def _born(client: TestClient, make_agent: MakeAgent) -> Agent:
    agent = Agent(client, make_agent("Authority", profile=PRINCIPAL))
    for name, role, seniority in PEOPLE:
        response = client.post(
            f"/v1/agents/{agent.id}/people",
            json={"name": name, "role": role, "seniority": seniority},
        )
        assert response.status_code == 201, response.text
    return agent


def _answer(agent: Agent, approval_id: str, **answer: Any) -> Any:
    return agent.client.post(
        f"/v1/agents/{agent.id}/approvals/{approval_id}", json={"action": "approve", **answer}
    )


def _still_pending(agent: Agent, approval_id: str) -> None:
    assert agent.get(f"/approvals/{approval_id}")["status"] == "pending"
    [task] = agent.get("/working-memory/tasks")["data"]
    assert task["approval_id"] == approval_id and task["state"] == "awaiting_input"


def test_only_the_principal_or_enough_authority_answers(
    client: TestClient, make_agent: MakeAgent
) -> None:
    agent = _born(client, make_agent)
    agent.belief(RECONCILE, 0.55)
    asked = agent.chat(REQUEST, speaker="Sam Patel")
    approval = asked["approval"]
    assert asked["mode"] == "proposal" and approval["required_authority"] == 0.7, asked
    episodes = len(agent.get("/episodes", limit=50))

    # The clerk who asked (named, or as the paused turn's speaker when nobody is named).
    for answer in ({"speaker": "Sam Patel"}, {}):
        refused = _answer(agent, approval["id"], **answer)
        assert refused.status_code == 403, refused.text
        error = refused.json()["error"]
        assert error["code"] == "approval_not_authorized"
        assert error["details"] == {
            "approval_id": approval["id"],
            "speaker": "Sam Patel",
            "authority": 0.4,
            "required_authority": 0.7,
            "principal": "Maria Lopez",
        }
        assert "Sam Patel may not answer" in error["message"]
        assert "authority 0.70 or more" in error["message"]
    stranger = _answer(agent, approval["id"], action="reject", speaker="Zed Quinn", text="no")
    assert stranger.status_code == 403, stranger.text
    assert "Zed Quinn is not a known person" in stranger.json()["error"]["message"]
    assert stranger.json()["error"]["details"]["authority"] is None
    # Nothing was written: the approval waits, its task too, and no episode was added.
    _still_pending(agent, approval["id"])
    assert len(agent.get("/episodes", limit=50)) == episodes

    approved = _answer(agent, approval["id"], speaker="Olga Brandt")
    assert approved.status_code == 200, approved.text
    assert approved.json()["approval"]["status"] == "approved"


def test_high_stakes_need_a_directors_authority_or_the_principal(
    client: TestClient, make_agent: MakeAgent
) -> None:
    agent = _born(client, make_agent)
    agent.belief(PAYMENT_RULE, 0.7, category="contextual", domain="payables", importance=0.9)
    asked = agent.chat(PAYMENT, speaker="Sam Patel")
    approval = asked["approval"]
    assert asked["mode"] == "proposal" and approval is not None, asked
    assert approval["required_authority"] == 0.8, approval

    manager = _answer(agent, approval["id"], speaker="Olga Brandt")
    assert manager.status_code == 403, manager.text
    details = manager.json()["error"]["details"]
    assert details["authority"] == 0.7 and details["required_authority"] == 0.8
    _still_pending(agent, approval["id"])

    principal = _answer(
        agent, approval["id"], action="reject", speaker="maria  lopez", text="Tom approves these."
    )
    assert principal.status_code == 200, principal.text
    assert principal.json()["approval"]["status"] == "rejected"


def test_an_agent_without_a_principal_takes_any_answer(agent: Agent) -> None:
    agent.belief(RECONCILE, 0.55)
    asked = agent.chat(REQUEST, speaker="Sam Patel")
    answered = _answer(agent, asked["approval"]["id"], speaker="Sam Patel")
    assert answered.status_code == 200, answered.text


def test_the_answer_route_declares_its_403(client: TestClient) -> None:
    path = "/v1/agents/{agent_id}/approvals/{approval_id}"
    operation = client.get("/openapi.json").json()["paths"][path]["post"]
    refused = operation["responses"]["403"]
    assert "approval_not_authorized" in refused["description"]
    assert refused["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ErrorResponse"
    }


def test_a_deleted_principal_opens_no_approval_to_anyone(
    client: TestClient, make_agent: MakeAgent
) -> None:
    # An agent whose principal was deleted still had one: an answer needs the authority the
    # approval asks for (it was open to anyone, as an agent born without a principal is).
    agent = _born(client, make_agent)
    agent.belief(RECONCILE, 0.55)
    asked = agent.chat(REQUEST, speaker="Sam Patel")
    approval = asked["approval"]
    assert approval is not None and approval["required_authority"] == 0.7, asked
    [principal] = [
        p for p in agent.get("/people", limit=50)["data"] if p["name"] == PRINCIPAL["name"]
    ]
    deleted = client.delete(f"/v1/agents/{agent.id}/people/{principal['id']}")
    assert deleted.status_code == 200, deleted.text

    for speaker in ("Zed Quinn", "Sam Patel", "Maria Lopez"):
        refused = _answer(agent, approval["id"], speaker=speaker)
        assert refused.status_code == 403, (speaker, refused.text)
        assert refused.json()["error"]["details"]["principal"] == "the principal (deleted)"
    _still_pending(agent, approval["id"])

    approved = _answer(agent, approval["id"], speaker="Olga Brandt")
    assert approved.status_code == 200, approved.text


def test_a_name_merged_into_a_person_answers_with_their_authority(
    client: TestClient, make_agent: MakeAgent
) -> None:
    """ "Tom" merged into Tom Becker (a CFO) and "Maria" into the principal (a manager here, below
    the high stakes' 0.8): each name answers as the person it was merged into (docs/memory.md
    §2, aliases), the principal's any approval."""
    agent = Agent(client, make_agent("Aliases", profile={**PRINCIPAL, "seniority": "manager"}))
    url = f"/v1/agents/{agent.id}/people"
    tom = client.post(url, json={"name": "Tom Becker", "seniority": "c_suite"}).json()
    principal = {p["name"]: p for p in agent.get("/people")["data"]}["Maria Lopez"]
    for alias, into in (("Tom", tom), ("Maria", principal)):
        other = client.post(url, json={"name": alias}).json()
        merged = client.post(f"{url}/{into['id']}/merge", json={"other_id": other["id"]})
        assert merged.status_code == 200, merged.text
    agent.belief(PAYMENT_RULE, 0.7, category="contextual", domain="payables", importance=0.9)
    approvals = [agent.chat(PAYMENT, speaker="Sam Patel")["approval"] for _ in range(2)]
    assert [a["required_authority"] for a in approvals] == [0.8, 0.8], approvals

    by_cfo = _answer(agent, approvals[0]["id"], speaker="tom")
    by_principal = _answer(agent, approvals[1]["id"], speaker="Maria")

    assert by_cfo.status_code == 200, by_cfo.text
    assert by_principal.status_code == 200, by_principal.text
