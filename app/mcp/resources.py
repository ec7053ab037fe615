"""The MCP resources: an agent's identity and self-model, its status, one belief by id, and the
analytics catalogue."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError

from app.beliefs import store
from app.beliefs.analytics import runner
from app.beliefs.analytics.models import AnalyticsList
from app.beliefs.models import BeliefDetail
from app.errors import CredenceError, NotFound
from app.mcp.access import access_of, resolve_agent
from app.mcp.errors import error_text
from app.mcp.services import McpServices, ServicesProvider
from app.memory import self_model
from app.memory.self_model import SelfView
from app.status.agent_status import read_agent_status
from app.status.models import AgentStatus

JSON = "application/json"
T = TypeVar("T")


def register_resources(server: MCPServer, services: ServicesProvider) -> None:
    """Adds every Credence resource (and resource template) to ``server``."""

    async def read(
        ctx: Context, agent_id: str, work: Callable[[McpServices, str], Awaitable[T]]
    ) -> T:
        if not agent_id.strip():
            # A URI names its agent: an empty one (credence://agents//self) names none, and
            # must not fall back to the default agent as a tool's missing agent_id does.
            raise ResourceNotFoundError("the resource's URI names no agent")
        try:
            current = services()
            agent = await resolve_agent(current, access_of(ctx.request_context.request), agent_id)
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
        return await read(ctx, agent_id, lambda s, agent: self_model.get_self(s.graph, agent))

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
        return await read(ctx, agent_id, lambda s, agent: read_agent_status(s.loop(), agent))

    @server.resource(
        "credence://agents/{agent_id}/beliefs/{belief_id}",
        name="belief",
        title="One belief with its evidence, events, lineage and edges",
        mime_type=JSON,
    )
    async def belief_resource(agent_id: str, belief_id: str, ctx: Context) -> BeliefDetail:
        """One belief as REST's GET /beliefs/{id} gives it (use the explain_belief tool for
        why it is held)."""
        return await read(
            ctx,
            agent_id,
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
