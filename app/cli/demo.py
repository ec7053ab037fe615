"""``credence demo``: build the lived-in demo agent (app/demo/, docs/demo.md) and say what to
look at next."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Annotated
from urllib.parse import urlencode

import typer
from rich.markup import escape

from app.cli.common import console, err_console
from app.config import Settings, get_settings
from app.demo import DEMO_AGENT_NAME, script
from app.demo.models import DemoReport
from app.demo.runner import DemoOptions, build_demo, default_ledger_path
from app.errors import CredenceError

# Listening on every address: the browser reaches it on this machine's loopback.
_ANY_ADDRESS = frozenset({"", "0.0.0.0", "::", "[::]"})  # noqa: S104 - addresses compared, not bound


def demo_command(
    rebuild: Annotated[
        bool,
        typer.Option(
            "--rebuild", help="Delete the demo agent (every agent of its name) and build it again."
        ),
    ] = False,
    name: Annotated[
        str, typer.Option("--name", help="The demo agent's name.", show_default=True)
    ] = DEMO_AGENT_NAME,
    ledger: Annotated[
        Path | None,
        typer.Option(
            "--ledger",
            help=f"The SQLite file of the demo's ledger (default {default_ledger_path()}).",
        ),
    ] = None,
    sqlite_server: Annotated[
        Path | None,
        typer.Option(
            "--sqlite-server",
            help="The mcp-server-sqlite command (default: .venv-mcp/bin, else PATH).",
        ),
    ] = None,
) -> None:
    """Build an agent with a history (a month-end close, a revision, research, reflection)
    through the real loop, offline and deterministic; keeps a complete one unless --rebuild."""
    options = DemoOptions(
        name=name,
        rebuild=rebuild,
        ledger=(ledger or default_ledger_path()).resolve(),
        sqlite_server=sqlite_server.resolve() if sqlite_server else None,
    )
    console.print(f"[bold]credence demo[/]: the agent {escape(name)!r} (offline reasoner)")
    try:
        report = asyncio.run(build_demo(get_settings(), options, _progress))
    except CredenceError as error:
        err_console.print(f"[bold red]error[/] ({error.code}): {escape(error.message)}")
        if error.code == "demo_failed":
            err_console.print("the half-built demo agent is built again by the next run")
        raise typer.Exit(code=1) from error
    _print_report(report, guide_url(get_settings(), None if name == DEMO_AGENT_NAME else report))


def guide_url(settings: Settings, report: DemoReport | None = None) -> str:
    """The guide's address on the API as configured (``api_host``, ``api_port``), naming the
    demo agent when it is not the default one (``report``: one built under ``--name``; the
    guide's default is the agent named "Credence demo")."""
    host = "127.0.0.1" if settings.api_host in _ANY_ADDRESS else settings.api_host
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"  # an IPv6 address
    url = f"http://{host}:{settings.api_port}/browser/guide"
    return f"{url}?{urlencode({'agent_id': report.agent_id})}" if report else url


def browser_url() -> str:
    """Neo4j Browser's address: the launcher's HTTP port (``CREDENCE_NEO4J_HTTP_PORT``, read by
    tools/neo4j/neo4j-local, not a setting of Credence's; default 7474)."""
    port = os.environ.get("CREDENCE_NEO4J_HTTP_PORT", "").strip() or "7474"
    return f"http://127.0.0.1:{port}/browser/"


def _progress(line: str) -> None:
    console.print(f"  [dim]·[/] {escape(line)}")


def _print_report(report: DemoReport, guide: str) -> None:
    if report.reused:
        console.print(
            f"A complete demo agent exists already; kept as it is ([dim]--rebuild[/] builds it "
            f"again): [bold]{report.agent_id}[/]"
        )
    else:
        console.print(
            f"Built in {report.seconds:.0f} s: {report.turns} turns over "
            f"{len(report.stories)} stories."
        )
        for story in report.stories:
            console.print(f"[bold]{escape(story.title)}[/]")
            for line in story.lines:
                console.print(f"  {escape(line)}")
    agent = report.agent_id
    console.print()
    console.print(f"[bold green]Demo agent[/] {escape(report.agent_name)}: [bold]{agent}[/]")
    console.print("Next:")
    for command, why in _next_steps(agent, guide):
        console.print(f"  [bold]{escape(command)}[/]  [dim]# {escape(why)}[/]", soft_wrap=True)


def cli_command() -> str:
    """How to run this CLI again from here, for the "Next" lines: its script relative to the
    working directory when it lies under it (``.venv/bin/credence``, as README.md writes it,
    from ``make demo`` or ``.venv/bin/credence demo``), else ``credence``."""
    script = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if script is None or script.name != "credence":
        return "credence"
    try:
        return str(script.absolute().relative_to(Path.cwd().absolute()))
    except ValueError:
        return "credence"


def _next_steps(agent_id: str, guide: str) -> list[tuple[str, str]]:
    cli = cli_command()
    return [
        (f":guide {guide}", f"in Neo4j Browser ({browser_url()})"),
        (f"export CREDENCE_AGENT_ID={agent_id}", "the commands below then read the demo agent"),
        (f"{cli} analytics longest_lineages", "the belief it revised, first to current"),
        (f"{cli} analytics tool_outcomes_over_time", "how it earned autonomy with the ledger"),
        (f"{cli} revisions", "what changed and why"),
        (f"{cli} chat", "talk to it: " + repr(script.ADJUSTMENT_QUESTION[1])),
    ]
