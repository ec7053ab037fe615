"""`credence agents | beliefs | tension | revisions` against the real Neo4j."""

from __future__ import annotations

import re

import neo4j
import pytest
from typer.testing import CliRunner

from app.cli.main import app as cli_app
from app.config import Settings


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


def test_a_belief_added_from_the_terminal_is_embedded_at_once(
    cli: CliRunner, settings: Settings
) -> None:
    created = cli.invoke(cli_app, ["agents", "create", "Terminal Tom"])
    agent_id = re.search(r"CREDENCE_AGENT_ID=(\S+)", created.output)
    assert agent_id is not None
    added = cli.invoke(
        cli_app, ["beliefs", "add", "Invoices are paid in 30 days", "--agent", agent_id.group(1)]
    )
    assert added.exit_code == 0, added.output
    neo = settings.neo4j
    # The CLI runs its own event loop, so the check reads through a plain synchronous driver.
    with neo4j.GraphDatabase.driver(
        neo.uri, auth=(neo.user, neo.password.get_secret_value())
    ) as driver:
        records, _, _ = driver.execute_query(
            "MATCH (b:Belief {agent_id: $agent_id}) "
            "RETURN b.embedding IS NOT NULL AS embedded, b.embedding_pending AS pending",
            agent_id=agent_id.group(1),
            database_=neo.database,
        )
    # The vector is stored and the pending mark removed before the command returned.
    assert [(r["embedded"], bool(r["pending"])) for r in records] == [(True, False)]
