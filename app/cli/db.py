"""``credence db``: schema migrations."""

from __future__ import annotations

import typer
from rich.markup import escape
from rich.table import Table

from app.cli.common import console, err_console, run_with_graph
from app.config import Settings, get_settings
from app.embeddings.embedder import model_id
from app.embeddings.reindex import count_by_model, mismatch_message
from app.graph.client import GraphClient
from app.graph.migrations import MigrationRunner

db_app = typer.Typer(help="Schema migrations.", no_args_is_help=True)


def _runner(graph: GraphClient, settings: Settings) -> MigrationRunner:
    return MigrationRunner.with_settings(graph, settings.migrations)


@db_app.command("migrate")
def db_migrate() -> None:
    """Apply pending migrations from schema/ (idempotent)."""
    settings = get_settings()
    report = run_with_graph(lambda graph: _runner(graph, settings).migrate())
    for file in report.applied:
        console.print(f"[green]applied[/] {file}")
    console.print(
        f"{len(report.applied)} applied now, {len(report.already_applied)} already applied"
    )
    # Stored vectors of another model than the configured one (after V0029 on a database of
    # an older Credence, or a change of model): say that a reindex is needed.
    counts = run_with_graph(count_by_model)
    message = mismatch_message(counts, model_id(settings.embeddings))
    if message is not None:
        err_console.print(f"[yellow]reindex needed:[/] {escape(message)}")


@db_app.command("status")
def db_status() -> None:
    """List every migration with its state (applied / pending / changed / missing)."""
    settings = get_settings()
    states = run_with_graph(lambda graph: _runner(graph, settings).status())
    table = Table(title=f"migrations on {escape(settings.neo4j_uri)}")
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
