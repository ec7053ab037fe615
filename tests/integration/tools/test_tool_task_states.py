"""A tool call's task (seed 000's task states) through a real MCP server (mcp-server-sqlite over
stdio): proposed → awaiting_input; approved → executing → completed, or blocked when the call
fails or its connection is gone; cancelled, its call not executed, when its approval expires
(real Neo4j, offline reasoner, the REST API)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

from app.clock import Clock
from app.graph.client import GraphClient
from app.loop.approvals import expire_overdue
from tests.integration.tools.conftest import ToolAgent

CREATE = "CREATE TABLE invoices (number TEXT PRIMARY KEY, amount REAL)"


def _task_of(agent: ToolAgent, approval_id: str) -> dict[str, Any]:
    tasks: list[dict[str, Any]] = agent.get("/working-memory/tasks")["data"]
    [task] = [t for t in tasks if t["approval_id"] == approval_id]
    return task


def _states(task: dict[str, Any]) -> list[str]:
    return [move["state"] for move in task["history"]]


def test_a_tool_calls_task_waits_runs_and_completes_or_blocks(
    agent: ToolAgent, tmp_path: Path
) -> None:
    agent.connect_ledger(tmp_path / "ledger.db")
    created = agent.call("ledger", "create_table", {"query": CREATE}, speaker="Dana")
    assert created["mode"] == "proposal", created["response"]
    waiting = _task_of(agent, created["approval"]["id"])
    assert waiting["state"] == "awaiting_input" and waiting["verb"] == "call_tool"
    assert _states(waiting) == ["planning", "awaiting_input"]
    open_ids = [t["id"] for t in agent.get("/working-memory")["tasks"]]
    assert waiting["id"] in open_ids

    assert agent.approve(created["approval"]["id"])["execution"]["status"] == "executed"
    done = _task_of(agent, created["approval"]["id"])
    assert _states(done) == ["planning", "awaiting_input", "executing", "completed"]
    assert done["history"][2]["cause"] == "approved by Dana"

    # A call the ledger refuses: the task is blocked with the ledger's error.
    bad = agent.call("ledger", "read_query", {"query": "SELECT * FROM payments"}, speaker="Dana")
    assert bad["mode"] == "proposal", bad["response"]
    failed = agent.approve(bad["approval"]["id"])
    assert failed["execution"]["status"] == "failed", failed["execution"]
    blocked = _task_of(agent, bad["approval"]["id"])
    assert blocked["state"] == "blocked", blocked
    assert "no such table: payments" in blocked["history"][-1]["cause"]

    # The connection is removed while the call waits: the approved call cannot run.
    waiting_call = agent.call(
        "ledger", "write_query", {"query": "INSERT INTO invoices VALUES ('A-1', 5)"}, speaker="Dana"
    )
    assert agent.client.delete(f"/v1/agents/{agent.id}/connections/ledger").status_code == 204
    agent.approve(waiting_call["approval"]["id"])
    gone = _task_of(agent, waiting_call["approval"]["id"])
    assert gone["state"] == "blocked", gone
    assert "ledger" in gone["history"][-1]["cause"], gone["history"]
    open_ids = [t["id"] for t in agent.get("/working-memory")["tasks"]]
    assert blocked["id"] in open_ids and gone["id"] in open_ids and done["id"] not in open_ids


async def test_a_tool_call_whose_approval_expires_is_not_executed(
    agent: ToolAgent, tmp_path: Path, graph: GraphClient, clock: Clock
) -> None:
    agent.connect_ledger(tmp_path / "ledger.db")
    asked = agent.call("ledger", "create_table", {"query": CREATE}, speaker="Dana")
    approval_id = asked["approval"]["id"]
    [action] = agent.get("/actions", status="pending")["data"]
    # Nobody answers: past the approval's 72 hours on the clock, the expiry sweep runs.
    later = clock.now() + timedelta(hours=73)
    expiry = await expire_overdue(graph, agent.id, later, 600)
    assert (expiry.expired, expiry.cancelled, expiry.actions) == (
        [approval_id],
        [approval_id],
        [action["id"]],
    )
    [ended] = agent.get("/actions", status="not_executed")["data"]
    assert ended["id"] == action["id"] and "expired" in ended["result"]
    task = _task_of(agent, approval_id)
    assert _states(task) == ["planning", "awaiting_input", "cancelled"]
    again = await expire_overdue(graph, agent.id, later, 600)
    assert (again.expired, again.cancelled, again.actions) == ([], [], [])
