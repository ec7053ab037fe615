"""``/mcp``: the MCP server (app/mcp) over streamable HTTP, behind the same API keys as REST.

The key is checked here, before the MCP transport sees the request: a missing or unknown key
is a 401 in REST's error body. What the key reaches travels to the tools in the request's
scope (``app.mcp.access.AgentAccess``), and every tool checks its agent against it, so a key
for agent A cannot touch agent B through MCP either.

Stateless and answered as JSON: every POST is one self-contained exchange (no session to keep
between requests, any API replica can answer), which suits tools that never call back.
"""

from __future__ import annotations

from functools import partial

from fastapi import FastAPI
from mcp.server.mcpserver import MCPServer
from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.routing import Match, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from app.api.errors import error_body
from app.api.security import ALL_AGENTS, authenticate, authorize_agent
from app.config import Settings
from app.errors import AuthenticationRequired
from app.mcp.access import ACCESS_STATE_KEY, AgentAccess
from app.mcp.server import build_server
from app.mcp.services import McpServices
from app.runtime import Runtime

MCP_PATH = "/mcp"


class KeyedMcpEndpoint:
    """Authenticates the X-API-Key, then hands the request to the MCP transport."""

    def __init__(self, transport: ASGIApp, settings: Settings) -> None:
        self.transport = transport
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            allowed = authenticate(self.settings, Headers(scope=scope).get("x-api-key"))
        except AuthenticationRequired as error:
            response = JSONResponse(
                error_body(error.code, error.message, error.details), status_code=401
            )
            await response(scope, receive, send)
            return
        scope.setdefault("state", {})[ACCESS_STATE_KEY] = access_for(allowed)
        await self.transport(scope, receive, send)


class _McpRoute(Route):
    """A route that leaves itself in the scope when it matches, as FastAPI's own routes do, so
    the request metrics label /mcp by its template."""

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        match, child_scope = super().matches(scope)
        if match != Match.NONE:
            child_scope["route"] = self
        return match, child_scope


def access_for(allowed: frozenset[str] | None) -> AgentAccess:
    """What a key's agent ids (``None``: no keys configured) let an MCP caller touch."""
    every = allowed is None or ALL_AGENTS in allowed
    only = next(iter(allowed)) if allowed is not None and not every and len(allowed) == 1 else None
    return AgentAccess(
        check=partial(authorize_agent, allowed),
        visible=None if every else allowed,
        only=only,
    )


def mount_mcp(app: FastAPI, settings: Settings) -> MCPServer:
    """Serves the MCP server at ``/mcp`` on ``app`` (its services read from the app's runtime
    at each call); the lifespan must run ``server.session_manager.run()``."""

    def services() -> McpServices:
        runtime: Runtime = app.state.runtime
        return McpServices(runtime)

    server = build_server(services)
    # Builds the session manager; of the app it returns only the transport endpoint is used.
    transport_app = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        stateless_http=True,
        json_response=True,
        host=settings.api_host,
    )
    transport = next(r for r in transport_app.routes if isinstance(r, Route)).app
    app.router.routes.append(
        _McpRoute(
            MCP_PATH,
            endpoint=KeyedMcpEndpoint(transport, settings),
            methods=["GET", "POST", "DELETE"],
            include_in_schema=False,
        )
    )
    return server
