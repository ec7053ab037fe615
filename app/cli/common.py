"""Shared pieces of the ``credence`` commands: the consoles, the agent option, running a graph
call, meters, progress bars and times on screen."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Annotated, TypeVar

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from app.beliefs.models import Dissatisfaction
from app.clock import clock_starting_at
from app.config import get_settings
from app.errors import CredenceError
from app.graph.client import GraphClient
from app.runtime import Runtime

T = TypeVar("T")


console = Console()


err_console = Console(stderr=True)


AgentOption = Annotated[
    str | None, typer.Option("--agent", "-a", help="Agent id (default: $CREDENCE_AGENT_ID)")
]


BAND_COLOURS = {"low": "green", "medium": "yellow", "high": "red"}


def agent_id_of(option: str | None) -> str:
    agent_id = option or os.environ.get("CREDENCE_AGENT_ID")
    if not agent_id:
        err_console.print(
            "[bold red]error[/]: name the agent with --agent ID or set "
            "CREDENCE_AGENT_ID (create one with `credence agents create NAME`)"
        )
        raise typer.Exit(code=2)
    return agent_id


def run_with_graph(work: Callable[[GraphClient], Awaitable[T]]) -> T:
    """Runs ``work`` with a graph client; a Credence error is printed and exits 1."""

    async def run() -> T:
        settings = get_settings()
        graph = GraphClient.from_settings(
            settings.neo4j, clock=clock_starting_at(settings.clock_start)
        )
        try:
            return await work(graph)
        finally:
            await graph.close()

    try:
        return asyncio.run(run())
    except CredenceError as error:
        err_console.print(f"[bold red]error[/] ({error.code}): {error.message}")
        raise typer.Exit(code=1) from error


def run_with_runtime(work: Callable[[Runtime], Awaitable[T]]) -> T:
    """Runs ``work`` with the process's runtime (app/runtime.py: graph client, embedder,
    reasoner and the services over them); a Credence error is printed and exits 1."""

    async def run() -> T:
        runtime = Runtime.open(get_settings())
        try:
            return await work(runtime)
        finally:
            await runtime.aclose()

    try:
        return asyncio.run(run())
    except CredenceError as error:
        err_console.print(f"[bold red]error[/] ({error.code}): {error.message}")
        raise typer.Exit(code=1) from error


def bar(value: float, width: int = 20) -> str:
    """A bar of ``width`` cells for a value in [0, 1]."""
    filled = round(max(0.0, min(1.0, value)) * width)
    return "█" * filled + "·" * (width - filled)


def meter(dissatisfaction: Dissatisfaction) -> str:
    colour = BAND_COLOURS[dissatisfaction.band]
    return (
        f"dissatisfaction [{colour}]{bar(dissatisfaction.value, 30)} "
        f"{dissatisfaction.value:.3f} ({dissatisfaction.band})[/]"
    )


def progress_bar() -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
    )


def when(value: object) -> str:
    return f"{value:%Y-%m-%d %H:%M}" if isinstance(value, datetime) else ""
