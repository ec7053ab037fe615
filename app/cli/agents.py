"""``credence agents``: create, show, and the default agent."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from app.agents.models import AgentCreate
from app.agents.store import create_agent, delete_agent, get_agent, list_agents
from app.cli.common import (
    AgentOption,
    agent_id_of,
    console,
    err_console,
    run_with_graph,
    validated,
    when,
)
from app.config import get_settings

if TYPE_CHECKING:
    from app.graph.client import GraphClient

agents_app = typer.Typer(help="Agents.", no_args_is_help=True)

# The bounds of an agent's name, as GET /v1/agents?name= takes it (app/api/routes/agents.py).
NAME_MAX = 200


@agents_app.command("create")
def agents_create(name: str) -> None:
    """Create an agent and print its id."""
    data = validated(AgentCreate, {"name": name})
    agent = run_with_graph(lambda graph: create_agent(graph, data))
    console.print(f"created agent [bold]{escape(agent.name)}[/]: {agent.id}")
    console.print(f"use it with: export CREDENCE_AGENT_ID={agent.id}")


@agents_app.command("list")
def agents_list(
    limit: Annotated[int, typer.Option(min=1, max=500, help="Agents per page")] = 50,
    skip: Annotated[int, typer.Option(min=0, help="Agents to skip (newest first)")] = 0,
    name: Annotated[str | None, typer.Option(help="Only the agents with exactly this name")] = None,
) -> None:
    """List agents, newest first, with their active beliefs and episodes (ids in full)."""
    if name is not None and not 1 <= len(name) <= NAME_MAX:
        raise typer.BadParameter(f"give 1 to {NAME_MAX} characters", param_hint="'--name'")
    page = run_with_graph(lambda graph: list_agents(graph, None, skip, limit, name=name))
    named = escape(f" named {name!r}") if name is not None else ""
    table = Table(title=f"{page.count} agents{named}" + (f" (from {skip + 1})" if skip else ""))
    # An id is what a reader copies: never cut, whatever the terminal's width.
    table.add_column("id", no_wrap=True, overflow="fold")
    for column in ("name", "born", "source", "beliefs", "episodes"):
        table.add_column(
            column,
            justify="right" if column in ("beliefs", "episodes") else "left",
            overflow="fold",
        )
    for agent in page.data:
        table.add_row(
            agent.id,
            escape(agent.name),
            when(agent.created_at),
            agent.birth_source or "",
            str(agent.beliefs),
            str(agent.episodes),
        )
    console.print(table)


@agents_app.command("delete")
def agents_delete(
    agent_id: str,
    force: Annotated[
        bool, typer.Option("--force", help="Also delete the default agent (CREDENCE_DEFAULT_AGENT)")
    ] = False,
) -> None:
    """Delete an agent and every node of its mind."""
    settings = get_settings()
    deletion = run_with_graph(
        lambda graph: delete_agent(
            graph, agent_id, default_agent_name=settings.default_agent, force=force
        )
    )
    console.print(
        f"deleted agent {deletion.agent_id}: {deletion.nodes_deleted} nodes "
        f"in {deletion.batches} batches"
    )


@agents_app.command("show")
def agents_show(agent: AgentOption = None) -> None:
    """Show an agent and its counts."""
    found = run_with_graph(lambda graph: get_agent(graph, agent_id_of(agent)))
    console.print(
        f"[bold]{escape(found.name)}[/] {found.id}  born {found.created_at:%Y-%m-%d %H:%M} "
        f"({found.birth_source}); {found.beliefs} active beliefs, "
        f"{found.revisions} revisions"
    )


@agents_app.command("default")
def agents_default(
    id_only: Annotated[
        bool,
        typer.Option("--id", help="Print only the id (for ID=$(credence agents default --id))"),
    ] = False,
) -> None:
    """The default agent (CREDENCE_DEFAULT_AGENT), born with every shipped pack if missing."""
    # Birth (packs, enrichment, the embedder) is imported by the one command that births.
    from app.agents.birth import ensure_default_agent
    from app.embeddings.embedder import shared_embedder

    settings = get_settings()
    if not settings.default_agent:
        err_console.print("[red]no default agent[/]: CREDENCE_DEFAULT_AGENT is empty")
        raise typer.Exit(code=2)

    async def work(graph: GraphClient) -> tuple[Any, bool]:
        return await ensure_default_agent(
            graph,
            shared_embedder(settings.embeddings),
            settings.mechanics,
            settings.default_agent,
            settings.default_agent_industry,
            memory_mechanics=settings.memory,
        )

    agent, born = run_with_graph(work)
    if id_only:
        typer.echo(agent.id)  # the one line a shell captures
        return
    console.print(
        f"{'born' if born else 'found'} default agent [bold]{escape(agent.name)}[/]: {agent.id} "
        f"({agent.beliefs} active beliefs)"
    )
    console.print(f"use it with: export CREDENCE_AGENT_ID={agent.id}")
