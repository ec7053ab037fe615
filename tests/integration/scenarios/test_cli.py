"""`credence scenario list | run` (app/cli/scenario.py) on the real Neo4j: the table of checks,
exit 0 when every expectation holds and 1 when one fails, 2 for a scenario that does not exist."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from app.cli.main import app
from app.scenarios import runner
from tests.integration.tools.conftest import sqlite_server


def test_list_names_every_scenario(cli: CliRunner) -> None:
    listed = cli.invoke(app, ["scenario", "list"])
    assert listed.exit_code == 0, listed.output
    for path in runner.scenario_files():
        assert path.stem in listed.output


def test_run_reports_each_expectation_and_passes(cli: CliRunner) -> None:
    server = str(sqlite_server())
    ran = cli.invoke(app, ["scenario", "run", "duplicate-invoice", "--sqlite-server", server])
    assert ran.exit_code == 0, ran.output
    assert "process_invoice" in ran.output
    assert "UNIQUE constraint failed" in ran.output
    assert "duplicate-invoice: passed" in ran.output
    assert "FAIL" not in ran.output


def test_a_failed_expectation_exits_1(
    cli: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = runner.scenarios_dir() / "approval-beyond-authority.yaml"
    wrong = shipped.read_text(encoding="utf-8").replace(
        "verb: request_approval", "verb: approve_document", 1
    )
    (tmp_path / "approval-beyond-authority.yaml").write_text(wrong, encoding="utf-8")
    monkeypatch.setattr(runner, "scenarios_dir", lambda: tmp_path)
    ran = cli.invoke(app, ["scenario", "run", "approval-beyond-authority"])
    assert ran.exit_code == 1, ran.output
    assert "FAIL" in ran.output and "approval-beyond-authority: failed" in ran.output


def test_an_unknown_scenario_is_named(cli: CliRunner) -> None:
    ran = cli.invoke(app, ["scenario", "run", "no-such-scenario"])
    assert ran.exit_code == 2
    assert "no scenario 'no-such-scenario'" in ran.output
