"""Which agents an MCP call may touch, and which agent it means.

Over streamable HTTP the API authenticates the X-API-Key before the MCP server sees the
request (app/api/mcp_endpoint.py) and leaves an ``AgentAccess`` in the request's scope; a
tool reads it from the request its call came in. Over stdio there is no request: the server
runs as the local user, with the same reach as the ``credence`` CLI. An HTTP request without
an ``AgentAccess`` is refused (fail closed).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.errors import AuthenticationRequired, InvalidInput, error_entry
from app.graph.agent_scope import require_agent
from app.mcp.services import McpServices

# The key of the request scope's state under which the API leaves the caller's access.
ACCESS_STATE_KEY = "credence_agent_access"


@dataclass(frozen=True, slots=True)
class AgentAccess:
    """What the API key of an HTTP request reaches."""

    check: Callable[[str], None]  # raises AgentForbidden for an agent the key does not reach
    visible: frozenset[str] | None  # the agents it may list; None: every agent
    only: str | None = None  # the one agent the key reaches, when it reaches exactly one


def access_of(request: Any) -> AgentAccess | None:
    """The caller's access for the HTTP request of a call; ``None`` over stdio.

    Raises:
        AuthenticationRequired: an HTTP request the API did not authenticate.
    """
    if request is None:
        return None
    state = getattr(request, "scope", {}).get("state") or {}
    access = state.get(ACCESS_STATE_KEY)
    if not isinstance(access, AgentAccess):
        raise AuthenticationRequired("this MCP request did not come through Credence's API keys")
    return access


async def resolve_agent(
    services: McpServices, access: AgentAccess | None, agent_id: str | None
) -> str:
    """The agent a call talks to: the one named, else the key's only agent, else
    ``credence mcp --agent``, else the default agent; checked against the key, and existing.

    Raises:
        InvalidInput: no agent named and none to default to.
        AgentForbidden: the key does not reach it.
        AgentNotFound: no such agent.
    """
    chosen = agent_id or (access.only if access else None) or services.default_agent_id
    if chosen is None:
        chosen = await services.runtime.default_agent_id()
    if chosen is None:
        raise InvalidInput(
            "agent_id: name the agent (list them with the list_agents tool); there is no "
            "default agent",
            errors=[error_entry(["agent_id"], "required: no default agent", "missing")],
        )
    if access is not None:
        access.check(chosen)
    await require_agent(services.graph, chosen)
    return chosen
