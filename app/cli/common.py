"""Shared pieces of the ``credence`` commands: the consoles, the agent option, bad input as a
usage error, files read and written, running a graph call, meters, progress bars and times on
screen."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer
from pydantic import BaseModel, ValidationError
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from app.common import control_character_problem
from app.errors import CredenceError, location_text

if TYPE_CHECKING:
    # Imported where they are used: a command that needs neither the graph nor the runtime (or
    # `credence --help`) starts without them (bench/README.md "CLI start").
    from app.beliefs.models import Dissatisfaction
    from app.graph.client import GraphClient
    from app.runtime import Runtime

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)


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


def validated(model: type[M], fields: Mapping[str, object]) -> M:
    """``model`` built from what the command was given; a value it refuses is a usage error
    (exit 2) naming each field and why, never a traceback. Text with a control character is
    refused as the API refuses it (app/api/control_characters.py)."""
    for name, problem in _control_characters(fields, ()):
        raise typer.BadParameter(_problem(name, problem))
    try:
        return model.model_validate(fields)
    except ValidationError as error:
        problems = "; ".join(_problem(item["loc"], item["msg"]) for item in error.errors())
        raise typer.BadParameter(problems) from None


def _control_characters(
    value: object, where: tuple[int | str, ...]
) -> list[tuple[tuple[int | str, ...], str]]:
    """Each text in ``value`` (nested mappings and lists included) that holds a control
    character, with where it is and why."""
    if isinstance(value, str):
        problem = control_character_problem(value)
        return [] if problem is None else [(where, problem)]
    parts: list[tuple[int | str, object]]
    if isinstance(value, Mapping):
        parts = list(value.items())
    elif isinstance(value, list | tuple):
        parts = list(enumerate(value))
    else:
        return []
    return [found for key, item in parts for found in _control_characters(item, (*where, key))]


def _problem(loc: tuple[int | str, ...], message: str) -> str:
    """One refused value, ``field.path: why`` (just why for the whole input)."""
    reason = message.removeprefix("Value error, ")
    return f"{'.'.join(map(str, loc))}: {reason}" if loc else reason


def print_error_entries(error: CredenceError) -> None:
    """Each problem an error lists (``details["errors"]``, docs/api.md "Error entries") on its
    own line: where (``pack.yaml: beliefs[0].key``, ``corpus.jsonl line 3: title``), then why."""
    for entry in error.details.get("errors") or []:
        where = location_text(entry["location"])
        shown = f"[red]{escape(where)}[/]: " if where else ""
        err_console.print(f"{shown}{escape(entry['message'])}")


def read_utf8(path: Path) -> str:
    """The text of a file the command was given; one that is missing, a folder or not UTF-8 is
    an error naming it (exit 2)."""
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        err_console.print(
            f"[bold red]error[/]: {escape(str(path))}: cannot read it as UTF-8 text: "
            f"{escape(_reason(error))}"
        )
        raise typer.Exit(code=2) from error


def write_utf8(path: Path, text: str) -> None:
    """Writes a file the command was asked for; one that cannot be written (no such folder, no
    permission) is an error naming it (exit 2)."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        err_console.print(
            f"[bold red]error[/]: {escape(str(path))}: cannot write it: {escape(_reason(error))}"
        )
        raise typer.Exit(code=2) from error


def _reason(error: Exception) -> str:
    """Why a file could not be used, without the path the message already names."""
    return (error.strerror if isinstance(error, OSError) else None) or str(error)


def run_with_graph(work: Callable[[GraphClient], Awaitable[T]]) -> T:
    """Runs ``work`` with a graph client; a Credence error is printed and exits 1."""

    from app.clock import clock_starting_at
    from app.config import get_settings
    from app.graph.client import GraphClient

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
        err_console.print(f"[bold red]error[/] ({error.code}): {escape(error.message)}")
        raise typer.Exit(code=1) from error


def run_with_runtime(work: Callable[[Runtime], Awaitable[T]]) -> T:
    """Runs ``work`` with the process's runtime (app/runtime.py: graph client, embedder,
    reasoner and the services over them); a Credence error is printed and exits 1."""

    from app.config import get_settings
    from app.runtime import Runtime

    async def run() -> T:
        runtime = Runtime.open(get_settings())
        try:
            return await work(runtime)
        finally:
            await runtime.aclose()

    try:
        return asyncio.run(run())
    except CredenceError as error:
        err_console.print(f"[bold red]error[/] ({error.code}): {escape(error.message)}")
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
