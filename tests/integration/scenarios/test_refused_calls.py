"""A scenario's tool call passes its tool's input-schema check, as ``POST /actions``'s does: a
call the schema refuses fails its step with a check naming where and why, and the run goes on
(real Neo4j, the real loop, offline, mcp-server-sqlite as the ledger)."""

from __future__ import annotations

from pathlib import Path

from app.config import Settings
from app.scenarios.models import Scenario
from app.scenarios.runner import RunOptions, run_scenario
from tests.integration.tools.conftest import sqlite_server

SCENARIO = {
    "name": "refused-calls",
    "title": "Refused calls",
    "description": "A call with a number for its SQL, and one of a tool the ledger lacks, are "
    "refused; the next call is made.",
    "start": "2026-10-28T15:00:00Z",
    "principal": {"name": "Maria Lopez", "role": "Controller", "seniority": "director"},
    "ledger": {"statements": ["CREATE TABLE invoices (number TEXT PRIMARY KEY)"]},
    "turns": [
        {
            "speaker": "Maria Lopez",
            "call": {"tool": "write_query", "arguments": {"query": 5}},
            "expect": {"mode": "proposal"},
        },
        {
            "speaker": "Maria Lopez",
            "call": {"tool": "drop_everything", "arguments": {}},
            "expect": {"mode": "proposal"},
        },
        {
            "speaker": "Maria Lopez",
            "call": {"tool": "read_query", "arguments": {"query": "SELECT * FROM invoices"}},
            "expect": {"tool": "ledger.read_query"},
        },
    ],
}


async def test_a_call_its_schema_refuses_fails_its_step_with_the_schemas_message(
    settings: Settings, tmp_path: Path
) -> None:
    """The call went to the turn, which raised a 422-shaped error located in a request body
    (``["body", "arguments", "query"]``) out of the whole run: no report, no other turn."""
    scenario = Scenario.model_validate(SCENARIO)
    options = RunOptions(sqlite_server=sqlite_server(), workdir=tmp_path)

    report = await run_scenario(settings, scenario, options)

    failed, unknown = report.failures
    assert (failed.turn, failed.step, failed.what, failed.expected) == (1, "turn", "call", "made")
    assert failed.actual == (
        "refused by the tool's input schema at turns[0].call.arguments.query: "
        "5 is not of type 'string'"
    )
    # A tool the agent lacks stopped the whole run (ToolNotFound out of run_scenario).
    assert (unknown.turn, unknown.what) == (2, "call")
    assert unknown.actual.startswith("refused at turns[1].call: ")
    assert "no tool 'drop_everything' on connection 'ledger'" in unknown.actual
    assert report.turns == 1  # the refused calls ran no turn; the next one ran
    assert [(c.turn, c.what, c.passed) for c in report.checks] == [
        (1, "call", False),
        (2, "call", False),
        (3, "tool", True),
    ]
