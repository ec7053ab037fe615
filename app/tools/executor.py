"""The executor of tool calls (verb ``call_tool``): the call goes to the connected server's
session of this process, within the call limit; what came back is the execution verification
reads. A server that fails to start, hangs or breaks is a failed execution with its reason."""

from __future__ import annotations

import logging
import time
from typing import Any

from app.errors import ConnectionNotFound, ToolServerFailed
from app.graph.client import GraphClient
from app.reasoning.protocol import ExecutionResult, ToolCall, WorkUnit
from app.tools.calls import CALL_VERB, execution_of, not_called
from app.tools.clients import CONNECTION_TTL_S, McpClients
from app.tools.connections import connection_row, spec_for

log = logging.getLogger(__name__)


class McpToolExecutor:
    """Carries out ``call_tool`` work units through the process's MCP sessions."""

    name = "mcp"
    verbs = frozenset({CALL_VERB})

    def __init__(self, graph: GraphClient, clients: McpClients) -> None:
        self._graph = graph
        self._clients = clients

    async def execute(self, agent_id: str, unit: WorkUnit) -> ExecutionResult:
        call = unit.call
        if call is None:
            return ExecutionResult(
                status="failed", message="a call_tool work unit without its call: nothing to run"
            )
        started = time.perf_counter()
        try:
            row = await self._connection(agent_id, call)
        except ConnectionNotFound as error:
            # Removed since the call was asked for (it waited for a person): nothing was sent,
            # so the tool did nothing, and its belief has nothing to learn from.
            return not_called(call, error.message)
        try:
            spec = spec_for(self._clients, agent_id, row)
            result = await self._clients.call(spec, call.tool, call.arguments)
        except (ConnectionNotFound, ToolServerFailed) as error:
            # The arguments are not logged: they may hold what the person would not log.
            log.warning("tool call %s failed: %s", call.qualified_name, error.code)
            return ExecutionResult(
                status="failed",
                output={
                    "tool": call.qualified_name,
                    "error": error.message,
                    "duration_ms": round((time.perf_counter() - started) * 1000, 3),
                },
                message=error.message,
                # The server may have done the work before it timed out or broke.
                retry_safe=isinstance(error, ConnectionNotFound)
                or await self._repeatable(agent_id, call),
            )
        duration_ms = (time.perf_counter() - started) * 1000
        return execution_of(call, result, duration_ms, self._clients.settings.result_summary_chars)

    async def _repeatable(self, agent_id: str, call: ToolCall) -> bool:
        """Whether sending ``call`` twice is harmless: its tool does not destroy, or is
        idempotent (an unknown tool is taken as one that may destroy)."""
        rows = await self._graph.read(
            "tools/tool_effects", agent_id=agent_id, qualified_name=call.qualified_name
        )
        return bool(rows) and (not rows[0]["destructive"] or rows[0]["idempotent"])

    async def _connection(self, agent_id: str, call: ToolCall) -> dict[str, Any]:
        """The stored connection, read at most every ``CONNECTION_TTL_S`` per process.

        Raises:
            AgentNotFound, ConnectionNotFound.
        """
        key = f"{agent_id}/{call.connection}"
        cached = self._clients.connection_rows.get(key)
        now = time.monotonic()
        if cached is not None and now - cached[0] < CONNECTION_TTL_S:
            return cached[1]
        row: dict[str, Any] = (await connection_row(self._graph, agent_id, call.connection))[
            "connection"
        ]
        self._clients.connection_rows[key] = (now, row)
        return row
