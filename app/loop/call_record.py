"""The write phase of a turn that calls a tool (the ``call`` syntax, ``POST /actions``, Claude's
tool use or the offline route to a tool): what the call is, recorded before its answer, in one
transaction under the agent's lock — the approval when the call waits for a person, then in one
query (``loop/tool_turns/record_call``) the decision with its reasons and the Action with what
was sent and what came of it.

What the call teaches and its episode are its memory: written right after the answer
(app/loop/call_memory.py), from what the Action holds until then. A call's turn carries no
evidence and learns no claim (its message is the call), so it moves no tension and revises
nothing; a belief already at the threshold is revised by the next turn that reads it.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.beliefs.models import RevisionOutcome
from app.errors import AgentNotFound
from app.graph.agent_scope import lock_agent
from app.graph.client import Transaction
from app.loop.acting import outcome_of
from app.loop.call_memory import CallMemory
from app.loop.decisions import decision_params
from app.loop.episode_rows import responded, surprise, turn_actions, turn_params
from app.loop.models import ApprovalPublic, TurnResult
from app.loop.planning import PlannedTurn
from app.loop.recording import TurnRecorder, write_then_emit
from app.loop.responses import turn_response
from app.loop.results import TurnWritten, turn_result
from app.loop.services import LoopServices
from app.loop.turn_memory import OutcomeLesson, turn_lesson
from app.loop.write_phase import Aftermath, ask_a_person, question_for, turn_conduct
from app.reasoning.protocol import Reply
from app.tools.actions import action_params, action_status


async def write_call_turn(
    services: LoopServices, recorder: TurnRecorder, turn: PlannedTurn
) -> tuple[TurnResult, Aftermath]:
    """Records the call (see the module docstring), with its answer asked before; the
    Aftermath names the Action whose memory is written after the answer. A call that asks a
    person writes its approval and its record in one transaction; any other call's record is
    one query, its own transaction (the lock included: one round trip).

    Raises:
        ReasonerFailed (respond) and CredenceError (the graph): nothing is written.
    """
    plan, activation = turn.plan, turn.activation
    history_turns = services.settings.loop.history_turns_answer
    question = question_for(plan, activation)
    request = turn_response(turn, RevisionOutcome(), question, history_turns)
    reply = await recorder.judge("respond", services.reasoner.respond(request))
    ids = _CallIds(str(uuid.uuid4()), str(uuid.uuid4()), str(uuid.uuid4()))
    if question is not None:
        result = await write_then_emit(
            services.graph,
            recorder,
            lambda tx, held: _record_asking(tx, services, held, turn, reply, ids),
            action="recording a tool call",
        )
    else:
        params = _record_params(services, recorder, turn, reply, ids, None)
        if not await services.graph.write_alone("loop/tool_turns/record_call", **params):
            raise AgentNotFound(turn.agent_id)
        result = await _recorded(recorder, turn, reply, ids, None)
    return result, Aftermath(
        dissatisfaction=activation.dissatisfaction.value, streak=0, call_memory=ids.action
    )


@dataclass(frozen=True, slots=True)
class _CallIds:
    """The ids of what a call's turn records (its episode is written after the answer)."""

    episode: str
    decision: str
    action: str


async def _record_asking(
    tx: Transaction,
    services: LoopServices,
    recorder: TurnRecorder,
    turn: PlannedTurn,
    reply: Reply,
    ids: _CallIds,
) -> TurnResult:
    """In the caller's transaction: the agent's lock, the question to a person, then the
    decision and the Action with the call's memory."""
    await lock_agent(tx, turn.agent_id)
    approval, _ = await ask_a_person(
        tx, services.settings.loop, recorder, turn, ids.decision, ids.episode
    )
    params = _record_params(services, recorder, turn, reply, ids, approval)
    if not await tx.run("loop/tool_turns/record_call", **params):
        raise AgentNotFound(turn.agent_id)
    return await _recorded(recorder, turn, reply, ids, approval)


def _record_params(
    services: LoopServices,
    recorder: TurnRecorder,
    turn: PlannedTurn,
    reply: Reply,
    ids: _CallIds,
    approval: ApprovalPublic | None,
) -> dict[str, Any]:
    """The parameters of ``loop/tool_turns/record_call``: the decision, the Action and the
    call's memory."""
    settings, plan = services.settings, turn.plan
    unit = plan.work_unit
    assert unit is not None and unit.call is not None  # a tool call's unit is the call
    now = services.clock.now()
    lesson = turn_lesson(turn, outcome_of(plan.execution, plan.verification), settings.loop)
    moved = lesson.belief_ids if lesson.outcome != "neutral" else []
    approval_id = approval.id if approval is not None else None
    memory = _memory_of(
        turn,
        lesson,
        ids,
        now,
        approval_id,
        turn_params(recorder, reply.text, turn_conduct(turn, False, ids.decision)),
    )
    return {
        "agent_id": turn.agent_id,
        "now": now,
        **decision_params(ids.decision, turn.activation, plan, unit),
        "action": action_params(
            ids.action,
            unit.call,
            status=action_status(
                plan.mode, plan.execution, lesson.outcome, approval is not None, False
            ),
            mode=plan.mode,
            execution=plan.execution,
            decision_id=ids.decision,
            episode_id=ids.episode,
            approval_id=approval_id,
            moved=moved,
        ),
        "memory": memory.model_dump_json(),
    }


async def _recorded(
    recorder: TurnRecorder,
    turn: PlannedTurn,
    reply: Reply,
    ids: _CallIds,
    approval: ApprovalPublic | None,
) -> TurnResult:
    """The turn's result once its record is written (its phases marked, its answer streamed)."""
    await recorder.phase("episode", episode_id=ids.episode)
    await recorder.phase("learn", tension_changes=0)
    await responded(recorder, reply.text)
    written = TurnWritten(ids.episode, reply, ids.decision, [], RevisionOutcome(), approval, [], [])
    result = turn_result(turn, recorder, written)
    result.action_id = ids.action
    return result


def _memory_of(
    turn: PlannedTurn,
    lesson: OutcomeLesson,
    ids: _CallIds,
    now: datetime,
    approval_id: str | None,
    completion: dict[str, Any],
) -> CallMemory:
    """What the call's memory is written from (app/loop/call_memory.py); ``completion``: the
    answer and how the turn ran, for its episode."""
    request, plan, activation = turn.request, turn.plan, turn.activation
    return CallMemory(
        episode_id=ids.episode,
        decision_id=ids.decision,
        approval_id=approval_id,
        occurred_at=now,
        speaker=request.speaker,
        message=request.message,
        session=request.session,
        mentioned=list(plan.mentioned),
        frame=activation.frame,
        actions=turn_actions(plan),
        about=[activation.relevant.id] if activation.relevant else [],
        surprise=surprise(plan, activation),
        lesson=lesson,
        turn=completion,
    )
