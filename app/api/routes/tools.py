"""Connections of an agent to MCP servers, their tools, and the tool calls it made (actions).

``POST /actions`` asks for one tool call directly; it runs as a turn (the guardian, supervision
by the agent's belief about the tool, an approval when it is not trusted yet, verification,
learning), exactly as the chat message ``call <connection>.<tool> {arguments}`` does.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request, Response, status
from pydantic import BaseModel

from app.api.deps import (
    AgentIdDep,
    ClockDep,
    EmbedderDep,
    GraphDep,
    LoopDep,
    SettingsDep,
    SkipQuery,
    get_runtime,
)
from app.api.openapi import ErrorResponse
from app.beliefs.models import ContextName
from app.loop.models import ChatRequest, TurnResult
from app.loop.turn import run_turn
from app.reasoning.protocol import ToolCall
from app.tools import actions, connections
from app.tools.calls import ACTION_BODY_CALL, call_message
from app.tools.clients import McpClients
from app.tools.models import (
    ActionRequest,
    ActionsPublic,
    ActionStatus,
    ConnectionCreate,
    ConnectionPublic,
    ConnectionsPublic,
    ToolPublic,
    ToolSearchFlag,
    ToolsPublic,
)

router = APIRouter(prefix="/v1/agents/{agent_id}", tags=["tools"])

_SERVER_FAILED: dict[int | str, dict[str, Any]] = {
    502: {
        "model": ErrorResponse,
        "description": "The MCP server did not start or did not list its tools in time "
        "(tool_server_failed); nothing was written.",
    }
}
# Bounded at the edge like app/api/deps.py's ItemId and NamePath (a connection's name).
ConnectionPath = Annotated[
    str,
    Path(
        min_length=1,
        max_length=40,
        pattern=r"^[a-z][a-z0-9_-]{0,39}$",
        description="A connection's name.",
    ),
]


class ConnectionAdded(BaseModel):
    connection: ConnectionPublic
    tools: list[ToolPublic]


def _clients(request: Request) -> McpClients:
    """The process's MCP sessions (owned by its runtime, app/runtime.py)."""
    return get_runtime(request).mcp_clients


@router.get("/connections")
async def list_connections(graph: GraphDep, agent_id: AgentIdDep) -> ConnectionsPublic:
    """The agent's connected MCP servers (secret names, never their values)."""
    return await connections.list_connections(graph, agent_id)


@router.post("/connections", status_code=status.HTTP_201_CREATED, responses=_SERVER_FAILED)
async def add_connection(
    request: Request,
    graph: GraphDep,
    embedder: EmbedderDep,
    settings: SettingsDep,
    clock: ClockDep,
    agent_id: AgentIdDep,
    body: ConnectionCreate,
) -> ConnectionAdded:
    """Connect an MCP server (stdio or streamable HTTP): it is started, its tools are listed
    and each becomes a Tool the agent holds a belief about. Environment and header values stay
    in this process, never in the graph."""
    connection, tools = await connections.add_connection(
        graph,
        _clients(request),
        embedder,
        settings.mechanics,
        settings.tools,
        agent_id,
        body,
        now=clock.now(),
    )
    return ConnectionAdded(connection=connection, tools=tools)


@router.delete("/connections/{name}", status_code=status.HTTP_204_NO_CONTENT)
async def remove_connection(
    request: Request, graph: GraphDep, clock: ClockDep, agent_id: AgentIdDep, name: ConnectionPath
) -> Response:
    """Disconnect a server; its tools stay as history (inactive), with the beliefs about them."""
    await connections.remove_connection(graph, _clients(request), agent_id, name, now=clock.now())
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get(
    "/connections/{name}/tools",
    responses={
        404: {
            "model": ErrorResponse,
            "description": "No such agent or connection (agent_not_found, connection_not_found).",
        },
    },
)
async def list_tools(
    graph: GraphDep,
    clock: ClockDep,
    agent_id: AgentIdDep,
    name: ConnectionPath,
    context: Annotated[
        ContextName | None,
        Query(
            description="The context to read each tool's strength in, as a call made in it "
            "routes on it (HOLDS_IN back-off: acme/month_end → month_end, else the default "
            "strength). Default: the context a call without one takes now (the day's temporal "
            "context, or none)."
        ),
    ] = None,
) -> ToolsPublic:
    """The connection's tools, with the agent's trust in each (its belief's default strength,
    and the strength a call routes on in a context) and how their calls went."""
    return await connections.list_tools(graph, agent_id, name, context, clock.now())


ToolPath = Annotated[
    str,
    Path(
        min_length=1,
        max_length=128,
        pattern=r"^[A-Za-z0-9_.-]+$",
        description="A tool's name on its server.",
    ),
]


@router.patch(
    "/connections/{name}/tools/{tool}",
    responses={
        404: {
            "model": ErrorResponse,
            "description": "No such agent, connection or tool (agent_not_found, "
            "connection_not_found, tool_not_found).",
        },
        422: {
            "model": ErrorResponse,
            "description": "A tool that may destroy cannot be a search source (invalid_input).",
        },
    },
)
async def set_search_source(
    request: Request,
    graph: GraphDep,
    agent_id: AgentIdDep,
    name: ConnectionPath,
    tool: ToolPath,
    body: ToolSearchFlag,
) -> ToolPublic:
    """Mark a tool as a research source (``search_source``): investigations and
    ``POST /research/search`` then search it as the source ``tools``, beside the corpus and the
    graph. Only a tool that does not destroy (readOnlyHint, or destructiveHint false)."""
    return await connections.set_search_source(
        graph, _clients(request), agent_id, name, tool, body.search_source
    )


@router.post("/actions")
async def request_action(loop: LoopDep, agent_id: AgentIdDep, body: ActionRequest) -> TurnResult:
    """Ask for one tool call: it runs as a turn (guardian, supervision, approval, verification,
    learning); ``action_id`` names its Action."""
    call = ToolCall(connection=body.connection, tool=body.tool, arguments=body.arguments)
    request = ChatRequest(message=call_message(call), speaker=body.speaker, session=body.session)
    return await run_turn(loop, agent_id, request, source=ACTION_BODY_CALL)


@router.get("/actions")
async def list_actions(
    graph: GraphDep,
    agent_id: AgentIdDep,
    skip: SkipQuery = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    status_filter: Annotated[ActionStatus | None, Query(alias="status")] = None,
    tool: Annotated[
        str | None, Query(min_length=3, max_length=170, description="connection.tool")
    ] = None,
) -> ActionsPublic:
    """The agent's tool calls, newest first: what was sent, status, duration, result."""
    return await actions.list_actions(
        graph, agent_id, status=status_filter, tool=tool, skip=skip, limit=limit
    )
