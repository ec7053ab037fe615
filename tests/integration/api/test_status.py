"""``GET /v1/agents/{id}/status`` and ``credence status`` (docs/loop.md §15) on a real Neo4j:
what a fresh agent shows, a session in progress (active, its turns, calls and tokens), an open
conflict, an unknown agent (404), and every status the route can return in its OpenAPI."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from app.cli.main import app as cli_app
from tests.integration.loop.conftest import Agent
from tests.support.agents import MakeAgent

RECONCILE = "Bank accounts are reconciled at month end before the books are closed"
REQUEST = "Please reconcile the Chase bank account before the books are closed"


def _status(client: TestClient, agent: str) -> dict[str, Any]:
    response = client.get(f"/v1/agents/{agent}/status")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def test_a_fresh_agent_is_idle_with_nothing_to_show(client: TestClient, agent: str) -> None:
    status = _status(client, agent)
    assert status["agent_id"] == agent and status["state"] == "idle"
    assert status["state_reason"] == "no open session"
    assert status["sessions"] == {"open": 0, "active": 0, "closed": 0, "total": 0}
    assert status["episodes"] == {"total": 0, "since_reflection": 0}
    assert status["last_session"] is None and status["recent_sessions"] == []
    assert status["last_reflection_at"] is None
    # D and its band as the dissatisfaction service gives them.
    d = client.get(f"/v1/agents/{agent}/dissatisfaction").json()
    assert status["dissatisfaction"] == {"value": d["value"], "band": d["band"]}
    assert status["open_conflicts"] == 0 and status["pending_approvals"] == 0
    assert status["scheduler"] == [] or all(j["agent_id"] is None for j in status["scheduler"])


def test_a_session_in_progress_is_active_with_its_turns_calls_and_tokens(
    client: TestClient, make_agent: MakeAgent
) -> None:
    agent = make_agent("Busy")
    for message in ("Our office opens at eight in the morning.", "The kitchen closes at six."):
        turn = client.post(
            f"/v1/agents/{agent}/chat", json={"message": message, "session": "today"}
        )
        assert turn.status_code == 200, turn.text
    url = f"/v1/agents/{agent}/beliefs"
    a = client.post(url, json={"statement": "Remote work raises output", "category": "contextual"})
    b = client.post(url, json={"statement": "Remote work lowers output", "category": "contextual"})
    edge = client.post(
        f"/v1/agents/{agent}/edges",
        json={
            "type": "CONTRADICTS",
            "source_id": a.json()["id"],
            "target_id": b.json()["id"],
            "strength": 0.8,
        },
    )
    assert edge.status_code in (200, 201), edge.text

    status = _status(client, agent)
    assert status["state"] == "active", status
    assert status["sessions"] == {"open": 1, "active": 1, "closed": 0, "total": 1}
    assert status["episodes"] == {"total": 2, "since_reflection": 2}
    last = status["last_session"]
    assert isinstance(last, dict) and last["key"] == "today" and last["closed_at"] is None
    # The offline reasoner calls no model: none counted, no tokens.
    assert (last["turns"], last["model_calls"], last["input_tokens"]) == (2, 0, 0)
    assert status["recent_sessions"] == [last]
    assert status["open_conflicts"] == 1


def test_an_unknown_agent_is_404_and_every_status_is_declared(client: TestClient) -> None:
    missing = client.get("/v1/agents/no-such-agent/status")
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "agent_not_found"
    operation = client.get("/openapi.json").json()["paths"]["/v1/agents/{agent_id}/status"]["get"]
    assert set(operation["responses"]) >= {"200", "401", "403", "404", "422", "503"}
    assert operation["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/AgentStatus"
    }


def test_credence_status_prints_the_agent_s_status(cli: CliRunner, agent: str) -> None:
    result = cli.invoke(cli_app, ["status", "--agent", agent, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["state"] == "idle"
    shown = cli.invoke(cli_app, ["status", "--agent", agent])
    assert shown.exit_code == 0, shown.output
    assert "idle — no open session" in shown.output
    missing = cli.invoke(cli_app, ["status", "--agent", "no-such-agent"])
    assert missing.exit_code == 1 and "agent_not_found" in missing.output


def test_a_proposal_waiting_for_a_person_is_a_pending_approval(
    client: TestClient, make_agent: MakeAgent
) -> None:
    agent = Agent(client, make_agent("Asking"))
    agent.belief(RECONCILE, 0.55)
    turn = agent.chat(REQUEST)
    assert turn["approval"] is not None and turn["approval"]["status"] == "pending"
    assert _status(client, agent.id)["pending_approvals"] == 1
    answered = client.post(
        f"/v1/agents/{agent.id}/approvals/{turn['approval']['id']}",
        json={"action": "reject", "text": "Not now"},
    )
    assert answered.status_code == 200, answered.text
    assert _status(client, agent.id)["pending_approvals"] == 0
