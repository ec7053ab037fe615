"""Action nodes: one per tool call a turn asks for, with what was sent, what came back (a
bounded summary), its status and duration, linked to the tool, the decision, the episode, the
approval and the beliefs the outcome moved. Written inside the turn's transaction."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from app.graph.agent_scope import require_agent
from app.graph.client import GraphClient, Transaction
from app.reasoning.protocol import ExecutionResult, ToolCall
from app.tools.models import ActionPublic, ActionsPublic, ActionStatus


def action_status(
    mode: str, execution: ExecutionResult | None, outcome: str, pending: bool, rejected: bool
) -> ActionStatus:
    if rejected:
        return "rejected"
    if mode == "blocked":
        return "refused"
    if pending:
        return "pending"
    if execution is None or execution.status == "recorded_not_executed":
        return "not_executed"
    return "succeeded" if outcome == "success" else "failed"


def result_fields(execution: ExecutionResult | None) -> dict[str, Any]:
    if execution is None:
        return {"duration_ms": None, "result": None, "is_error": None}
    output = execution.output
    duration = output.get("duration_ms")
    return {
        "duration_ms": float(duration) if isinstance(duration, int | float) else None,
        "result": str(output.get("content") or output.get("error") or execution.message)[:100_000],
        "is_error": bool(output.get("is_error")) if "is_error" in output else None,
    }


def action_params(
    action_id: str,
    call: ToolCall,
    *,
    status: ActionStatus,
    mode: str,
    execution: ExecutionResult | None,
    decision_id: str | None,
    episode_id: str,
    approval_id: str | None,
    moved: list[str],
) -> dict[str, Any]:
    """The ``action`` parameter of the query that records a tool call's turn
    (``loop/tool_turns/record_call``: the Action, what was sent and what came of it)."""
    return {
        "id": action_id,
        "qualified_name": call.qualified_name,
        "connection": call.connection,
        "tool": call.tool,
        "arguments": json.dumps(call.arguments, default=str),
        "status": status,
        "mode": mode,
        "decision_id": decision_id,
        "episode_id": episode_id,
        "approval_id": approval_id,
        "moved": moved,
        **result_fields(execution),
    }


async def complete_approved_action_in(
    tx: Transaction,
    agent_id: str,
    approval_id: str,
    call: ToolCall | None,
    *,
    status: ActionStatus,
    execution: ExecutionResult | None,
    episode_id: str,
    moved: list[str],
    now: datetime,
) -> str | None:
    rows = await tx.run(
        "tools/complete_approved_action",
        agent_id=agent_id,
        approval_id=approval_id,
        now=now,
        action={
            "arguments": json.dumps(call.arguments, default=str) if call else None,
            "status": status,
            "episode_id": episode_id,
            "moved": moved,
            **result_fields(execution),
        },
    )
    return str(rows[0]["id"]) if rows else None


async def expire_pending_actions_in(
    tx: Transaction, agent_id: str, approval_ids: list[str], now: datetime
) -> list[str]:
    """Inside the caller's transaction (holding the agent lock): the calls still pending on
    approvals that expired unanswered become ``not_executed`` at ``now``; their ids."""
    if not approval_ids:
        return []
    rows = await tx.run(
        "tools/expire_pending_actions", agent_id=agent_id, approval_ids=approval_ids, now=now
    )
    return [str(row["id"]) for row in rows]


def action_public(row: dict[str, Any]) -> ActionPublic:
    arguments = row.get("arguments")
    return ActionPublic(
        id=row["id"],
        connection=row.get("connection") or "",
        tool=row.get("tool") or "",
        arguments=json.loads(arguments) if arguments else {},
        status=row.get("status") or "not_executed",
        mode=row.get("mode"),
        duration_ms=row.get("duration_ms"),
        result=row.get("result"),
        is_error=row.get("is_error"),
        decision_id=row.get("decision_id"),
        approval_id=row.get("approval_id"),
        episode_id=row.get("episode_id"),
        created_at=_native(row.get("created_at")),
        completed_at=_native(row.get("completed_at")),
    )


def _native(value: Any) -> datetime | None:
    native = value.to_native() if hasattr(value, "to_native") else value
    return native if isinstance(native, datetime) else None


async def list_actions(
    graph: GraphClient,
    agent_id: str,
    *,
    status: str | None = None,
    tool: str | None = None,
    skip: int = 0,
    limit: int = 50,
) -> ActionsPublic:
    """The agent's tool calls, newest first.

    Raises:
        AgentNotFound.
    """
    await require_agent(graph, agent_id)
    rows = await graph.read(
        "tools/list_actions",
        agent_id=agent_id,
        status=status,
        qualified_name=tool,
        skip=skip,
        limit=limit,
    )
    data = [action_public(row["action"]) for row in rows]
    return ActionsPublic(data=data, count=len(data))
