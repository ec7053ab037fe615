"""MCP tool calls in the process's metrics (``credence_mcp_tool_calls_total`` and their
latency), as SDK middleware: it sees every ``tools/call``, arguments refused by the schema and
unknown tools included."""

from __future__ import annotations

import time
from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import MCPServer

from app.metrics import observe_tool_call


class ToolCallMetrics:
    """Counts and times each tool call; a name that is not one of the server's tools is
    counted as ``unknown`` (a client's typo never becomes a new series)."""

    def __init__(self, server: MCPServer) -> None:
        self.server = server
        self.tools: frozenset[str] | None = None  # read at the first call, once all are added

    async def __call__(
        self, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        if ctx.method != "tools/call":
            return await call_next(ctx)
        if self.tools is None:
            self.tools = frozenset(tool.name for tool in await self.server.list_tools())
        name = ctx.params.get("name") if ctx.params else None
        tool = name if isinstance(name, str) and name in self.tools else "unknown"
        started = time.perf_counter()
        outcome = "failed"  # a protocol error, or the server failing outright
        try:
            result = await call_next(ctx)
            outcome = "tool_error" if _is_error(result) else "ok"
            return result
        finally:
            observe_tool_call(tool, outcome, time.perf_counter() - started)


def _is_error(result: HandlerResult) -> bool:
    if isinstance(result, dict):
        return bool(result.get("isError") or result.get("is_error"))
    return bool(getattr(result, "is_error", False))
