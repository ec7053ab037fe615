"""The ``credence`` command (typer + rich)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Annotated, TypeVar

import typer
from rich.table import Table

from app import cli_beliefs, cli_chat, cli_knowledge, cli_memory
from app.config import Settings, get_settings
from app.errors import CredenceError
from app.graph.client import GraphClient
from app.graph.migrations import MigrationRunner

T = TypeVar("T")

app = typer.Typer(
    help="Credence: an agent's beliefs, tensions and revisions in Neo4j.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
db_app = typer.Typer(help="Schema migrations.", no_args_is_help=True)
neo4j_app = typer.Typer(
    help="The local Neo4j server (tools/neo4j/neo4j-local).", no_args_is_help=True
)
app.add_typer(db_app, name="db")
app.add_typer(neo4j_app, name="neo4j")
app.add_typer(cli_beliefs.agents_app, name="agents")
app.add_typer(cli_beliefs.beliefs_app, name="beliefs")
app.add_typer(cli_memory.people_app, name="people")
app.add_typer(cli_memory.frames_app, name="frames")
app.add_typer(cli_memory.memory_app, name="memory")
app.add_typer(cli_knowledge.packs_app, name="packs")
app.add_typer(cli_knowledge.episodes_app, name="episodes")
app.add_typer(cli_knowledge.embed_app, name="embed")
app.command("birth")(cli_knowledge.birth_command)
cli_beliefs.agents_app.command("default")(cli_knowledge.agents_default)
app.command("context")(cli_knowledge.context_command)
app.command("tension")(cli_beliefs.tension)
app.command("revisions")(cli_beliefs.revisions)
app.command("chat")(cli_chat.chat_command)

console = cli_beliefs.console
err_console = cli_beliefs.err_console
_with_graph = cli_beliefs.run_with_graph


def _runner(graph: GraphClient, settings: Settings) -> MigrationRunner:
    return MigrationRunner.with_settings(graph, settings.migrations)


@db_app.command("migrate")
def db_migrate() -> None:
    """Apply pending migrations from schema/ (idempotent)."""
    settings = get_settings()
    report = _with_graph(lambda graph: _runner(graph, settings).migrate())
    for file in report.applied:
        console.print(f"[green]applied[/] {file}")
    console.print(
        f"{len(report.applied)} applied now, {len(report.already_applied)} already applied"
    )


@db_app.command("status")
def db_status() -> None:
    """List every migration with its state (applied / pending / changed / missing)."""
    settings = get_settings()
    states = _with_graph(lambda graph: _runner(graph, settings).status())
    table = Table(title=f"migrations on {settings.neo4j_uri}")
    table.add_column("file", no_wrap=True)
    table.add_column("state", no_wrap=True, min_width=7)
    table.add_column("applied (UTC)", no_wrap=True)
    table.add_column("sha256", no_wrap=True)
    colours = {"applied": "green", "pending": "yellow", "changed": "red", "missing": "red"}
    for state in states:
        table.add_row(
            state.file,
            f"[{colours[state.state]}]{state.state}[/]",
            state.applied_at.strftime("%Y-%m-%d %H:%M") if state.applied_at else "",
            state.checksum[:8],
        )
    console.print(table)
    if any(state.state in ("changed", "missing") for state in states):
        raise typer.Exit(code=1)


@app.command("serve")
def serve(
    host: Annotated[
        str | None, typer.Option(help="Bind address (default CREDENCE_API_HOST)")
    ] = None,
    port: Annotated[int | None, typer.Option(help="Port (default CREDENCE_API_PORT)")] = None,
) -> None:
    """Serve the REST API (OpenAPI at /docs)."""
    import uvicorn

    from app.api.app import create_app
    from app.api.security import effective_bind_host

    settings = get_settings()
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    bind_host, warning = effective_bind_host(settings, host or settings.api_host)
    if warning:
        logging.getLogger("app.api").warning(warning)
    bind_port = port or settings.api_port
    console.print(f"Credence API: http://{bind_host}:{bind_port}/  (OpenAPI: /docs)")
    uvicorn.run(
        create_app(settings), host=bind_host, port=bind_port, log_level=settings.log_level.lower()
    )


def _launcher() -> Path:
    override = os.environ.get("CREDENCE_NEO4J_LAUNCHER")
    path = (
        Path(override)
        if override
        else (Path(__file__).resolve().parent.parent / "tools" / "neo4j" / "neo4j-local")
    )
    if not path.is_file():
        err_console.print(
            f"[bold red]error[/]: the Neo4j launcher is not at {path}; "
            "`credence neo4j` works from a Credence checkout (or set "
            "CREDENCE_NEO4J_LAUNCHER)"
        )
        raise typer.Exit(code=2)
    return path


def _delegate(command: str) -> None:
    completed = subprocess.run(["bash", str(_launcher()), command], check=False)
    raise typer.Exit(code=completed.returncode)


@neo4j_app.command("start")
def neo4j_start() -> None:
    """Start the local Neo4j (no-op when it runs)."""
    _delegate("start")


@neo4j_app.command("stop")
def neo4j_stop() -> None:
    """Stop the local Neo4j."""
    _delegate("stop")


@neo4j_app.command("status")
def neo4j_status() -> None:
    """Say whether the local Neo4j runs (exit 0) or not (exit 3), with version and ports."""
    _delegate("status")


@neo4j_app.command("wipe")
def neo4j_wipe() -> None:
    """Stop the local Neo4j and delete its data (the jar cache is kept)."""
    _delegate("wipe")


# --- analytics (cypher/analytics/) -----------------------------------------------------------
# One self-contained block (imports included, kept local) so other commands can be added to this
# file without touching it.


def _analytics_cell(value: object) -> str:
    import json
    import re
    from datetime import datetime

    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.3f}"
    if isinstance(value, str) and re.match(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}", value):
        try:  # analytics rows carry times as ISO 8601 text; seconds are enough on screen
            return datetime.fromisoformat(value).strftime("%Y-%m-%d %H:%M:%S")
        except ValueError:
            return value
    if isinstance(value, list):
        return ", ".join(_analytics_cell(item) for item in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _analytics_params(pairs: list[str]) -> dict[str, str]:
    params: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            err_console.print(f"[bold red]error[/]: --param expects key=value, got {pair!r}")
            raise typer.Exit(code=2)
        params[key.strip()] = value
    return params


def _print_analytics_list() -> None:
    import json

    from app.beliefs.analytics import list_analytics

    table = Table(title="analytics (cypher/analytics/)")
    table.add_column("name", no_wrap=True)
    table.add_column("what it shows")
    table.add_column("parameters (defaults)")
    for info in list_analytics().data:
        params = ", ".join(
            f"{p.name}={json.dumps(p.default)}" for p in info.params if p.name != "agent_id"
        )
        table.add_row(info.name, info.description, params)
    console.print(table)


@app.command("analytics")
def analytics_command(
    name: Annotated[str, typer.Argument(help="An analytics query (see `credence analytics list`)")],
    agent: Annotated[
        str | None,
        typer.Option("--agent", envvar="CREDENCE_AGENT_ID", help="Agent id (or CREDENCE_AGENT_ID)"),
    ] = None,
    param: Annotated[
        list[str] | None,
        typer.Option("--param", "-p", help="A query parameter as key=value (repeatable)"),
    ] = None,
) -> None:
    """Run an analytics query of cypher/analytics/ for an agent (`list` lists them)."""
    import json

    from app.beliefs.analytics import run_analytics

    if name == "list":
        _print_analytics_list()
        return
    if not agent:
        err_console.print("[bold red]error[/]: give the agent with --agent or CREDENCE_AGENT_ID")
        raise typer.Exit(code=2)
    params = _analytics_params(param or [])
    agent_id = agent
    result = _with_graph(lambda graph: run_analytics(graph, agent_id, name, params))
    table = Table(title=f"{result.name}: {result.description}", title_justify="left")
    for column in result.columns:
        table.add_column(column, overflow="fold")
    for row in result.rows:
        table.add_row(*(_analytics_cell(row.get(column)) for column in result.columns))
    console.print(table)
    shown = ", ".join(f"{k}={json.dumps(v)}" for k, v in result.params.items())
    console.print(f"{result.count} row(s); {shown}")


def main() -> None:
    try:
        app()
    except CredenceError as error:  # pragma: no cover - commands translate their own errors
        err_console.print(f"[bold red]error[/] ({error.code}): {error.message}")
        sys.exit(1)
