"""``credence scenario list | run``: the validation scenarios (``seeds/scenarios/``,
docs/scenarios.md) run through the real loop offline, each expected decision checked."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from app.cli.common import console, err_console, print_error_entries
from app.config import get_settings
from app.errors import CredenceError, SeedFileInvalid
from app.scenarios.models import ScenarioReport
from app.scenarios.runner import (
    RunOptions,
    find_scenario,
    read_scenario,
    run_scenario,
    scenario_files,
)

scenario_app = typer.Typer(
    help="Validation scenarios (seeds/scenarios/*.yaml) run through the real loop offline.",
    no_args_is_help=True,
)


def _fail(error: CredenceError) -> typer.Exit:
    if isinstance(error, SeedFileInvalid):
        print_error_entries(error)
    else:
        err_console.print(f"[bold red]error[/] ({error.code}): {escape(error.message)}")
    return typer.Exit(code=2)


@scenario_app.command("list")
def list_command() -> None:
    """The scenarios, with their turns and expectations."""
    table = Table("name", "title", "turns", "expectations")
    try:
        scenarios = [read_scenario(path) for path in scenario_files()]
    except CredenceError as error:
        raise _fail(error) from error
    for scenario in scenarios:
        table.add_row(
            escape(scenario.name),
            escape(scenario.title),
            str(len(scenario.turns)),
            str(scenario.checks),
        )
    console.print(table)


@scenario_app.command("run")
def run_command(
    name: Annotated[str | None, typer.Argument(help="The scenario (its file's name).")] = None,
    run_all: Annotated[bool, typer.Option("--all", help="Run every scenario.")] = False,
    keep: Annotated[
        bool, typer.Option("--keep", help="Keep the agent (and the ledger's file) afterwards.")
    ] = False,
    sqlite_server: Annotated[
        Path | None,
        typer.Option(
            "--sqlite-server",
            help="The mcp-server-sqlite command (default: .venv-mcp/bin, else PATH).",
        ),
    ] = None,
) -> None:
    """Run a scenario (or --all) on a fresh agent; exit 1 when an expectation fails."""
    if (name is None) == (not run_all):
        err_console.print("name one scenario, or --all")
        raise typer.Exit(code=2)
    try:
        names = [path.stem for path in scenario_files()] if run_all else [str(name)]
        scenarios = [find_scenario(item) for item in names]
    except CredenceError as error:
        raise _fail(error) from error
    options = RunOptions(
        keep=keep, sqlite_server=sqlite_server.resolve() if sqlite_server else None
    )
    failed = 0
    for scenario in scenarios:
        console.print(f"[bold]{escape(scenario.title)}[/] ({scenario.name}, offline reasoner)")
        try:
            report = asyncio.run(run_scenario(get_settings(), scenario, options, _progress))
        except CredenceError as error:
            raise _fail(error) from error
        _print_report(report)
        failed += not report.passed
    if failed:
        raise typer.Exit(code=1)


def _progress(line: str) -> None:
    console.print(f"  [dim]·[/] {escape(line)}")


def _print_report(report: ScenarioReport) -> None:
    table = Table("turn", "step", "speaker", "check", "expected", "actual", "")
    for check in report.checks:
        table.add_row(
            str(check.turn),
            check.step,
            escape(check.speaker),
            check.what,
            escape(check.expected),
            escape(check.actual),
            "[green]pass[/]" if check.passed else "[bold red]FAIL[/]",
        )
    console.print(table)
    passed = len(report.checks) - len(report.failures)
    verdict = "[green]passed[/]" if report.passed else "[bold red]failed[/]"
    kept = f"; agent kept: {report.agent_id}" if report.kept else ""
    console.print(
        f"{report.name}: {verdict} ({passed}/{len(report.checks)} expectations, "
        f"{report.turns} turns, {report.seconds:.0f} s{kept})"
    )
    if report.ledger is not None:  # one line, whole, to copy: never wrapped
        console.print(f"ledger kept: {escape(report.ledger)}", soft_wrap=True)
