"""``credence connections``: MCP servers connected to an agent, and their tools.

Secret values given here (``--env NAME=VALUE``, ``--header NAME=VALUE``) start the server for
this command only: the graph keeps their names, and the API process takes their values from its
own environment (a variable of the same name) or from the connections file
(``CREDENCE_TOOLS__CONNECTIONS_FILE``).
"""

from __future__ import annotations

from typing import Annotated

import typer
from pydantic import BaseModel
from rich.markup import escape
from rich.table import Table

from app.beliefs.models import ContextName
from app.cli.common import AgentOption, agent_id_of, console, run_with_graph, validated
from app.clock import clock_starting_at
from app.config import get_settings
from app.embeddings.embedder import shared_embedder
from app.graph.client import GraphClient
from app.tools import connections
from app.tools.clients import McpClients
from app.tools.models import ConnectionCreate, ConnectionPublic, ToolPublic

connections_app = typer.Typer(help="MCP servers connected to an agent.", no_args_is_help=True)


def _pairs(values: list[str], what: str) -> dict[str, str]:
    """NAME or NAME=VALUE options; a bare NAME takes its value from this environment."""
    pairs: dict[str, str] = {}
    for value in values:
        name, _, given = value.partition("=")
        if not name:
            raise typer.BadParameter(f"{what} {value!r}: NAME or NAME=VALUE")
        pairs[name] = given
    return pairs


def _tools_table(title: str, tools: list[ToolPublic], *, in_context: bool = False) -> Table:
    """The tools; ``in_context``: with the strength a call routes on in the listing's context
    and the context whose strength applied (``default``: none held one)."""
    table = Table(title=title)
    columns = ["tool", "kind", "trust", "in context", "applied", "ok/failed", "description"]
    for column in columns if in_context else [c for c in columns if c not in _CONTEXT_COLUMNS]:
        table.add_column(column, overflow="fold")
    for tool in tools:
        kind = "read-only" if tool.read_only else ("destructive" if tool.destructive else "write")
        kind += ", search source" if tool.search_source else ""
        trust = f"{tool.belief_strength:.2f}" if tool.belief_strength is not None else "-"
        routed = (
            [_strength(tool.strength_in_context), escape(tool.context_applied or "default")]
            if in_context
            else []
        )
        table.add_row(
            escape(tool.qualified_name),
            kind,
            trust,
            *routed,
            f"{tool.successes}/{tool.failures}",
            escape(tool.description[:120]),
        )
    return table


_CONTEXT_COLUMNS = ("in context", "applied")


def _strength(value: float | None) -> str:
    return f"{value:.2f}" if value is not None else "-"


@connections_app.command("add")
def connections_add(
    name: Annotated[str, typer.Argument(help="How the agent names it (tools are NAME.tool)")],
    agent: AgentOption = None,
    command: Annotated[str | None, typer.Option(help="stdio: the server's command")] = None,
    arg: Annotated[list[str] | None, typer.Option(help="stdio: an argument (repeat)")] = None,
    env: Annotated[
        list[str] | None, typer.Option(help="stdio: NAME[=VALUE] of its environment (repeat)")
    ] = None,
    cwd: Annotated[str | None, typer.Option(help="stdio: its working directory")] = None,
    url: Annotated[str | None, typer.Option(help="streamable HTTP: the server's URL")] = None,
    header: Annotated[
        list[str] | None, typer.Option(help="HTTP: NAME[=VALUE] of a header (repeat)")
    ] = None,
    search_tool: Annotated[
        list[str] | None,
        typer.Option(help="a tool research may search (read-only; repeat)"),
    ] = None,
) -> None:
    """Connect an MCP server: it is started, and its tools become the agent's."""
    agent_id = agent_id_of(agent)
    settings = get_settings()
    if (command is None) == (url is None):
        both = ", not both" if command is not None else ""
        raise typer.BadParameter(f"give --command (stdio) or --url (HTTP){both}")
    data = validated(
        ConnectionCreate,
        {
            "name": name,
            "transport": "http" if url is not None else "stdio",
            "command": command,
            "args": arg or [],
            "env": {k: v for k, v in _pairs(env or [], "--env").items() if v},
            "cwd": cwd,
            "url": url,
            "headers": {k: v for k, v in _pairs(header or [], "--header").items() if v},
            "search_tools": search_tool or [],
        },
    )
    # Names given without a value are kept as names (their values come from the environment).
    bare_env = [k for k, v in _pairs(env or [], "--env").items() if not v]
    bare_headers = [k for k, v in _pairs(header or [], "--header").items() if not v]

    async def work(graph: GraphClient) -> tuple[ConnectionPublic, list[ToolPublic]]:
        clients = McpClients(settings.tools)
        try:
            return await connections.add_connection(
                graph,
                clients,
                shared_embedder(settings.embeddings),
                settings.mechanics,
                settings.tools,
                agent_id,
                data,
                now=clock_starting_at(settings.clock_start).now(),
                extra_env_names=bare_env,
                extra_header_names=bare_headers,
            )
        finally:
            await clients.aclose()

    connection, tools = run_with_graph(work)
    console.print(
        f"connected [bold]{escape(connection.name)}[/] ({connection.transport}): {len(tools)} tools"
    )
    console.print(_tools_table(f"tools of {escape(connection.name)}", tools))


