"""Issue 25's scenario: an agent keeps the accounting ledger (mcp-server-sqlite, a real MCP
server on the 1.x SDK in .venv-mcp, over stdio) through tool calls that are work units like any
other: proposed, approved by a person, executed, verified and learned from, until the agent has
earned autonomy for that tool (real Neo4j, offline reasoner)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.api.app import create_app
from app.config import Settings
from app.errors import InvalidInput
from app.loop import resume_turn
from tests.integration.tools.conftest import ToolAgent, tool_settings

CREATE = "CREATE TABLE invoices (number TEXT PRIMARY KEY, customer TEXT, amount REAL)"


def _insert(number: int) -> dict[str, str]:
    values = f"('INV-{number:03d}', 'Acme', {100.0 * number})"
    return {"query": "INSERT INTO invoices VALUES " + values}  # noqa: S608 (the SQL under test)


def _rows(db: Path) -> list[tuple[str, str, float]]:
    with sqlite3.connect(db) as connection:
        return list(connection.execute("SELECT * FROM invoices ORDER BY number"))


def _ledger_with_table(agent: ToolAgent, db: Path) -> None:
    agent.connect_ledger(db)
    proposed = agent.call("ledger", "create_table", {"query": CREATE}, speaker="Dana")
    assert proposed["mode"] == "proposal", proposed["response"]
    assert agent.approve(proposed["approval"]["id"])["execution"]["status"] == "executed"


def test_recording_invoices_earns_autonomy_after_confirmed_successes(
    agent: ToolAgent, tmp_path: Path
) -> None:
    db = tmp_path / "ledger.db"
    _ledger_with_table(agent, db)
    modes, strengths = [], []
    for number in range(1, 6):
        turn = agent.call("ledger", "write_query", _insert(number), speaker="Dana")
        modes.append(turn["mode"])
        strengths.append(turn["relevant_belief"]["strength"])
        assert turn["relevant_belief"]["statement"] == (
            "ledger.write_query does what is asked of it when called"
        )
        if turn["mode"] == "autonomous":
            assert turn["execution"]["status"] == "executed", turn["execution"]
            break
        assert turn["mode"] == "proposal", turn["response"]
        assert turn["execution"] is None and len(_rows(db)) == number - 1  # nothing ran yet
        approved = agent.approve(turn["approval"]["id"])
        assert approved["execution"]["status"] == "executed", approved["execution"]
        assert approved["action_id"] == turn["action_id"]
    # write_query may destroy (no readOnlyHint): proposals until 3 confirmed successes, though
    # its belief passed the autonomy line after 2.
    assert modes == ["proposal", "proposal", "proposal", "autonomous"], (modes, strengths)
    assert strengths == sorted(strengths) and strengths[0] == 0.5
    assert [row[0] for row in _rows(db)] == ["INV-001", "INV-002", "INV-003", "INV-004"]

    actions = agent.get("/actions", tool="ledger.write_query")["data"]
    assert [a["status"] for a in actions] == ["succeeded"] * 4
    assert [a["mode"] for a in actions] == ["autonomous", "proposal", "proposal", "proposal"]
    newest = actions[0]
    assert newest["arguments"] == _insert(4) and newest["result"]
    assert newest["duration_ms"] > 0 and newest["episode_id"] and newest["decision_id"]
    assert all(a["approval_id"] for a in actions[1:])
    tools = {t["name"]: t for t in agent.get("/connections/ledger/tools")["data"]}
    assert tools["write_query"]["successes"] == 4
    assert tools["write_query"]["belief_id"] == turn["relevant_belief"]["id"]

    # The analytics query "tool outcomes and autonomy over time" (catalog, CLI, REST, Browser).
    rows = agent.get("/analytics/tool_outcomes_over_time")["rows"]
    assert {row["tool"] for row in rows} == {"ledger.create_table", "ledger.write_query"}
    write = [row for row in rows if row["tool"] == "ledger.write_query"]
    totals = [
        sum(row[k] for row in write) for k in ("calls", "succeeded", "autonomous", "approved")
    ]
    assert totals == [4, 4, 1, 3]  # summed over periods: a run may cross midnight


def test_drop_table_is_refused_by_the_guardian_and_nothing_is_written(
    agent: ToolAgent, tmp_path: Path
) -> None:
    db = tmp_path / "ledger.db"
    _ledger_with_table(agent, db)
    refused = agent.call("ledger", "write_query", {"query": "DROP TABLE invoices"})
    assert refused["mode"] == "blocked"
    assert refused["guardian"]["action"] == "block"
    assert refused["guardian"]["matches"][0]["key"] == "sql_drop_table"
    assert refused["execution"] is None and refused["approval"] is None
    # The same call asked for in a chat message (the documented syntax) is refused as well.
    said = agent.post(
        "/chat", {"message": 'call ledger.write_query {"query": "DROP TABLE invoices"}'}
    )
    assert said["mode"] == "blocked"
    assert _rows(db) == []  # the table is still there (and empty)
    statuses = [a["status"] for a in agent.get("/actions", tool="ledger.write_query")["data"]]
    assert statuses == ["refused", "refused"]


def test_bad_sql_is_a_failure_that_lowers_the_belief(agent: ToolAgent, tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    _ledger_with_table(agent, db)
    proposed = agent.call("ledger", "write_query", {"query": "INSERT INTO nowhere VALUES (1)"})
    before = proposed["relevant_belief"]["strength"]
    failed = agent.approve(proposed["approval"]["id"])
    assert failed["execution"]["status"] == "failed"
    assert "no such table: nowhere" in failed["execution"]["message"]
    assert failed["verification"]["action"] == "escalate"  # retried within the budget
    # Escalated (high severity 0.9): alpha 0.15 · (0.5 + 0.5 · 0.9) = 0.1425 lower, in the
    # context the turn ran in (what the next call of the tool routes on).
    after = agent.call("ledger", "write_query", _insert(1))["relevant_belief"]["strength"]
    assert abs(after - (before - 0.1425)) < 1e-6
    action = agent.get("/actions", tool="ledger.write_query")["data"][1]
    assert action["status"] == "failed" and "no such table" in action["result"]
    # Why the agent trusts the tool as it does (REST, and MCP's explain_belief): its calls.
    why = agent.get(f"/beliefs/{proposed['relevant_belief']['id']}/explanation")
    assert [o["status"] for o in why["tool_outcomes"]] == ["failed"]
    assert why["tool_calls_failed"] == 1 and why["tool_calls_succeeded"] == 0
    assert "Calls of ledger.write_query moved it: 0 succeeded, 1 failed" in why["summary"]


def test_an_approval_after_an_api_restart_executes_the_call_exactly_once(
    settings: Settings, tmp_path: Path
) -> None:
    db = tmp_path / "ledger.db"
    app_settings = tool_settings(settings)
    with TestClient(create_app(app_settings)) as first:
        agent = ToolAgent(first, first.post("/v1/agents", json={"name": "Restart"}).json()["id"])
        _ledger_with_table(agent, db)
        proposed = agent.call("ledger", "write_query", _insert(7))
        assert proposed["mode"] == "proposal"
    # A new API process: the ledger's server is started again on first use.
    with TestClient(create_app(app_settings)) as second:
        approved = agent.approve(proposed["approval"]["id"], client=second)
        assert approved["execution"]["status"] == "executed"
        again = second.post(
            f"/v1/agents/{agent.id}/approvals/{proposed['approval']['id']}",
            json={"action": "approve"},
        )
        assert again.status_code == 409, again.text
        assert again.json()["error"]["code"] == "approval_closed"
    assert [row[0] for row in _rows(db)] == ["INV-007"]


def test_a_rejected_call_is_learned_from_and_never_runs(agent: ToolAgent, tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    _ledger_with_table(agent, db)
    proposed = agent.call("ledger", "write_query", _insert(9))
    before = proposed["relevant_belief"]["strength"]
    rejected = agent.post(
        f"/approvals/{proposed['approval']['id']}",
        {"action": "reject", "text": "Never write to the ledger without the invoice scan"},
    )
    assert rejected["execution"] is None and _rows(db) == []
    action = agent.get("/actions", tool="ledger.write_query")["data"][0]
    assert action["status"] == "rejected" and action["id"] == proposed["action_id"]
    # The rejection is a failure of the belief that decided, and "never" teaches a censor that
    # warns on the next call of that tool.
    again = agent.call("ledger", "write_query", _insert(10))
    assert again["relevant_belief"]["strength"] < before
    assert again["guardian"]["action"] == "warn"
    assert again["guardian"]["matches"][0]["pattern"] == r"(?i)\bcall\s+ledger\.write_query(?!\w)"


def test_an_approval_whose_turn_fails_after_the_call_ran_is_not_run_again(
    agent: ToolAgent, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A resumption that failed after its work unit ran gave the approval back (pending), so a
    second answer ran the call again (a review found an INSERT run twice). Now the approval
    closes with its answer and the failure, and the call runs once."""
    db = tmp_path / "ledger.db"
    _ledger_with_table(agent, db)
    proposed = agent.call("ledger", "write_query", _insert(11))
    approval = f"/v1/agents/{agent.id}/approvals/{proposed['approval']['id']}"

    async def failing_write(*_: object, **__: object) -> None:
        raise InvalidInput("the turn's record failed")

    monkeypatch.setattr(resume_turn, "write_resumption", failing_write)
    failed = agent.client.post(approval, json={"action": "approve", "speaker": "Dana"})
    monkeypatch.undo()

    assert failed.status_code == 422, failed.text
    assert [row[0] for row in _rows(db)] == ["INV-011"]
    again = agent.client.post(approval, json={"action": "approve", "speaker": "Dana"})
    assert again.status_code == 409, again.text
    assert again.json()["error"]["code"] == "approval_closed"
    stored = agent.get(f"/approvals/{proposed['approval']['id']}")
    assert stored["status"] == "approved"
    assert "its turn was not written" in json.dumps(stored)
    assert [row[0] for row in _rows(db)] == ["INV-011"]


