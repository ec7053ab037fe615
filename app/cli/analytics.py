"""``credence analytics``: the Cypher analytics of cypher/beliefs/analytics/ as tables."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from app.cli.common import (
    console,
    err_console,
    run_with_graph,
)


def _analytics_cell(value: object) -> str:
    import re

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
            err_console.print(
                f"[bold red]error[/]: --param expects key=value, got {escape(repr(pair))}"
            )
            raise typer.Exit(code=2)
        params[key.strip()] = value
    return params


def _print_analytics_list() -> None:

    from app.beliefs.analytics.runner import list_analytics

    table = Table(title="analytics (cypher/beliefs/analytics/)")
    table.add_column("name", no_wrap=True)
    table.add_column("what it shows")
    table.add_column("parameters (defaults)")
    for info in list_analytics().data:
        params = ", ".join(
            f"{p.name}={json.dumps(p.default)}" for p in info.params if p.name != "agent_id"
        )
        table.add_row(info.name, escape(info.description), escape(params))
    console.print(table)


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
    """Run an analytics query of cypher/beliefs/analytics/ for an agent (`list` lists them)."""

    from app.beliefs.analytics.runner import run_analytics

    if name == "list":
        _print_analytics_list()
        return
    if not agent:
        err_console.print("[bold red]error[/]: give the agent with --agent or CREDENCE_AGENT_ID")
        raise typer.Exit(code=2)
    params = _analytics_params(param or [])
    agent_id = agent
    result = run_with_graph(lambda graph: run_analytics(graph, agent_id, name, params))
    table = Table(title=f"{result.name}: {result.description}", title_justify="left")
    for column in result.columns:
        table.add_column(column, overflow="fold")
    for row in result.rows:
        table.add_row(*(escape(_analytics_cell(row.get(column))) for column in result.columns))
    console.print(table)
    shown = ", ".join(f"{k}={json.dumps(v)}" for k, v in result.params.items())
    console.print(f"{result.count} row(s); {escape(shown)}")
