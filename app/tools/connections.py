"""Connections of an agent to MCP servers, and the tools they offer, in the graph.

Adding a connection starts its server and lists its tools first (nothing is written when that
fails), then writes, in one transaction: the Connection (secret names only), a Tool per tool
(its description, input schema, MCP annotations and an embedding of the description) and, for
a tool the agent did not know, the agent's belief about it ("ledger.write_query does what is
asked of it when called", at ``tools.initial_strength``): supervision routes a call of
the tool on that belief, and each outcome of a call moves it.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from app.beliefs.contexts import context_chain
from app.beliefs.mechanics import Mechanics
from app.beliefs.models import BeliefCreate, ContextStrength
from app.beliefs.store import belief_params, create_belief_in
from app.embeddings.embedder import Embedder
from app.embeddings.store import embed_pending
from app.errors import (
    AgentNotFound,
    ConnectionNameTaken,
    ConnectionNotFound,
    InvalidInput,
    ToolNotFound,
    error_entry,
)
from app.graph.agent_scope import lock_agent, require_agent
from app.graph.client import GraphClient, Transaction
from app.tools.clients import McpClients, ServerSpec
from app.tools.focus import call_context
from app.tools.models import (
    ConnectionCreate,
    ConnectionPublic,
    ConnectionsPublic,
    ToolPublic,
    ToolsPublic,
)
from app.tools.settings import ToolSettings

if TYPE_CHECKING:
    # Annotations only: the MCP SDK is imported where a server is reached (app/tools/clients.py).
    import mcp_types as types


def spec_for(clients: McpClients, agent_id: str, row: dict[str, Any]) -> ServerSpec:
    """How to reach a stored connection's server, with the secrets this process holds."""
    env, headers = clients.secrets.resolve(
        agent_id, row["name"], list(row.get("env_names") or []), list(row.get("header_names") or [])
    )
    return ServerSpec(
        key=f"{agent_id}/{row['name']}",
        name=row["name"],
        transport=row["transport"],
        command=row.get("command"),
        args=tuple(row.get("args") or ()),
        cwd=row.get("cwd"),
        url=row.get("url"),
        env=env,
        headers=headers,
    )


def _public(row: dict[str, Any], tools: int) -> ConnectionPublic:
    return ConnectionPublic(
        name=row["name"],
        transport=row["transport"],
        command=row.get("command"),
        args=list(row.get("args") or []),
        cwd=row.get("cwd"),
        url=row.get("url"),
        env_names=list(row.get("env_names") or []),
        header_names=list(row.get("header_names") or []),
        tools=tools,
        created_at=_datetime(row.get("created_at")),
    )


def _datetime(value: Any) -> datetime | None:
    native = value.to_native() if hasattr(value, "to_native") else value
    return native if isinstance(native, datetime) else None


def is_destructive(annotations: types.ToolAnnotations | None) -> bool:
    """MCP's presumption: a tool that does not say it is read-only may destroy, unless it says
    it does not (destructiveHint false)."""
    if annotations is None:
        return True
    if annotations.read_only_hint:
        return False
    return annotations.destructive_hint is not False


def tool_statement(qualified_name: str) -> str:
    return f"{qualified_name} does what is asked of it when called"


async def add_connection(
    graph: GraphClient,
    clients: McpClients,
    embedder: Embedder,
    mechanics: Mechanics,
    settings: ToolSettings,
    agent_id: str,
    data: ConnectionCreate,
    *,
    now: datetime,
    extra_env_names: Sequence[str] = (),
    extra_header_names: Sequence[str] = (),
) -> tuple[ConnectionPublic, list[ToolPublic]]:
    """Starts the server, lists its tools, then writes the connection and its tools.

    ``now``: the creation time, from the process's clock (app/clock.py).

    ``extra_env_names`` / ``extra_header_names``: secrets named without a value here (the CLI's
    bare ``--env NAME``): each process takes it from its environment variable of that name.

    Raises:
        AgentNotFound, ConnectionNameTaken (before the server starts),
        ToolServerFailed (nothing written).
    """
    _check_command(settings, data)
    await require_agent(graph, agent_id)
    if await graph.read("tools/find_connection", agent_id=agent_id, connection=data.name):
        raise ConnectionNameTaken(data.name, agent_id)
    clients.secrets.put(agent_id, data.name, data.env, data.headers)
    row = {
        "id": str(uuid.uuid4()),
        "name": data.name,
        "transport": data.transport,
        "command": data.command,
        "args": list(data.args),
        "cwd": data.cwd,
        "url": data.url,
        "env_names": sorted({*data.env, *extra_env_names}),
        "header_names": sorted({*data.headers, *extra_header_names}),
    }
    spec = spec_for(clients, agent_id, row)
    tools = await _discover_tools(clients, embedder, spec, agent_id, data)

    async def work(tx: Transaction) -> None:
        await lock_agent(tx, agent_id)
        if await tx.run("tools/find_connection", agent_id=agent_id, connection=data.name):
            raise ConnectionNameTaken(data.name, agent_id)
        await _ensure_beliefs(tx, mechanics, settings, agent_id, tools)
        await tx.run(
            "tools/create_connection",
            agent_id=agent_id,
            connection=row,
            tools=tools,
            now=now,
            embedding_model=embedder.model_id,
        )

    try:
        await graph.write_transaction(work, action="connecting an MCP server")
    except BaseException:
        await clients.close(spec.key)
        clients.secrets.forget(agent_id, data.name)
        raise
    clients.offers.forget(agent_id)
    await embed_pending(graph, embedder, agent_id)
    return await get_connection(graph, agent_id, data.name), (
        await list_tools(graph, agent_id, data.name)
    ).data


