"""`credence demo`'s closing lines name Neo4j Browser where the launcher serves it: on ports of
one's own (CREDENCE_NEO4J_HTTP_PORT) the address printed is that port's, not 7474's; and the
commands they suggest run the CLI as it was run (`.venv/bin/credence`, as README.md writes it)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from app.cli.demo import _next_steps, browser_url


def test_browser_is_on_the_launchers_http_port(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CREDENCE_NEO4J_HTTP_PORT", "7481")
    assert browser_url() == "http://127.0.0.1:7481/browser/"


def test_browser_defaults_to_7474(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CREDENCE_NEO4J_HTTP_PORT", raising=False)
    assert browser_url() == "http://127.0.0.1:7474/browser/"


def test_the_next_commands_run_the_cli_from_the_checkouts_venv(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", [str(tmp_path / ".venv" / "bin" / "credence"), "demo"])
    commands = [command for command, _ in _next_steps("a1", "http://127.0.0.1:8000/guide")]
    cli = [command for command in commands if "credence" in command]
    assert cli and all(command.startswith(".venv/bin/credence ") for command in cli), commands
    # A credence found elsewhere (on the PATH, say) is named plainly.
    monkeypatch.setattr(sys, "argv", ["/usr/local/bin/credence", "demo"])
    commands = [command for command, _ in _next_steps("a1", "http://127.0.0.1:8000/guide")]
    assert "credence chat" in commands, commands
