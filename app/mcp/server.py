"""The Credence MCP server: tools, resources and prompts over the services of ``services``."""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer

from app import __version__
from app.mcp.arguments import ArgumentCheck
from app.mcp.errors import ToolErrorBodies
from app.mcp.metering import ToolCallMetrics
from app.mcp.prompts import PROMPT_ARGUMENTS, register_prompts
from app.mcp.resources import register_resources
from app.mcp.services import ServicesProvider
from app.mcp.tools import credence_tools

INSTRUCTIONS = (
    "Credence is the agent's memory of beliefs, and why it holds them. Each belief has a "
    "strength and a tension; SUPPORTS and CONTRADICTS edges link them; evidence and outcomes "
    "move them, and a belief whose tension reaches 0.7 is revised into a new one. Use "
    "search_beliefs or get_context to recall, explain_belief to say why a belief is held, "
    "record_evidence / record_outcome to teach, chat for a whole turn of the agent, and "
    "agent_overview for its state. Errors come back as JSON: {error: {code, message, details}}."
)


def build_server(services: ServicesProvider) -> MCPServer:
    tools = credence_tools(services)
    server: MCPServer = MCPServer(
        "credence", title="Credence", version=__version__, instructions=INSTRUCTIONS, tools=tools
    )
    register_resources(server, services)
    register_prompts(server)
    # Outermost first: the metrics count what the client gets, refusals included.
    server.middleware.append(ToolCallMetrics(server))
    server.middleware.append(ToolErrorBodies())
    server.middleware.append(ArgumentCheck(tools, PROMPT_ARGUMENTS))
    return server
