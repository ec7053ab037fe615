"""Seed 002's structural surprise of failed work (app/loop/episode_rows.py)."""

from __future__ import annotations

from app.loop.episode_rows import error_surprise
from app.reasoning.protocol import ExecutionResult, ToolCall, WorkUnit

UNIT = WorkUnit(verb="reconcile", description="Reconcile the Chase account")
CALL = WorkUnit(
    verb="call_tool",
    description="Insert the invoice",
    call=ToolCall(connection="ledger", tool="write_query", arguments={"query": "INSERT"}),
)


def test_failed_work_surprises_more_than_a_failed_tool_call() -> None:
    failed = ExecutionResult(status="failed", message="boom")
    assert error_surprise(failed, UNIT) == 0.9
    assert error_surprise(failed, CALL) == 0.3
    assert error_surprise(ExecutionResult(status="executed"), CALL) == 0.0
    assert error_surprise(None, None) == 0.0
