"""``credence frames``: the frames an agent thinks in."""

from __future__ import annotations

import typer
from rich.markup import escape
from rich.table import Table

from app.cli.common import AgentOption, agent_id_of, console, run_with_graph
from app.memory import frames

frames_app = typer.Typer(help="The frames an agent thinks in.", no_args_is_help=True)


def _frames_table(installed: list[frames.Frame]) -> Table:
    table = Table(title=f"{len(installed)} frames")
    for column in ("key", "name", "stakes", "category", "budget", "patterns"):
        table.add_column(column, overflow="fold")
    for frame in installed:
        table.add_row(
            escape(frame.key),
            escape(frame.name),
            frame.default_stakes,
            frame.default_category,
            str(frame.context_budget),
            escape(", ".join(frame.activation_patterns)),
        )
    return table


@frames_app.command("list")
def frames_list(agent: AgentOption = None) -> None:
    """List the agent's installed frames."""
    agent_id = agent_id_of(agent)
    page = run_with_graph(lambda graph: frames.list_frames(graph, agent_id))
    console.print(_frames_table(page.data))
    if not page.data:
        console.print("no frames installed: `credence frames install` adds seeds/frames.yaml")


@frames_app.command("install")
def frames_install(agent: AgentOption = None) -> None:
    """Install the shipped frames (seeds/frames.yaml) into the agent (idempotent)."""
    agent_id = agent_id_of(agent)
    installed = run_with_graph(lambda graph: frames.install_frames(graph, agent_id))
    console.print(_frames_table(installed))


@frames_app.command("select")
def frames_select(text: str, agent: AgentOption = None) -> None:
    """Which frame TEXT would select, with every frame's matches."""
    agent_id = agent_id_of(agent)
    choice = run_with_graph(lambda graph: frames.choose_frame(graph, agent_id, text))
    selection = choice.selection
    reason = (
        f"{selection.matches} match(es): {escape(', '.join(selection.patterns))}"
        if selection.matched
        else "no pattern matched (fallback)"
    )
    console.print(f"selected [bold]{escape(selection.key)}[/] — {reason}")
    if choice.frame is not None:
        console.print(
            f"stakes {choice.frame.default_stakes}, category {choice.frame.default_category}, "
            f"context budget {choice.frame.context_budget}"
        )
    if choice.from_defaults:
        console.print("(a shipped default frame: the agent has none of this key installed)")
    table = Table()
    for column in ("frame", "matches", "patterns"):
        table.add_column(column, overflow="fold")
    for score in selection.scores:
        table.add_row(escape(score.key), str(score.matches), escape(", ".join(score.patterns)))
    console.print(table)