@pytest.mark.parametrize(
    ("arguments", "location"),
    [
        ({"query": 5}, ["body", "arguments", "query"]),  # a number for a string
        ({}, ["body", "arguments"]),  # the required query missing
    ],
)
def test_arguments_the_tool_refuses_are_422_and_nothing_is_proposed(
    agent: ToolAgent, tmp_path: Path, arguments: dict[str, object], location: list[str]
) -> None:
    """A call whose arguments the tool's input schema refuses was proposed, approved, sent three
    times and refused by the server each time, lowering the agent's belief in the tool (a
    review's finding). It is refused at once now, naming the argument."""
    _ledger_with_table(agent, tmp_path / "ledger.db")
    before = agent.get("/actions", tool="ledger.write_query")["count"]

    response = agent.client.post(
        f"/v1/agents/{agent.id}/actions",
        json={"connection": "ledger", "tool": "write_query", "arguments": arguments},
    )

    assert response.status_code == 422, response.text
    assert response.json()["error"]["details"]["errors"][0]["location"] == location
    assert agent.get("/actions", tool="ledger.write_query")["count"] == before
    chat = agent.client.post(
        f"/v1/agents/{agent.id}/chat",
        json={"message": f"call ledger.write_query {json.dumps(arguments)}"},
    )
    assert chat.status_code == 422, chat.text
    # The chat's body has only its message: located there, the argument named in the text.
    (entry,) = chat.json()["error"]["details"]["errors"]
    assert entry["location"] == ["body", "message"]
    assert entry["message"].startswith(".".join(location[1:]) + ": ")


