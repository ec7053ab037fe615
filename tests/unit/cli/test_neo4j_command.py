"""``credence neo4j`` finds the launcher of the checkout it runs from (tools/neo4j/neo4j-local).

Only ``status`` runs here: it reads the launcher's pid file and knocks on a port, and starts,
stops and writes nothing (the launcher's own states: tests/integration/test_launcher.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from app.cli import servers
from app.cli.main import app
from tools.serve.api_process import free_port

REPOSITORY = Path(__file__).resolve().parents[3]


def test_the_launcher_is_the_checkouts() -> None:
    assert servers.CHECKOUT_LAUNCHER == REPOSITORY / "tools" / "neo4j" / "neo4j-local"
    assert servers.CHECKOUT_LAUNCHER.is_file()


def test_status_runs_the_launcher(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    # A home of its own and a port nothing listens on: the suite's server is neither read
    # nor touched, and the answer is "stopped" (exit 3) whatever else this machine runs.
    home = tmp_path / "neo4j-home"
    monkeypatch.delenv("CREDENCE_NEO4J_LAUNCHER", raising=False)
    monkeypatch.setenv("CREDENCE_NEO4J_HOME", str(home))
    monkeypatch.setenv("CREDENCE_NEO4J_BOLT_PORT", str(free_port()))

    result = CliRunner().invoke(app, ["neo4j", "status"])
    launcher = capfd.readouterr()  # the launcher writes to the process's own stdout

    assert "launcher is not at" not in result.output
    assert result.exit_code == 3, result.output + launcher.out + launcher.err
    assert "neo4j-local: stopped (pinned version" in launcher.out
    assert str(home) in launcher.out
    assert not home.exists()
