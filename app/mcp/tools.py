"""The MCP tools: each one a REST route's service call, named for what a model wants done.

The tools themselves live in ``reading_tools`` and ``writing_tools``; this module registers
them, in the order a client lists them, with their read-only or writing annotation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from pydantic import ConfigDict

from app.mcp.reading_tools import ReadingTools
from app.mcp.services import ServicesProvider
from app.mcp.tool_calls import READ, WRITE
from app.mcp.writing_tools import WritingTools


def register_tools(server: MCPServer, services: ServicesProvider) -> None:
    """Adds every Credence tool to ``server``."""
    reading = ReadingTools(services)
    writing = WritingTools(services)
    tools: list[tuple[Callable[..., Any], ToolAnnotations]] = [
        (reading.list_agents, READ),
        (reading.get_context, READ),
        (reading.search_beliefs, READ),
        (reading.list_beliefs, READ),
        (reading.explain_belief, READ),
        (writing.record_evidence, WRITE),
        (writing.record_outcome, WRITE),
        (writing.import_episodes, WRITE),
        (writing.chat, WRITE),
        (reading.list_approvals, READ),
        (writing.answer_approval, WRITE),
        (reading.list_analytics, READ),
        (reading.run_analytics, READ),
        (reading.agent_overview, READ),
        (reading.replay_beliefs, READ),
    ]
    for tool, hints in tools:
        server.tool(annotations=hints)(tool)
        _refuse_unknown_arguments(server, tool.__name__)


def _refuse_unknown_arguments(server: MCPServer, name: str) -> None:
    """A tool's arguments are exactly those it declares: an unknown one (``agent`` for
    ``agent_id``) is refused, naming it, as a REST body's is, rather than ignored (a review's
    ``chat`` with ``agent`` wrote to the default agent). The listed schema says so too."""
    tool = server._tool_manager.get_tool(name)
    assert tool is not None
    model = tool.fn_metadata.arg_model
    config = ConfigDict(**model.model_config)
    config["extra"] = "forbid"
    strict = type(model.__name__, (model,), {"model_config": config})
    tool.fn_metadata.arg_model = strict
    tool.parameters["additionalProperties"] = False
