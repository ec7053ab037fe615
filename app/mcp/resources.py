"""The MCP resources: an agent's identity and self-model, its status, one belief by id, and the
analytics catalogue."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, TypeVar

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app.beliefs import store
from app.beliefs.analytics import runner
from app.beliefs.analytics.models import AnalyticsList
from app.beliefs.models import BeliefDetail
from app.errors import CredenceError, NotFound
from app.mcp.access import access_of, resolve_agent
from app.mcp.errors import error_text, invalid_input, invalid_params
from app.mcp.services import McpServices, ServicesProvider
from app.memory import self_model
from app.memory.self_model import SelfView
from app.status.agent_status import read_agent_status
from app.status.models import AgentStatus

JSON = "application/json"
T = TypeVar("T")


class UriIds(BaseModel):
    """The ids a resource URI names, bounded as REST bounds them in its paths (the SDK takes a
    URI of up to 64 KiB)."""

    model_config = ConfigDict(extra="forbid")

    agent_id: Annotated[str, Field(max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
    belief_id: Annotated[str | None, Field(min_length=1, max_length=64)] = None


def register_resources(server: MCPServer, services: ServicesProvider) -> None:
    """Adds every Credence resource (and resource template) to ``server``."""

    async def read(
        ctx: Context,
        ids: UriIds,
        work: Callable[[McpServices, str], Awaitable[T]],
    ) -> T:
        try:
            current = services()
            request = ctx.request_context.request
            agent = await resolve_agent(current, access_of(request), ids.agent_id)
            return await work(current, agent)
        except NotFound as error:
            raise ResourceNotFoundError(error_text(error)) from error
        except CredenceError as error:
            raise ResourceError(error_text(error)) from error

    @server.resource(
        "credence://agents/{agent_id}/self",
        name="self_model",
        title="The agent's identity and self-model",
        mime_type=JSON,
    )
    async def self_resource(agent_id: str, ctx: Context) -> SelfView:
        """Identity (name, identity goal, the immutable terminal creed), capabilities with
        their success rates, knowledge gaps and self-beliefs."""
        ids = uri_ids(agent_id)
        return await read(ctx, ids, lambda s, agent: self_model.get_self(s.graph, agent))

    @server.resource(
        "credence://agents/{agent_id}/status",
        name="status",
        title="The agent's status",
        mime_type=JSON,
    )
    async def status_resource(agent_id: str, ctx: Context) -> AgentStatus:
        """What REST's GET /status gives: state (active, idle, reflecting, error), sessions,
        episodes, last reflection, calls and tokens per session, D and its band, open
        conflicts, pending approvals and the scheduler's last runs."""
        ids = uri_ids(agent_id)
        return await read(ctx, ids, lambda s, agent: read_agent_status(s.loop(), agent))

    @server.resource(
        "credence://agents/{agent_id}/beliefs/{belief_id}",
        name="belief",
        title="One belief with its evidence, events, lineage and edges",
        mime_type=JSON,
    )
    async def belief_resource(agent_id: str, belief_id: str, ctx: Context) -> BeliefDetail:
        """One belief as REST's GET /beliefs/{id} gives it (use the explain_belief tool for
        why it is held)."""
        ids = uri_ids(agent_id, belief_id)
        return await read(
            ctx,
            ids,
            lambda s, agent: store.get_belief(s.graph, s.settings.mechanics, agent, belief_id),
        )

    @server.resource(
        "credence://analytics",
        name="analytics",
        title="The analytics catalogue",
        mime_type=JSON,
    )
    async def analytics_resource() -> AnalyticsList:
        """Every analytics query with its description, parameters (and defaults) and columns."""
        return runner.list_analytics(services().graph.catalog)


def uri_ids(agent_id: str, belief_id: str | None = None) -> UriIds:
    """The ids of a resource URI, checked.

    Raises:
        ResourceNotFoundError: the URI names no agent (``credence://agents//self``): it must
            not fall back to the default agent as a tool's missing agent_id does.
        MCPError: an id REST would refuse (too long, or not an agent id): invalid params, with
            REST's ``invalid_input`` body naming it.
    """
    if not agent_id.strip():
        raise ResourceNotFoundError("the resource's URI names no agent")
    try:
        return UriIds(agent_id=agent_id, belief_id=belief_id)
    except ValidationError as error:
        raise invalid_params(invalid_input(error)) from error