def test_a_modified_call_its_schema_refuses_is_422_and_the_approval_stays_pending(
    agent: ToolAgent, tmp_path: Path
) -> None:
    """An approved or modified call ran without the schema check (a person's modified
    arguments had never been checked): refused by the server three times, it lowered the
    tool's belief. Refused before anything runs now; the approval can still be answered."""
    db = tmp_path / "ledger.db"
    _ledger_with_table(agent, db)
    insert = "INSERT INTO invoices VALUES ('INV-021', 'Acme', 10)"
    proposed = agent.call("ledger", "write_query", {"query": insert}, speaker="Dana")
    approval_id = proposed["approval"]["id"]
    unit = proposed["work_unit"]

    modified = agent.client.post(
        f"/v1/agents/{agent.id}/approvals/{approval_id}",
        json={
            "action": "modify",
            "speaker": "Dana",
            "work_unit": unit | {"call": unit["call"] | {"arguments": {"query": 21}}},
        },
    )

    assert modified.status_code == 422, modified.text
    error = modified.json()["error"]
    assert error["details"]["errors"][0]["location"] == [
        "body",
        "work_unit",
        "call",
        "arguments",
        "query",
    ]
    assert "ledger.write_query refuses these arguments" in error["message"]
    assert agent.get(f"/approvals/{approval_id}")["status"] == "pending"
    tool = next(
        t for t in agent.get("/connections/ledger/tools")["data"] if t["name"] == "write_query"
    )
    assert tool["failures"] == 0 and tool["belief_strength"] == 0.5
    assert agent.approve(approval_id)["execution"]["status"] == "executed"
    assert [row[0] for row in _rows(db)] == ["INV-021"]


