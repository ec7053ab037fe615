"""`credence agents | beliefs | tension | revisions` against the real Neo4j."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from app.cli.main import app as cli_app


def test_a_session_from_the_terminal(
    cli: CliRunner, monkeypatch: pytest.MonkeyPatch, graph: object
) -> None:
    created = cli.invoke(cli_app, ["agents", "create", "Terminal Tess"])
    assert created.exit_code == 0, created.output
    agent_id = re.search(r"CREDENCE_AGENT_ID=(\S+)", created.output)
    assert agent_id is not None
    monkeypatch.setenv("CREDENCE_AGENT_ID", agent_id.group(1))

    added = cli.invoke(
        cli_app,
        [
            "beliefs",
            "add",
            "Standups should be short",
            "--strength",
            "0.8",
            "--category",
            "aesthetic",
        ],
    )
    assert added.exit_code == 0, added.output
    belief_id = re.search(r"added belief (\S+):", added.output)
    assert belief_id is not None

    listed = cli.invoke(cli_app, ["beliefs", "list"])
    shown = cli.invoke(cli_app, ["beliefs", "show", belief_id.group(1)])
    tension = cli.invoke(cli_app, ["tension"])
    revisions = cli.invoke(cli_app, ["revisions"])

    assert listed.exit_code == 0 and "Standups should be short" in listed.output
    assert shown.exit_code == 0 and "0.800" in shown.output and "created" in shown.output
    assert tension.exit_code == 0 and "dissatisfaction" in tension.output
    assert "0.000 (low)" in tension.output
    assert revisions.exit_code == 0 and "0 of 0 revisions" in revisions.output


def test_missing_agent_and_unknown_belief_are_clear_errors(
    cli: CliRunner, monkeypatch: pytest.MonkeyPatch, graph: object
) -> None:
    monkeypatch.delenv("CREDENCE_AGENT_ID", raising=False)
    no_agent = cli.invoke(cli_app, ["beliefs", "list"])
    unknown = cli.invoke(cli_app, ["beliefs", "show", "nope", "--agent", "ghost"])

    assert no_agent.exit_code == 2 and "--agent" in no_agent.output
    assert unknown.exit_code == 1 and "belief_not_found" in unknown.output
