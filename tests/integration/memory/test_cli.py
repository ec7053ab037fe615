"""`credence people | frames | memory | episodes import` against the real Neo4j."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from app.cli.main import app as cli_app
from app.memory import episodes
from tests.support.agents import MakeAgent


def test_people_frames_and_memory_from_the_terminal(
    cli: CliRunner, monkeypatch: pytest.MonkeyPatch, graph: object
) -> None:
    created = cli.invoke(cli_app, ["agents", "create", "Terminal Tom"])
    agent_id = re.search(r"CREDENCE_AGENT_ID=(\S+)", created.output)
    assert agent_id is not None, created.output
    monkeypatch.setenv("CREDENCE_AGENT_ID", agent_id.group(1))

    added = cli.invoke(
        cli_app, ["people", "add", "Maria Lopez", "--seniority", "director", "--role", "CFO"]
    )
    assert added.exit_code == 0, added.output
    assert "authority 0.80" in added.output
    listed = cli.invoke(cli_app, ["people", "list"])
    shown = cli.invoke(cli_app, ["people", "show", "maria lopez"])
    bad = cli.invoke(cli_app, ["people", "add", "X", "--seniority", "boss"])
    assert listed.exit_code == 0 and "Maria Lopez" in listed.output
    assert shown.exit_code == 0 and "director" in shown.output and "0.580" in shown.output
    assert bad.exit_code != 0 and "seniority" in bad.output
    missing = cli.invoke(cli_app, ["people", "show", "Nobody"])
    assert missing.exit_code == 1 and "person_not_found" in missing.output

    empty = cli.invoke(cli_app, ["frames", "list"])
    installed = cli.invoke(cli_app, ["frames", "install"])
    selected = cli.invoke(cli_app, ["frames", "select", "Should we approve the budget?"])
    assert empty.exit_code == 0 and "no frames installed" in empty.output
    assert installed.exit_code == 0 and "decision" in installed.output
    assert selected.exit_code == 0 and "selected decision" in selected.output

    memory = cli.invoke(cli_app, ["memory", "show"])
    assert memory.exit_code == 0, memory.output
    assert "active tasks (0)" in memory.output and "Maria Lopez" in memory.output
    assert "next deadline" in memory.output


def test_a_log_over_the_characters_one_import_reads_goes_in_several_batches(
    cli: CliRunner, graph: object, make_agent: MakeAgent, tmp_path: Path
) -> None:
    agent = make_agent("Long log")
    # 60 episodes of 20,003 characters (mostly spaces: quick to read and embed): 1,200,180 in
    # all, more than one import takes (episodes.MAX_BATCH_CHARS), fewer than --batch-size.
    field = "ledger" + " " * 19_992 + "ok"
    lines = [
        {"external_id": f"long-{n}", "speaker": "Sam", "text": field, "session": "long"}
        for n in range(60)
    ]
    log = tmp_path / "long.jsonl"
    log.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    assert len(lines) * (3 + len(field)) > episodes.MAX_BATCH_CHARS

    imported = cli.invoke(cli_app, ["episodes", "import", str(log), "--agent", agent])

    assert imported.exit_code == 0, imported.output
    assert "60 episodes created" in imported.output


def test_names_that_look_like_markup_are_printed_as_written(
    cli: CliRunner, monkeypatch: pytest.MonkeyPatch, graph: object
) -> None:
    # Rich reads "[...]" as markup: a name with a stray closing tag made every people command
    # (and a missing person's error) end in a MarkupError traceback, and "[red]Eve" lost its tag.
    created = cli.invoke(cli_app, ["agents", "create", "Agent [/x] Smith"])
    assert created.exit_code == 0, created.output
    assert "Agent [/x] Smith" in created.output
    agent_id = re.search(r"CREDENCE_AGENT_ID=(\S+)", created.output)
    assert agent_id is not None, created.output
    monkeypatch.setenv("CREDENCE_AGENT_ID", agent_id.group(1))

    added = cli.invoke(cli_app, ["people", "add", "Bob [/x] Jones", "--role", "[red]CFO"])
    listed = cli.invoke(cli_app, ["people", "list"])
    shown = cli.invoke(cli_app, ["people", "show", "bob [/x] jones"])
    missing = cli.invoke(cli_app, ["people", "show", "[/y]"])
    agent = cli.invoke(cli_app, ["agents", "show"])
    agents = cli.invoke(cli_app, ["agents", "list", "--name", "Agent [/x] Smith"])
    born = cli.invoke(cli_app, ["birth", "Born [/x] Agent"])

    assert added.exit_code == 0 and "Bob [/x] Jones" in added.output, added.output
    assert listed.exit_code == 0 and "[red]CFO" in listed.output, listed.output
    assert shown.exit_code == 0 and "Bob [/x] Jones" in shown.output, shown.output
    assert "[red]CFO" in shown.output
    assert missing.exit_code == 1 and "[/y]" in missing.output, missing.output
    assert agent.exit_code == 0 and "Agent [/x] Smith" in agent.output, agent.output
    assert agents.exit_code == 0 and "[/x]" in agents.output, agents.output
    assert born.exit_code == 0 and "born Born [/x] Agent" in born.output, born.output


def test_a_log_that_repeats_an_external_id_is_refused_naming_both_lines(
    cli: CliRunner, client: TestClient, make_agent: MakeAgent, tmp_path: Path
) -> None:
    # One import refuses a repeated external id; the log's batches reached it unchecked: a
    # repeat in one batch was a pydantic traceback, in two batches a silent "already there".
    agent = make_agent("Repeating log")
    lines = [
        {"external_id": "a", "speaker": "Ann", "text": "The feed broke."},
        {"external_id": "b", "speaker": "Ann", "text": "It is fixed."},
        {"external_id": "a", "speaker": "Ann", "text": "The feed broke again."},
    ]
    log = tmp_path / "repeats.jsonl"
    log.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")

    one_batch = cli.invoke(cli_app, ["episodes", "import", str(log), "--agent", agent])
    two_batches = cli.invoke(
        cli_app, ["episodes", "import", str(log), "--agent", agent, "--batch-size", "2"]
    )

    for refused in (one_batch, two_batches):
        assert refused.exit_code == 1, refused.output
        assert refused.exception is None or isinstance(refused.exception, SystemExit)
        printed = " ".join(refused.output.split())  # however the terminal wrapped it
        assert "repeats.jsonl:3: external_id: 'a' repeats line 1" in printed
    assert client.get(f"/v1/agents/{agent}/episodes").json() == []


def test_a_log_about_a_belief_the_agent_lacks_writes_none_of_its_batches(
    cli: CliRunner, client: TestClient, make_agent: MakeAgent, tmp_path: Path
) -> None:
    # "The whole file is validated first": the beliefs a line is about were checked batch by
    # batch, so the batches before the bad line were written.
    agent = make_agent("Stale log")
    lines = [
        {"external_id": "a", "speaker": "Ann", "text": "The feed broke."},
        {"external_id": "b", "speaker": "Ann", "text": "It is fixed."},
        "",
        {"external_id": "c", "speaker": "Ann", "text": "Again.", "about": ["gone-belief"]},
    ]
    log = tmp_path / "stale.jsonl"
    log.write_text("\n".join(json.dumps(line) if line else "" for line in lines) + "\n", "utf-8")

    refused = cli.invoke(
        cli_app, ["episodes", "import", str(log), "--agent", agent, "--batch-size", "2"]
    )

    assert refused.exit_code == 1, refused.output
    printed = " ".join(refused.output.split())
    assert "stale.jsonl:4: about[0]: no belief 'gone-belief' in this agent" in printed, printed
    assert client.get(f"/v1/agents/{agent}/episodes").json() == []