def _check_command(settings: ToolSettings, data: ConnectionCreate) -> None:
    """Refuses a stdio command outside CREDENCE_TOOLS__STDIO_COMMANDS (when that is set)."""
    allowed = settings.stdio_commands
    if data.command is not None and allowed is not None and data.command not in allowed:
        raise InvalidInput(
            f"command {data.command!r} is not one of the allowed stdio commands "
            "(CREDENCE_TOOLS__STDIO_COMMANDS)",
            errors=[
                error_entry(["body", "command"], "not an allowed stdio command", "not_allowed")
            ],
        )


async def _discover_tools(
    clients: McpClients,
    embedder: Embedder,
    spec: ServerSpec,
    agent_id: str,
    data: ConnectionCreate,
) -> list[dict[str, Any]]:
    """The new connection's tools as rows to write (listed from its server, embedded, the
    search sources marked); on any failure the server is closed and its secrets forgotten."""
    try:
        listed = await clients.list_tools(spec)
    except BaseException:
        clients.secrets.forget(agent_id, data.name)
        raise
    vectors = await embedder.embed([_embedded_text(tool) for tool in listed]) if listed else None
    tools = [
        _tool_row(data.name, tool, vectors[i] if vectors else None) for i, tool in enumerate(listed)
    ]
    try:
        _mark_search_tools(tools, data.search_tools)
    except BaseException:
        await clients.close(spec.key)
        clients.secrets.forget(agent_id, data.name)
        raise
    return tools


def _embedded_text(tool: types.Tool) -> str:
    return f"{tool.name}: {tool.description or ''}"[:2000]


def _tool_row(connection: str, tool: types.Tool, vector: list[float] | None) -> dict[str, Any]:
    annotations = tool.annotations
    return {
        "id": str(uuid.uuid4()),
        "qualified_name": f"{connection}.{tool.name}",
        "name": tool.name,
        "description": (tool.description or "")[:4000],
        "input_schema": json.dumps(tool.input_schema or {}),
        "read_only": bool(annotations and annotations.read_only_hint),
        "destructive": is_destructive(annotations),
        "idempotent": bool(annotations and annotations.idempotent_hint),
        "embedding": list(vector) if vector is not None else None,
        "belief_id": None,
        "search_source": False,
    }


def _mark_search_tools(tools: list[dict[str, Any]], names: Sequence[str]) -> None:
    """Marks the tools research may search.

    Raises:
        InvalidInput: a name the server does not list, or a tool that may destroy.
    """
    by_name = {tool["name"]: tool for tool in tools}
    for name in names:
        tool = by_name.get(name)
        if tool is None:
            raise InvalidInput(
                f"search tool {name!r} is not one of the server's tools ({', '.join(by_name)})",
                errors=[error_entry(["body", "search_tools"], f"no tool {name!r}", "not_found")],
            )
        if tool["destructive"]:
            raise search_tool_destructive(tool["qualified_name"], ["body", "search_tools"])
        tool["search_source"] = True


def search_tool_destructive(qualified_name: str, loc: list[str]) -> InvalidInput:
    return InvalidInput(
        f"{qualified_name} may destroy (no readOnlyHint, or destructiveHint): research only "
        "reads, so it cannot be a search source",
        errors=[error_entry(loc, "a search source must not be destructive", "destructive")],
    )


async def set_search_source(
    graph: GraphClient, clients: McpClients, agent_id: str, connection: str, tool: str, on: bool
) -> ToolPublic:
    """Marks (or unmarks) one of the connection's tools as a research source.

    Raises:
        AgentNotFound, ConnectionNotFound, ToolNotFound, InvalidInput (a tool that may destroy).
    """
    listed = {item.name: item for item in (await list_tools(graph, agent_id, connection)).data}
    found = listed.get(tool)
    if found is None:
        raise ToolNotFound(connection, tool, agent_id)
    if on and found.destructive:
        raise search_tool_destructive(found.qualified_name, ["body", "search_source"])
    rows = await graph.write(
        "tools/set_search_source",
        agent_id=agent_id,
        qualified_name=found.qualified_name,
        search_source=on,
    )
    if not rows:  # the agent is being deleted (the query takes its lock first)
        raise AgentNotFound(agent_id)
    if rows[0]["qualified_name"] is None:  # the connection went meanwhile
        raise ToolNotFound(connection, tool, agent_id)
    clients.offers.forget(agent_id)
    return found.model_copy(update={"search_source": on})


