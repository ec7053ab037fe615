"""The validation scenarios (seeds/scenarios/, docs/scenarios.md), each run through the real
loop on the real Neo4j, offline, with the real SQLite MCP server as the ledger: every expected
decision must hold, and the scenario's agent is gone afterwards."""

from __future__ import annotations

import re
import shutil
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from app.agents.store import get_agent
from app.cli.main import app as cli_app
from app.config import Settings
from app.errors import AgentNotFound
from app.graph.client import GraphClient
from app.scenarios.runner import RunOptions, read_scenario, run_scenario, scenario_files
from tests.integration.tools.conftest import sqlite_server

SCENARIOS = scenario_files()


def test_at_least_five_scenarios_ship() -> None:
    names = {path.stem for path in SCENARIOS}
    assert {
        "month-end-accruals",
        "duplicate-invoice",
        "vendor-bank-change",
        "revenue-contract-change",
        "approval-beyond-authority",
    } <= names


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda path: path.stem)
async def test_every_expectation_holds(
    settings: Settings, graph: GraphClient, path: Path, tmp_path: Path
) -> None:
    scenario = read_scenario(path)
    options = RunOptions(sqlite_server=sqlite_server(), workdir=tmp_path)
    report = await run_scenario(settings, scenario, options)
    failures = [
        f"turn {check.turn} {check.step} ({check.speaker}): {check.what} expected "
        f"{check.expected}, got {check.actual}"
        for check in report.failures
    ]
    assert failures == []
    assert len(report.checks) >= len(scenario.turns)  # every turn checks something
    assert len(report.checks) == scenario.checks  # as many as `credence scenario list` says
    with pytest.raises(AgentNotFound):  # deleted afterwards
        await get_agent(graph, report.agent_id)


def test_a_kept_run_names_its_ledger_file(cli: CliRunner) -> None:
    ran = cli.invoke(
        cli_app,
        ["scenario", "run", "duplicate-invoice", "--keep", "--sqlite-server", str(sqlite_server())],
    )
    agent = re.search(r"agent kept: ([0-9a-f-]{36})", ran.output)
    ledger = re.search(r"^ledger kept: (.+)$", ran.output, re.MULTILINE)
    try:
        assert ran.exit_code == 0, ran.output
        assert agent is not None and ledger is not None, ran.output
        with sqlite3.connect(ledger.group(1)) as kept:  # the run's ledger, there to look at
            assert kept.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] > 0
    finally:
        if agent is not None:
            deleted = cli.invoke(cli_app, ["agents", "delete", agent.group(1)])
            assert deleted.exit_code == 0, deleted.output
        if ledger is not None:
            shutil.rmtree(Path(ledger.group(1)).parent, ignore_errors=True)
