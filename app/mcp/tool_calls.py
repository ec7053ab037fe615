"""What every MCP tool shares: the agent argument types, and running a service call as a tool.

Every tool takes an optional ``agent_id`` (see ``access.resolve_agent`` for the default) and
answers the service's own pydantic model, so its output schema is the REST response's.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any, TypeVar

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field, ValidationError

from app.beliefs.models import ContextName
from app.errors import CredenceError
from app.mcp.access import access_of, resolve_agent
from app.mcp.errors import error_text, invalid_input
from app.mcp.services import McpServices, ServicesProvider

T = TypeVar("T")

AgentArg = Annotated[
    str | None,
    Field(
        default=None,
        min_length=1,
        max_length=64,
        pattern=r"^[A-Za-z0-9_-]+$",
        description="The agent (default: the API key's only agent, `credence mcp --agent`, "
        "or the default agent)",
    ),
]
BeliefArg = Annotated[str, Field(min_length=1, max_length=64, description="A belief id")]
ContextArg = Annotated[
    ContextName | None,
    Field(description="A context name such as month_end (falls back to its parents)"),
]
READ = ToolAnnotations(read_only_hint=True)
WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False)


class ToolCalls:
    """The base of a set of tools: each tool method resolves its agent and runs one service
    call through ``run``, building its input model with ``build``."""

    def __init__(self, services: ServicesProvider) -> None:
        self.services = services

    async def run(
        self,
        ctx: Context,
        agent_id: str | None,
        work: Callable[[McpServices, str], Awaitable[T]],
    ) -> T:
        """Resolves and checks the agent, runs the service call, and turns a Credence error
        into a tool error with REST's body."""
        try:
            current = self.services()
            agent = await resolve_agent(current, access_of(ctx.request_context.request), agent_id)
            return await work(current, agent)
        except CredenceError as error:
            raise ToolError(error_text(error)) from error

    @staticmethod
    def build(model: Callable[..., T], **fields: Any) -> T:
        """A service's input model from tool arguments (its validators run as over REST)."""
        try:
            return model(**fields)
        except ValidationError as error:
            raise ToolError(error_text(invalid_input(error))) from error
