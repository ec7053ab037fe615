"""``credence mcp``: the server over stdio, as Claude Desktop and Claude Code launch it.

Stdout carries the protocol only; logs go to stderr.
"""

from __future__ import annotations

from app.config import Settings
from app.mcp.server import build_server
from app.mcp.services import McpServices
from app.runtime import Runtime


async def serve_stdio(settings: Settings, agent_id: str | None = None) -> None:
    """Serves until the client closes stdin.

    Args:
        agent_id: the agent of calls that name none (else the default agent).
    """
    # The runtime owns the agents' MCP client sessions too (tool calls); closed on exit.
    runtime = Runtime.open(settings)
    services = McpServices(runtime, default_agent_id=agent_id)
    try:
        await build_server(lambda: services).run_stdio_async()
    finally:
        await runtime.aclose()
