"""Bad input to a `credence` command is one clear error naming what was wrong, a non-zero exit
and nothing written, never a Python traceback (files that cannot be read, blank names, a birth
whose options need a principal, a connection with no server, a server path that is not there),
and `agents list` finds agents by name and prints their ids whole."""

from __future__ import annotations

import re
import uuid
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner, Result

from app.cli.main import app as cli_app
from tests.support.agents import create_agent_over_rest


def _refused(result: Result, *named: str, exit_code: int = 2) -> str:
    """The one message of a refusal (asserting the exit and that no exception escaped)."""
    assert result.exit_code == exit_code, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output and "pydantic" not in result.output
    message = " ".join(result.output.split())
    for text in named:
        assert text in message, result.output
    return message


def _agents_named(client: TestClient, name: str) -> list[str]:
    page = client.get("/v1/agents", params={"name": name})
    assert page.status_code == 200, page.text
    return [agent["id"] for agent in page.json()["data"]]


def test_an_episode_log_that_cannot_be_read_is_named(
    cli: CliRunner, agent: str, tmp_path: Path
) -> None:
    missing = tmp_path / "missing.jsonl"
    latin1 = tmp_path / "latin1.jsonl"
    latin1.write_bytes('{"text": "caf\u00e9"}\n'.encode("latin-1"))

    for path, why in (
        (missing, "No such file or directory"),
        (tmp_path, "Is a directory"),
        (latin1, "'utf-8' codec can't decode byte 0xe9"),
    ):
        result = cli.invoke(cli_app, ["episodes", "import", str(path), "--agent", agent])
        message = _refused(result, f"error: {path}: cannot read it as UTF-8 text: {why}")
        assert result.output.count("\n") == 1, message


@pytest.mark.parametrize("blank", ["", "   "])
def test_a_blank_statement_or_agent_name_is_refused_naming_it(
    cli: CliRunner, client: TestClient, agent: str, blank: str
) -> None:
    belief = cli.invoke(cli_app, ["beliefs", "add", blank, "--agent", agent])
    created = cli.invoke(cli_app, ["agents", "create", blank])

    _refused(belief, "Invalid value: statement:")
    _refused(created, "Invalid value: name:")
    assert client.get(f"/v1/agents/{agent}/beliefs").json()["count"] == 0


@pytest.mark.parametrize(
    ("options", "named"),
    [
        (["--pack", "gaap-fundamentals"], "--pack needs --principal"),
        (["--all-packs"], "--all-packs needs --principal"),
        (["--industry", "saas"], "--industry needs --principal"),
        (["--role", "Controller", "--seniority", "manager"], "--role, --seniority need"),
        (["--email", "dana@acme.example", "--company", "Acme"], "--email, --company need"),
    ],
)
def test_the_options_of_a_full_birth_need_a_principal(
    cli: CliRunner, client: TestClient, options: list[str], named: str
) -> None:
    name = f"Unborn {uuid.uuid4().hex[:8]}"

    result = cli.invoke(cli_app, ["birth", name, *options])

    _refused(result, named, "without --principal the agent is born empty")
    assert _agents_named(client, name) == []


@pytest.mark.parametrize("principal", ["", "   "])
def test_a_blank_principal_is_refused(cli: CliRunner, client: TestClient, principal: str) -> None:
    name = f"Unborn {uuid.uuid4().hex[:8]}"

    result = cli.invoke(cli_app, ["birth", name, "--principal", principal])

    _refused(result, "Invalid value for '--principal': is blank")
    assert _agents_named(client, name) == []


def test_an_industry_no_pack_serves_is_refused_naming_those_that_are(
    cli: CliRunner, client: TestClient
) -> None:
    name = f"Unborn {uuid.uuid4().hex[:8]}"

    result = cli.invoke(cli_app, ["birth", name, "--principal", "Dana", "--industry", "nope"])

    message = _refused(result, "Invalid value for '--industry': no shipped pack serves 'nope'")
    # A pack's industry and its further industries alike.
    assert "accounting" in message and "saas" in message and "software" in message
    assert _agents_named(client, name) == []


def test_a_connection_needs_a_command_or_a_url(cli: CliRunner, agent: str) -> None:
    neither = cli.invoke(cli_app, ["connections", "add", "ledger", "--agent", agent])
    both = cli.invoke(
        cli_app,
        ["connections", "add", "ledger", "-a", agent, "--command", "x", "--url", "http://x"],
    )

    _refused(neither, "give --command (stdio) or --url (HTTP)")
    _refused(both, "give --command (stdio) or --url (HTTP), not both")
    listed = cli.invoke(cli_app, ["connections", "list", "--agent", agent])
    assert "connections (0)" in listed.output


def test_agents_are_listed_by_exact_name_with_their_ids_whole(
    cli: CliRunner, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = f"Listed {uuid.uuid4().hex[:8]}"
    older = create_agent_over_rest(client, name)
    newer = create_agent_over_rest(client, name)
    create_agent_over_rest(client, f"{name} too")
    monkeypatch.setenv("COLUMNS", "80")  # an ordinary terminal: too narrow for every column

    listed = cli.invoke(cli_app, ["agents", "list", "--name", name])
    nobody = cli.invoke(cli_app, ["agents", "list", "--name", f"Nobody {uuid.uuid4().hex}"])
    empty = cli.invoke(cli_app, ["agents", "list", "--name", ""])

    assert listed.exit_code == 0, listed.output
    ids = re.findall(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", listed.output)
    assert ids == [newer, older]
    assert "2 agents named" in listed.output
    assert nobody.exit_code == 0 and "0 agents named" in nobody.output
    _refused(empty, "Invalid value for '--name'")


def test_a_sqlite_server_that_is_not_there_is_named(cli: CliRunner, tmp_path: Path) -> None:
    server = tmp_path / "no-such-bin" / "mcp-server-sqlite"

    scenario = cli.invoke(
        cli_app, ["scenario", "run", "duplicate-invoice", "--sqlite-server", str(server)]
    )
    demo = cli.invoke(
        cli_app,
        ["demo", "--name", f"demo {uuid.uuid4().hex[:8]}", "--sqlite-server", str(server)],
    )

    _refused(scenario, f"--sqlite-server names {server}, not a file")
    _refused(demo, f"--sqlite-server names {server}, not a file", exit_code=1)


def test_a_name_with_a_control_character_is_refused_as_the_api_refuses_it(
    cli: CliRunner, client: TestClient, agent: str
) -> None:
    # The API refuses control characters in names; the terminal stored them (a bell in a
    # person's name rang in every later listing).
    person = cli.invoke(cli_app, ["people", "add", "Al\x07ice", "--agent", agent])
    role = cli.invoke(cli_app, ["people", "add", "Alice", "--role", "C\x1bFO", "--agent", agent])
    created = cli.invoke(cli_app, ["agents", "create", "Bell\x07"])

    _refused(person, "name: must not contain control characters (U+0007 at position 2)")
    _refused(role, "role: must not contain control characters (U+001B at position 1)")
    _refused(created, "name: must not contain control characters")
    assert client.get(f"/v1/agents/{agent}/people").json()["count"] == 0
