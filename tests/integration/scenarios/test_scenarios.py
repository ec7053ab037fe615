"""The validation scenarios (seeds/scenarios/, docs/scenarios.md), each run through the real
loop on the real Neo4j, offline, with the real SQLite MCP server as the ledger: every expected
decision must hold, and the scenario's agent is gone afterwards."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.agents.store import get_agent
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
    with pytest.raises(AgentNotFound):  # deleted afterwards
        await get_agent(graph, report.agent_id)