@connections_app.command("list")
def connections_list(agent: AgentOption = None) -> None:
    """The agent's connections (secret names, never values)."""
    agent_id = agent_id_of(agent)
    listed = run_with_graph(lambda graph: connections.list_connections(graph, agent_id))
    table = Table(title=f"connections ({listed.count})")
    for column in ("name", "transport", "server", "secrets", "tools"):
        table.add_column(column, overflow="fold")
    for item in listed.data:
        server = item.url or " ".join([item.command or "", *item.args])
        secrets = ", ".join(item.env_names + item.header_names)
        table.add_row(
            escape(item.name), item.transport, escape(server), escape(secrets), str(item.tools)
        )
    console.print(table)


class _ToolsContext(BaseModel):
    """What ``--context`` may be: a context name, as ``?context=`` of the REST listing."""

    context: ContextName | None = None


@connections_app.command("tools")
def connections_tools(
    name: Annotated[str, typer.Argument(help="The connection")],
    agent: AgentOption = None,
    context: Annotated[
        str | None,
        typer.Option(
            help="The context to read each tool's strength in, as a call made in it routes on "
            "it (acme/month_end backs off to month_end, else the default strength). Default: "
            "the context a call without one takes now (the day's temporal context, or none)."
        ),
    ] = None,
) -> None:
    """The connection's tools, with the agent's trust in each (its default strength and the
    strength a call routes on in a context) and how their calls went."""
    agent_id = agent_id_of(agent)
    asked = validated(_ToolsContext, {"context": context}).context
    listed = run_with_graph(lambda graph: connections.list_tools(graph, agent_id, name, asked))
    read_in = listed.data[0].context if listed.data else asked
    if read_in is None:
        console.print("strength in context: no context (the default strength)")
    else:
        how = "asked for" if asked else "the one a call without a context takes now"
        console.print(f"strength in context [bold]{escape(read_in)}[/] ({how})")
    title = f"tools of {escape(name)} ({listed.count})"
    console.print(_tools_table(title, listed.data, in_context=True))


@connections_app.command("search")
def connections_search(
    name: Annotated[str, typer.Argument(help="The connection")],
    tool: Annotated[str, typer.Argument(help="The tool's name on its server")],
    off: Annotated[bool, typer.Option("--off", help="Stop searching it")] = False,
    agent: AgentOption = None,
) -> None:
    """Mark a read-only tool as a research source (the source `tools`), or unmark it."""
    agent_id = agent_id_of(agent)
    settings = get_settings()

    async def work(graph: GraphClient) -> ToolPublic:
        clients = McpClients(settings.tools)
        try:
            return await connections.set_search_source(
                graph, clients, agent_id, name, tool, not off
            )
        finally:
            await clients.aclose()

    marked = run_with_graph(work)
    state = "a research source" if marked.search_source else "no longer a research source"
    console.print(f"[bold]{escape(marked.qualified_name)}[/] is {state}")


@connections_app.command("remove")
def connections_remove(
    name: Annotated[str, typer.Argument(help="The connection")], agent: AgentOption = None
) -> None:
    """Disconnect a server (its tools stay as history, with the beliefs about them)."""
    agent_id = agent_id_of(agent)
    settings = get_settings()

    async def work(graph: GraphClient) -> None:
        clients = McpClients(settings.tools)
        try:
            await connections.remove_connection(
                graph, clients, agent_id, name, now=clock_starting_at(settings.clock_start).now()
            )
        finally:
            await clients.aclose()

    run_with_graph(work)
    console.print(f"removed connection [bold]{escape(name)}[/]")