def test_a_modified_call_is_described_as_the_call_that_ran(
    agent: ToolAgent, tmp_path: Path
) -> None:
    """A person's modified call kept the proposal's words: the resumed turn's work unit (what
    the guardian read, the approval's answer) and the decision recalled into later turns said
    the call proposed (INV-031), while the call that ran inserted INV-032."""
    db = tmp_path / "ledger.db"
    _ledger_with_table(agent, db)
    proposed_query = "INSERT INTO invoices VALUES ('INV-031', 'Acme', 10)"
    ran_query = "INSERT INTO invoices VALUES ('INV-032', 'Acme', 20)"
    proposed = agent.call("ledger", "write_query", {"query": proposed_query}, speaker="Dana")
    unit = proposed["work_unit"]

    modified = agent.post(
        f"/approvals/{proposed['approval']['id']}",
        {
            "action": "modify",
            "speaker": "Dana",
            # The proposal's unit with other arguments: its description still says INV-031.
            "work_unit": unit | {"call": unit["call"] | {"arguments": {"query": ran_query}}},
        },
    )

    assert modified["execution"]["status"] == "executed"
    assert [row[0] for row in _rows(db)] == ["INV-032"]
    said = json.dumps({"query": ran_query})
    assert modified["work_unit"]["description"] == f"call ledger.write_query with {said}"
    assert modified["work_unit"]["entities"] == ["ledger.write_query"]
    assert "INV-031" not in json.dumps(modified["work_unit"])
    assert "INV-031" not in modified["response"]
    # The approval keeps what was proposed, answered "modify".
    assert modified["approval"]["status"] == "modified"
    assert modified["approval"]["work_unit"]["call"]["arguments"] == {"query": proposed_query}
    action = agent.get("/actions", tool="ledger.write_query")["data"][0]
    assert action["arguments"] == {"query": ran_query} and action["status"] == "succeeded"
    # The decision later turns recall says what ran.
    context = agent.get("/context", q="write_query INV-032 invoices", section="decisions")
    [decision] = [
        item
        for item in context["sections"]["decisions"]["items"]
        if item["id"] == proposed["decision_id"]
    ]
    assert "INV-032" in decision["line"] and "INV-031" not in decision["line"]
