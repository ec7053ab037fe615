"""``credence`` imports a command's module, and what that module needs, only when the command
runs (app/cli/lazy.py): ``credence --help`` and the commands that read the graph start without
ONNX Runtime, Claude's SDK, the MCP SDK, the API's server or scipy. Guarded by the modules a
fresh process holds after the command, never by time (the figures: bench/README.md "CLI
start")."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from app.cli.lazy import LazyCommand, loaded_command
from app.cli.main import COMMANDS, app

REPOSITORY = Path(__file__).resolve().parents[3]

# Runs ``credence`` with the arguments given, then prints the modules the process holds.
PROBE = """
import json, sys
from app.cli.main import main
try:
    main()
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""

# Heavy packages no command named below needs (the embedder's runtime, Claude's and MCP's SDKs,
# the API's server, reflection's clustering, the topics' word frequencies).
HEAVY = {
    "onnxruntime",
    "tokenizers",
    "anthropic",
    "mcp",
    "fastapi",
    "starlette",
    "uvicorn",
    "scipy",
    "sklearn",
    "wordfreq",
}


def modules_after(*args: str) -> set[str]:
    """The modules a fresh ``credence ARGS`` process has imported when it is done."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    loaded: list[str] = json.loads(done.stderr.strip().splitlines()[-1])
    return set(loaded)


def test_help_imports_no_command_module_nor_any_heavy_package() -> None:
    loaded = modules_after("--help")

    assert {name.split(".")[0] for name in loaded} & (HEAVY | {"neo4j", "numpy"}) == set()
    assert sorted(name for name in loaded if name.startswith("app.")) == [
        "app.cli",
        "app.cli.common",
        "app.cli.lazy",
        "app.cli.main",
        "app.common",
        "app.errors",
    ]


@pytest.mark.parametrize(
    "args", [["agents", "list"], ["beliefs", "list"], ["frames"], ["people"], ["identity"]]
)
def test_a_command_that_reads_the_graph_imports_its_own_module_only(args: list[str]) -> None:
    loaded = modules_after(*args, "--help")

    assert {name.split(".")[0] for name in loaded} & HEAVY == set()
    command_modules = {entry.target.partition(":")[0] for entry in COMMANDS}
    assert loaded & command_modules == {f"app.cli.{args[0]}"}
    # Neither the runtime nor a birth (packs, enrichment, the scheduler's jobs) is built.
    assert loaded & {"app.runtime", "app.agents.birth"} == set()


@pytest.mark.parametrize("entry", COMMANDS, ids=[entry.name for entry in COMMANDS])
def test_each_summary_listed_is_the_first_paragraph_of_the_commands_help(
    entry: LazyCommand,
) -> None:
    command = loaded_command(entry)
    first = inspect.cleandoc(command.short_help or command.help or "").split("\n\n")[0]

    # A paragraph's line breaks are the docstring's wrapping: its help joins them, so the
    # summary is one line (a break in it would be printed as it is, mid-sentence).
    assert (command.name, " ".join(first.split())) == (entry.name, entry.summary)
    assert not command.hidden and not command.deprecated
    assert not getattr(command, "rich_help_panel", None)


def test_help_shows_each_summary_on_one_row_when_the_terminal_is_wide_enough() -> None:
    listed = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "300"}).output
    rows = {row.split()[1]: row for row in listed.splitlines() if row.startswith("│ ")}

    for entry in COMMANDS:
        assert entry.summary in rows[entry.name], entry.name


def test_help_lists_every_command_once_in_order() -> None:
    listed = CliRunner().invoke(app, ["--help"], terminal_width=200).output
    # A row of a panel starts "│ NAME"; a wrapped description goes on after spaces.
    rows = [line for line in listed.splitlines() if line.startswith("│ ") and line[2] != " "]
    first_words = [row.split()[1] for row in rows]

    assert [word for word in first_words if not word.startswith("-")] == [
        entry.name for entry in COMMANDS
    ]


@pytest.mark.parametrize("args", [["status"], ["chat"], ["worker"], ["research", "start"]])
def test_a_command_on_the_runtime_imports_no_claude_or_mcp_sdk_word_frequencies_or_scipy(
    args: list[str],
) -> None:
    # The runtime's module (and every service it builds) is imported; Anthropic's SDK waits for
    # a key (app/reasoning/factory.py), the MCP SDK (and the HTTP server it brings) for a
    # connected server to start or list (app/tools/clients.py), the word frequencies for a text
    # to read (app/text/background.py), scipy for a reflection (its clustering.py).
    loaded = modules_after(*args, "--help")

    assert "app.runtime" in loaded
    assert "app.tools.clients" in loaded
    late = {"anthropic", "mcp", "mcp_types", "starlette", "uvicorn", "wordfreq", "scipy"}
    assert {name.split(".")[0] for name in loaded} & late == set()
