"""The MCP tools: each one a REST route's service call, named for what a model wants done.

The tools themselves live in ``reading_tools`` and ``writing_tools``; this module registers
them, in the order a client lists them, with their read-only or writing annotation, as the
SDK's ``Tool`` objects the server is built with (``arguments.strict_tool``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mcp.server.mcpserver.tools import Tool
from mcp.types import ToolAnnotations

from app.mcp.arguments import strict_tool
from app.mcp.reading_tools import ReadingTools
from app.mcp.services import ServicesProvider
from app.mcp.tool_calls import READ, WRITE
from app.mcp.writing_tools import WritingTools


def credence_tools(services: ServicesProvider) -> list[Tool]:
    """Every Credence tool, in the order a client lists them, each refusing unknown arguments."""
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
    return [strict_tool(tool, hints) for tool, hints in tools]