async def _ensure_beliefs(
    tx: Transaction,
    mechanics: Mechanics,
    settings: ToolSettings,
    agent_id: str,
    tools: list[dict[str, Any]],
) -> None:
    """Every tool gets the belief the agent held about it before, or a new one."""
    known = {
        row["qualified_name"]: row["belief_id"]
        for row in await tx.run(
            "tools/get_tool_beliefs",
            agent_id=agent_id,
            qualified_names=[tool["qualified_name"] for tool in tools],
        )
    }
    for tool in tools:
        belief_id = known.get(tool["qualified_name"])
        if belief_id is None:
            params = belief_params(
                BeliefCreate(
                    statement=tool_statement(tool["qualified_name"]),
                    category="contextual",
                    domain="tools",
                    strength=settings.initial_strength,
                    source="tool",
                ),
                "manual",
            )
            await create_belief_in(tx, mechanics, agent_id, params)
            belief_id = params["id"]
        tool["belief_id"] = belief_id


async def get_connection(graph: GraphClient, agent_id: str, name: str) -> ConnectionPublic:
    """Raises: AgentNotFound, ConnectionNotFound."""
    row = await connection_row(graph, agent_id, name)
    return _public(row["connection"], row["tools"])


async def connection_row(graph: GraphClient, agent_id: str, name: str) -> dict[str, Any]:
    """The stored connection (``connection``, ``tools``).

    Raises:
        AgentNotFound, ConnectionNotFound.
    """
    rows = await graph.read("tools/find_connection", agent_id=agent_id, connection=name)
    if not rows:
        await require_agent(graph, agent_id)
        raise ConnectionNotFound(name, agent_id)
    return rows[0]


async def list_connections(graph: GraphClient, agent_id: str) -> ConnectionsPublic:
    """Raises: AgentNotFound."""
    await require_agent(graph, agent_id)
    rows = await graph.read("tools/list_connections", agent_id=agent_id)
    data = [_public(row["connection"], row["tools"]) for row in rows]
    return ConnectionsPublic(data=data, count=len(data))


async def remove_connection(
    graph: GraphClient, clients: McpClients, agent_id: str, name: str, *, now: datetime
) -> None:
    """Removes the connection (its tools stay as history) and stops its server here, at
    ``now`` (the process's clock).

    Raises:
        AgentNotFound, ConnectionNotFound.
    """

    async def work(tx: Transaction) -> bool:
        await lock_agent(tx, agent_id)
        rows = await tx.run("tools/delete_connection", agent_id=agent_id, connection=name, now=now)
        return bool(rows)

    if not await graph.write_transaction(work, action="removing a connection"):
        raise ConnectionNotFound(name, agent_id)
    await clients.close(f"{agent_id}/{name}")
    clients.secrets.forget(agent_id, name)


def tool_public(row: dict[str, Any], context: str | None = None) -> ToolPublic:
    """A ``tools/list_tools`` row; ``context``: the one its strength in context was read in."""
    tool = row["tool"]
    schema = tool.get("input_schema")
    return ToolPublic(
        name=tool["name"],
        qualified_name=tool["qualified_name"],
        connection=tool["connection"],
        description=tool.get("description") or "",
        input_schema=json.loads(schema) if schema else {},
        read_only=bool(tool.get("read_only")),
        destructive=bool(tool.get("destructive")),
        idempotent=bool(tool.get("idempotent")),
        search_source=bool(tool.get("search_source")),
        belief_id=tool.get("belief_id"),
        belief_strength=row.get("belief_strength"),
        context=context,
        strength_in_context=row.get("strength_in_context"),
        context_applied=row.get("context_applied"),
        contexts=[ContextStrength.model_validate(c) for c in row.get("contexts") or []],
        successes=int(row.get("successes") or 0),
        failures=int(row.get("failures") or 0),
    )


async def list_tools(
    graph: GraphClient,
    agent_id: str,
    connection: str | None,
    context: str | None = None,
    now: datetime | None = None,
) -> ToolsPublic:
    """The tools of one connection (or all), each with the strength a call of it routes on in
    ``context`` (None: the context a call without one takes at ``now``, the graph clock's time
    by default; app/tools/focus.py).

    Raises:
        AgentNotFound, ConnectionNotFound.
    """
    if connection is not None:
        await connection_row(graph, agent_id, connection)
    else:
        await require_agent(graph, agent_id)
    name = call_context(context, now or graph.clock.now())
    rows = await graph.read(
        "tools/list_tools", agent_id=agent_id, connection=connection, chain=context_chain(name)
    )
    data = [tool_public(row, name) for row in rows]
    return ToolsPublic(data=data, count=len(data))


async def list_search_tools(graph: GraphClient, agent_id: str) -> list[dict[str, Any]]:
    """The agent's active tools marked as research sources, each with its connection's
    properties (how to reach its server: secret names only), by qualified name.

    Returns:
        Rows of ``tool`` (qualified_name, name, input_schema as a JSON string) and
        ``connection``.
    """
    return await graph.read("tools/list_search_tools", agent_id=agent_id)
