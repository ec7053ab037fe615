"""A turn's work unit as a task of working memory (seed 000's task states, docs/memory.md §4),
moved by what the loop does with it:

- a turn that plans a work unit opens a task in ``planning``;
- autonomous: ``executing``, then ``completed`` (executed and verified) or ``blocked`` (the
  call failed, no executor or connection could run it, verification escalated to a person);
- guidance or proposal: ``awaiting_input`` while its approval waits for a person;
- refused by the guardian: ``cancelled``;
- resumed: approved, modified or answered → ``executing`` → ``completed`` / ``blocked``;
  rejected (or refused by the guardian on the way) → ``cancelled``;
- the approval expired (noticed by the scheduler's ``approval_expiry`` job, or by an answer
  that comes too late): ``cancelled`` (``app/loop/approvals.py``, ``expire_overdue``).

Each transition is recorded with the turn's time (the injected clock) and its cause, in the
turn's own transaction (a tool call that asks no one: in its memory's, app/loop/call_memory.py,
with the call's time). A turn that revises or asks for nothing has no task.
"""

from __future__ import annotations

from datetime import datetime

from app.graph.client import Transaction
from app.loop.approvals import ANSWERED_STATUS
from app.loop.models import ApprovalPublic
from app.loop.paused_turn import Resumption
from app.loop.planning import PlannedTurn
from app.memory.settings import MemoryMechanics
from app.memory.working_memory import TaskDraft, TaskState, move_task_in, open_task_in
from app.reasoning.protocol import ExecutionResult, Verification

Move = tuple[TaskState, str]


def outcome_move(execution: ExecutionResult, verification: Verification | None) -> Move:
    """Where executing ends: completed when the work ran and verified, else blocked."""
    detail = (execution.message or "").strip().rstrip(".")
    if execution.status == "recorded_not_executed":
        return "blocked", f"nothing could run it: {detail or 'no executor'}"
    if execution.status == "failed":
        return "blocked", f"the execution failed: {detail or 'no message'}"
    if verification is not None and (not verification.is_valid or verification.action != "proceed"):
        issues = "; ".join(issue.description for issue in verification.issues[:2])
        return "blocked", f"verification {verification.action}: {issues or 'not valid'}"
    return "completed", "executed and verified"


def turn_moves(turn: PlannedTurn, approval: ApprovalPublic | None) -> list[Move]:
    """The transitions of a fresh turn's task; none for a turn without a work unit to act on
    (no request, or a revision)."""
    plan = turn.plan
    unit = plan.work_unit
    if unit is None or plan.mode == "revision":
        return []
    why = plan.reasons[0] if plan.reasons else plan.mode
    moves: list[Move] = [("planning", f"{unit.verb} planned in a {turn.activation.frame} turn")]
    if plan.mode == "blocked":
        refused = plan.reasons[-1] if plan.reasons else "the guardian refused it"
        moves.append(("cancelled", f"refused: {refused}"))
    elif approval is not None:
        moves.append(("awaiting_input", f"{plan.mode}: approval {approval.id} waits ({why})"))
    elif plan.mode == "autonomous":
        moves.append(("executing", f"autonomous: {why}"))
        if plan.execution is not None:
            moves.append(outcome_move(plan.execution, plan.verification))
    return moves


def resumption_moves(run: Resumption) -> list[Move]:
    """The transitions of a paused turn's task once a person answered its approval."""
    answer = run.answer
    who = run.answer.speaker or (run.state.request.speaker if run.state else None)
    by = f" by {who}" if who else ""
    if run.rejected:
        text = f": {answer.text}" if answer.text else ""
        return [("cancelled", f"rejected{by}{text}")]
    moves: list[Move] = [("executing", f"{ANSWERED_STATUS[answer.action]}{by}")]
    if run.mode == "blocked":
        reason = run.guardian.reason or "a censor matched the work"
        moves.append(("cancelled", f"refused by the guardian: {reason}"))
    elif run.execution is not None:
        moves.append(outcome_move(run.execution, run.verification))
    return moves


async def open_turn_task_in(
    tx: Transaction,
    turn: PlannedTurn,
    approval: ApprovalPublic | None,
    mechanics: MemoryMechanics,
    now: datetime,
) -> None:
    """Inside the turn's transaction: the task of its work unit, with its transitions so far."""
    task = turn_task(turn, approval)
    if task is not None:
        await open_task_in(tx, turn.agent_id, task[0], task[1], mechanics, now)


def turn_task(
    turn: PlannedTurn, approval: ApprovalPublic | None
) -> tuple[TaskDraft, list[Move]] | None:
    """The task of the turn's work unit and its transitions so far; None without one."""
    moves = turn_moves(turn, approval)
    unit = turn.plan.work_unit
    if not moves or unit is None:
        return None
    draft = TaskDraft(
        description=unit.description[:2000] or unit.verb,
        source="turn",
        verb=unit.verb,
        approval_id=approval.id if approval is not None else None,
    )
    return draft, moves


async def move_resumed_task_in(tx: Transaction, run: Resumption, now: datetime) -> None:
    """Inside the resumed turn's transaction: its task moved by the answer and what came of it."""
    await move_task_in(tx, run.agent_id, run.stored.public.id, resumption_moves(run), now)
