"""``credence episodes``: importing conversation logs into episodic memory, and linking stored
episodes to what they are about."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError
from rich.markup import escape

from app.cli.common import (
    AgentOption,
    agent_id_of,
    console,
    err_console,
    progress_bar,
    read_utf8,
    run_with_graph,
)
from app.config import get_settings
from app.embeddings.embedder import shared_embedder
from app.errors import InvalidInput
from app.graph.client import GraphClient
from app.memory import episodes
from app.memory.episode_subjects import fill_topic_surfaces, link_stored_episodes

episodes_app = typer.Typer(help="Episodic memory.", no_args_is_help=True)


@episodes_app.command("import")
def episodes_import(
    path: Annotated[Path, typer.Argument(help="JSON Lines: one episode object per line")],
    agent: AgentOption = None,
    batch_size: Annotated[int, typer.Option(min=1, max=episodes.MAX_BATCH)] = 500,
    end_sessions: Annotated[bool, typer.Option(help="End the sessions (peak-end)")] = True,
) -> None:
    """Import a conversation log (idempotent on external_id), with a progress bar.

    Each line: {"external_id", "speaker", "text", "occurred_at", "session", ...} as in
    POST /v1/agents/{id}/episodes. The whole file is validated first: nothing is written if a
    line is bad. It goes in batches of at most --batch-size episodes and as many characters as
    one import takes (episodes.MAX_BATCH_CHARS)."""
    agent_id = agent_id_of(agent)
    items, lines = _read_log(path)
    settings = get_settings()
    embedder = shared_embedder(settings.embeddings)

    async def work(graph: GraphClient) -> tuple[int, int]:
        created = existing = 0
        await _check_beliefs(graph, agent_id, path, items, lines)
        with progress_bar() as progress:
            task = progress.add_task("importing episodes", total=len(items))
            for chunk in episodes.import_batches(items, batch_size):
                report = await episodes.import_episodes(
                    graph,
                    embedder,
                    settings.retrieval,
                    agent_id,
                    episodes.EpisodeBatch(episodes=chunk, end_sessions=False),
                )
                created += report.created
                existing += report.existing
                progress.advance(task, len(chunk))
        if end_sessions:
            keys = sorted({item.session for item in items if item.session})
            if keys:
                await episodes.end_sessions_with_episodes(graph, settings.retrieval, agent_id, keys)
        return created, existing

    created, existing = run_with_graph(work)
    console.print(f"{created} episodes created, {existing} already there")


def _read_log(path: Path) -> tuple[list[episodes.EpisodeIn], list[int]]:
    """The episodes of a JSON Lines log and their line numbers, every line validated (an
    external id repeated in the file included, as one import refuses it) before anything is
    written; each bad line is printed with its number and the command exits 1."""
    items: list[episodes.EpisodeIn] = []
    lines: list[int] = []
    problems: list[str] = []
    first_line: dict[str, int] = {}
    for number, line in enumerate(read_utf8(path).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = episodes.EpisodeIn.model_validate_json(line)
        except ValidationError as error:
            for entry in error.errors():
                field = ".".join(map(str, entry["loc"])) or "(line)"
                problems.append(f"{path}:{number}: {field}: {entry['msg']}")
            continue
        if item.external_id is not None:
            seen = first_line.setdefault(item.external_id, number)
            if seen != number:
                problems.append(
                    f"{path}:{number}: external_id: {item.external_id!r} repeats line {seen}"
                )
                continue
        items.append(item)
        lines.append(number)
    _refuse(problems)
    return items, lines


def _refuse(problems: list[str]) -> None:
    """Prints each problem of the log and exits 1; nothing when there is none."""
    if problems:
        for problem in problems:
            err_console.print(f"[red]{escape(problem)}[/]")
        raise typer.Exit(code=1)


async def _check_beliefs(
    graph: GraphClient,
    agent_id: str,
    path: Path,
    items: list[episodes.EpisodeIn],
    lines: list[int],
) -> None:
    """Refuses the log, before its first batch, when a line is about a belief the agent
    does not have (each such line and belief printed; exit 1)."""
    try:
        await episodes.check_beliefs(graph, agent_id, items)
    except InvalidInput as error:
        problems = []
        for entry in error.details.get("errors") or []:
            _, _, index, field, position = entry["location"]
            problems.append(f"{path}:{lines[index]}: {field}[{position}]: {entry['message']}")
        _refuse(problems)


@episodes_app.command("link-subjects")
def episodes_link_subjects(agent: AgentOption = None) -> None:
    """Link the agent's stored episodes that mention no subject yet (written before episodes
    were linked on write) to their speaker, the names they say and their topics (MENTIONS edges
    the episode search follows), and give topic edges linked before word forms were kept their
    episode's form of the word. Idempotent: a second run finds nothing left to do."""
    agent_id = agent_id_of(agent)

    async def work(graph: GraphClient) -> tuple[int, int]:
        return await link_stored_episodes(graph, agent_id), await fill_topic_surfaces(
            graph, agent_id
        )

    linked, filled = run_with_graph(work)
    console.print(f"{linked} episodes linked to their subjects")
    console.print(f"{filled} topic mentions given their word's form")
