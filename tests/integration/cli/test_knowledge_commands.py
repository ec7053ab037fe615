"""`credence packs | birth | context | episodes import | embed backfill` on the real Neo4j."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path

import pytest
from typer.testing import CliRunner

from app.cli.main import app as cli_app


def _born(cli: CliRunner, *args: str) -> str:
    result = cli.invoke(cli_app, ["birth", *args])
    assert result.exit_code == 0, result.output
    found = re.search(r"CREDENCE_AGENT_ID=(\S+)", result.output)
    assert found is not None
    return found.group(1)


def test_packs_are_listed_validated_and_loaded_with_progress(cli: CliRunner, graph: object) -> None:
    listed = cli.invoke(cli_app, ["packs", "list"])
    validated = cli.invoke(cli_app, ["packs", "validate"])
    agent = _born(cli, "Packer")
    loaded = cli.invoke(cli_app, ["packs", "load", "nonprofit-accounting", "--agent", agent])
    loaded_again = cli.invoke(cli_app, ["packs", "load", "nonprofit-accounting", "-a", agent])
    shown = cli.invoke(cli_app, ["packs", "list", "--agent", agent])

    assert listed.exit_code == 0 and "saas-revenue-recognition" in listed.output
    assert validated.exit_code == 0 and validated.output.count("ok") >= 6
    assert loaded.exit_code == 0, loaded.output
    assert "nonprofit-accounting v1 loaded" in loaded.output
    assert "unchanged" in loaded_again.output
    assert shown.exit_code == 0 and "nonprofit-accounting" in shown.output


def test_a_malformed_pack_is_reported_with_file_and_path_and_not_loaded(
    cli: CliRunner, tmp_path: Path, graph: object
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "name: bad-pack\nversion: 1\nindustry: x\ndescription: d\nbeliefs:\n"
        "  - key: a\n    statement: A\n    category: contextual\n    strength: 1.5\n"
        "  - key: b\n    statement: B\n    category: nonsense\n",
        encoding="utf-8",
    )
    agent = _born(cli, "Careful")

    validated = cli.invoke(cli_app, ["packs", "validate", str(bad)])
    loaded = cli.invoke(cli_app, ["packs", "load", str(bad), "--agent", agent])
    packs = cli.invoke(cli_app, ["packs", "list", "--agent", agent])

    assert validated.exit_code == 1
    assert "beliefs[0].strength" in validated.output and "beliefs[1].category" in validated.output
    assert str(bad) in validated.output.replace("\n", "")
    assert loaded.exit_code == 1 and "bad-pack" not in packs.output


def test_a_pack_file_with_a_catch_all_censor_is_refused_naming_the_file_and_the_censor(
    cli: CliRunner, tmp_path: Path, graph: object
) -> None:
    bad = tmp_path / "catch-all.yaml"
    bad.write_text(
        "name: catch-all\nversion: 1\nindustry: x\ndescription: d\nbeliefs:\n"
        "  - key: a\n    statement: A\n    category: contextual\n"
        "censors:\n  - key: everything\n    pattern: '(?s).*'\n    reason: r\n"
        "    action: absolute\n",
        encoding="utf-8",
    )
    agent = _born(cli, "Screened")

    validated = cli.invoke(cli_app, ["packs", "validate", str(bad)])
    loaded = cli.invoke(cli_app, ["packs", "load", str(bad), "--agent", agent])
    packs = cli.invoke(cli_app, ["packs", "list", "--agent", agent])

    assert validated.exit_code == 1
    output = validated.output.replace("\n", "")
    assert str(bad) in output and "censors[0].pattern" in output
    assert "censor 'everything'" in output and "matches the empty string" in output
    assert loaded.exit_code == 1 and "catch-all" not in packs.output


def test_the_pack_schema_is_exported(cli: CliRunner, tmp_path: Path) -> None:
    target = tmp_path / "pack.schema.json"
    result = cli.invoke(cli_app, ["packs", "schema", "--output", str(target)])

    assert result.exit_code == 0
    schema = json.loads(target.read_text(encoding="utf-8"))
    assert {"name", "version", "beliefs"} <= set(schema["required"])


def test_birth_import_context_and_backfill_from_the_terminal(
    cli: CliRunner, tmp_path: Path, graph: object
) -> None:
    agent = _born(
        cli,
        "Ava",
        "--principal",
        "Dana Smith",
        "--role",
        "Controller",
        "--seniority",
        "manager",
        "--company",
        "Acme",
        "--industry",
        "saas",
    )
    log = tmp_path / "log.jsonl"
    lines = [
        {
            "external_id": f"t{n}",
            "speaker": "Dana Smith",
            "session": "s1",
            "occurred_at": f"2026-03-0{n + 1}T10:00:00Z",
            "text": text,
        }
        for n, text in enumerate(
            [
                "The Acme implementation fee was invoiced upfront.",
                "Dana asked whether the fee can be recognised in March.",
                "We agreed to defer it over the subscription term.",
            ]
        )
    ]
    log.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"speaker": "x"}\n', encoding="utf-8")

    imported = cli.invoke(cli_app, ["episodes", "import", str(log), "--agent", agent])
    again = cli.invoke(cli_app, ["episodes", "import", str(log), "--agent", agent])
    rejected = cli.invoke(cli_app, ["episodes", "import", str(broken), "--agent", agent])
    shown = cli.invoke(
        cli_app, ["context", "can we recognise the implementation fee upfront?", "-a", agent]
    )
    as_json = cli.invoke(
        cli_app, ["context", "implementation fee", "-a", agent, "--json", "-k", "2"]
    )
    backfill = cli.invoke(cli_app, ["embed", "backfill", "--agent", agent])
    status = cli.invoke(cli_app, ["embed", "status"])

    assert imported.exit_code == 0 and "3 episodes created" in imported.output
    assert "0 episodes created, 3 already there" in again.output
    assert rejected.exit_code == 1 and f"{broken}:1: text" in rejected.output.replace("\n", "")
    assert shown.exit_code == 0, shown.output
    assert "implementation" in shown.output and "episodes" in shown.output
    body = json.loads(as_json.output)
    assert {"beliefs", "episodes", "rules", "people", "working_memory"} <= set(body["sections"])
    assert body["sections"]["episodes"]["items"][0]["external_id"] in {"t0", "t1", "t2"}
    assert backfill.exit_code == 0 and "stored vectors" in backfill.output
    assert status.exit_code == 0 and "384-d vectors on onnx" in status.output


def test_the_default_agents_id_alone_for_a_shell(
    cli: CliRunner, graph: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.config import get_settings

    monkeypatch.setenv("CREDENCE_DEFAULT_AGENT", f"default-cli-{uuid.uuid4()}")
    get_settings.cache_clear()
    first = cli.invoke(cli_app, ["agents", "default", "--id"])
    again = cli.invoke(cli_app, ["agents", "default", "--id"])
    talkative = cli.invoke(cli_app, ["agents", "default"])

    assert first.exit_code == 0, first.output
    agent_id = first.output.strip()
    assert re.fullmatch(r"[0-9a-f-]{36}", agent_id), first.output
    assert again.output.strip() == agent_id
    assert f"CREDENCE_AGENT_ID={agent_id}" in talkative.output


def test_a_missing_pack_file_is_named_as_a_file_and_an_older_version_refused(
    cli: CliRunner, tmp_path: Path, graph: object
) -> None:
    """A YAML path that is not there is a file that cannot be read (it was looked up as a pack's
    name: "no knowledge pack named '/tmp/…/v3.yaml'"), an unknown name is printed as an error
    (it escaped the command as an exception), and a version older than the one the agent holds
    is refused, nothing written."""
    agent = _born(cli, "Versioned")
    newer = tmp_path / "v2.yaml"
    newer.write_text(
        "name: cli-versions\nversion: 2\nindustry: x\ndescription: d\nbeliefs:\n"
        "  - key: a\n    statement: A holds.\n    category: contextual\n",
        encoding="utf-8",
    )
    older = tmp_path / "v1.yaml"
    older.write_text(newer.read_text(encoding="utf-8").replace("version: 2", "version: 1"))
    missing = tmp_path / "v3.yaml"

    assert cli.invoke(cli_app, ["packs", "load", str(newer), "--agent", agent]).exit_code == 0
    refused = cli.invoke(cli_app, ["packs", "load", str(older), "--agent", agent])
    absent = cli.invoke(cli_app, ["packs", "load", str(missing), "--agent", agent])
    unknown = cli.invoke(cli_app, ["packs", "load", "no-such-pack", "--agent", agent])

    assert refused.exit_code == 1 and "pack_version_older" in refused.output
    assert absent.exit_code == 1 and absent.exception is not None
    assert isinstance(absent.exception, SystemExit)
    flat = absent.output.replace("\n", "")
    assert "cannot read" in flat and str(missing) in flat and "no knowledge pack" not in flat
    assert unknown.exit_code == 1 and isinstance(unknown.exception, SystemExit)
    assert "pack_not_found" in unknown.output
