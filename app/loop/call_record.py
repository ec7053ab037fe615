"""The write phase of a turn that calls a tool (the ``call`` syntax, ``POST /actions``, Claude's
tool use or the offline route to a tool): what the call is, recorded before its answer under the
agent's lock, in one query (``loop/tool_turns/record_call``: the decision with its reasons and
the Action with what was sent).

- A call that runs (autonomous) is recorded **while it runs**: the record's write is sent, the
  tool is called and verified meanwhile, the answer is asked, and the answer waits for the
  record. The Action is ``running`` until the call's memory, written right after the answer
  (app/loop/call_memory.py), completes it with what came of the call. A turn cancelled while it
  waits for the record (its client gone) leaves the record to be written and the memory to
  follow it, in the background. With ``tools.outcome_before_answer`` it runs first and is
  recorded as below, outcome included.
- A call that asks a person writes its approval and its record in one transaction; any other
  is its record alone, with what came of it. Either leaves its memory on the Action.

A call's turn carries no evidence and learns no claim (its message is the call), so it moves no
tension and revises nothing; a belief already at the threshold is revised by the next turn that
reads it.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.beliefs.models import RevisionOutcome
from app.errors import AgentNotFound, CredenceError
from app.graph.agent_scope import lock_agent
from app.graph.client import Row, Transaction
from app.loop.acting import outcome_of
from app.loop.background import in_background
from app.loop.call_memory import (
    INTERRUPTED,
    INTERRUPTED_AFTER_RUN,
    CallCompletion,
    CallMemory,
    remember_call,
    remember_in_background,
)
from app.loop.decisions import decision_params, finalised_confidence
from app.loop.episode_rows import responded, surprise, turn_actions, turn_params
from app.loop.models import ApprovalPublic, TurnResult
from app.loop.planning import PlannedTurn, execute_planned
from app.loop.recording import TurnRecorder, write_then_emit
from app.loop.responses import turn_response
from app.loop.results import TurnWritten, turn_result
from app.loop.services import LoopServices
from app.loop.turn_memory import OutcomeLesson, turn_lesson, turn_signals
from app.loop.work_tasks import open_turn_task_in, turn_task
from app.loop.write_phase import Aftermath, ask_a_person, question_for, turn_conduct
from app.reasoning.protocol import ExecutionResult, Reply
from app.tools.actions import action_params, action_status, result_fields
from app.tools.models import ActionStatus

log = logging.getLogger(__name__)
_RECORD = "loop/tool_turns/record_call"


async def write_call_turn(
    services: LoopServices, recorder: TurnRecorder, turn: PlannedTurn
) -> tuple[TurnResult, Aftermath]:
    """Runs a call that runs while its record is written, or records one that does not run
    (see the module docstring); the Aftermath names the Action whose memory is written after the
    answer, with the call's outcome when it ran.

    Raises:
        ReasonerFailed (verify, respond) and CredenceError (the graph): nothing is written, or
        a call recorded while it ran keeps what came of it (``interrupted`` when that is not
        known) and teaches nothing.
    """
    plan, activation = turn.plan, turn.activation
    if plan.mode == "autonomous" and plan.execution is None:
        unit = plan.work_unit
        assert unit is not None  # a tool call's unit is the call
        if not services.settings.tools.outcome_before_answer:
            return await _run_while_recording(services, recorder, turn, _new_ids(services))
        await execute_planned(services, recorder, turn.agent_id, plan, unit, turn.activation.skill)
    ids = _new_ids(services)
    question = question_for(plan, activation)
    reply = await _answer(services, recorder, turn, question)
    if question is not None:
        result = await write_then_emit(
            services.graph,
            recorder,
            lambda tx, held: _record_asking(tx, services, held, turn, reply, ids),
            action="recording a tool call",
        )
    else:
        memory = _memory_of(services, recorder, turn, reply, ids, None)
        params = _record_params(services, turn, ids, None, memory)
        recording = asyncio.ensure_future(services.graph.write_alone(_RECORD, **params))
        if not await _recorded_even_if_cancelled(services, turn.agent_id, ids, recording, None):
            raise AgentNotFound(turn.agent_id)
        result = await _recorded(recorder, turn, reply, ids, None)
    return result, Aftermath(
        dissatisfaction=activation.dissatisfaction.value, streak=0, call_memory=ids.action
    )


async def _run_while_recording(
    services: LoopServices, recorder: TurnRecorder, turn: PlannedTurn, ids: _CallIds
) -> tuple[TurnResult, Aftermath]:
    """The record's write (the Action ``running``) sent, the call run and verified and the
    answer asked meanwhile; the answer waits for the record. What came of the call goes to the
    call's memory."""
    plan = turn.plan
    unit = plan.work_unit
    assert unit is not None and unit.call is not None  # a tool call's unit is the call
    recording = asyncio.ensure_future(
        services.graph.write_alone(_RECORD, **_record_params(services, turn, ids, None, None))
    )
    try:
        await execute_planned(services, recorder, turn.agent_id, plan, unit, turn.activation.skill)
        reply = await _answer(services, recorder, turn, None)
    except BaseException as error:
        settling = _settle_failed(services, turn, ids, recording, error)
        if isinstance(error, Exception):
            await settling
        else:  # cancelled: settled once the record is written, whatever happens to the turn
            in_background(settling, "a cancelled tool call's record", settle_on_close=True)
        raise
    # What the call's memory is written from is made while the record's write is in flight.
    memory = _memory_of(services, recorder, turn, reply, ids, None)
    completion = CallCompletion(
        decision=_decision_outcome(turn, ids, memory.lesson),
        action=_action_params(turn, ids, None, memory.lesson),
        now=services.clock.now(),
        memory=memory,
    )
    if not await _recorded_even_if_cancelled(services, turn.agent_id, ids, recording, completion):
        raise AgentNotFound(turn.agent_id)
    try:
        result = await _recorded(recorder, turn, reply, ids, None)
    except BaseException:
        # The answer was made (its listener failed): the call's memory is written all the same.
        remember_in_background(services, turn.agent_id, ids.action, completion)
        raise
    aftermath = Aftermath(
        dissatisfaction=turn.activation.dissatisfaction.value,
        streak=0,
        call_memory=ids.action,
        call_completion=completion,
    )
    return result, aftermath


async def _recorded_even_if_cancelled(
    services: LoopServices,
    agent_id: str,
    ids: _CallIds,
    recording: asyncio.Future[list[Row]],
    completion: CallCompletion | None,
) -> bool:
    """Whether the record's write wrote (no row: the agent is gone). A turn cancelled while it
    waits (its client gone) does not cancel the record of a call that ran or was answered: the
    record is written, then the call's memory (``completion``, else the one the record left on
    the Action), in the background."""
    try:
        return bool(await asyncio.shield(recording))
    except asyncio.CancelledError:
        task = in_background(
            _remember_once_recorded(services, agent_id, ids.action, recording, completion),
            "the memory of a tool call whose turn was cancelled",
            settle_on_close=True,
        )
        services.call_memories.add(agent_id, task)
        raise


async def _remember_once_recorded(
    services: LoopServices,
    agent_id: str,
    action_id: str,
    recording: asyncio.Future[list[Row]],
    completion: CallCompletion | None,
) -> None:
    """The memory of a call whose turn was cancelled while its record was written, once the
    record is (nothing when it could not be: the turn wrote nothing)."""
    try:
        if not await recording:
            return
    except CredenceError:
        log.exception("the record of a tool call whose turn was cancelled could not be written")
        return
    await remember_call(services, agent_id, action_id, completion)


async def _settle_failed(
    services: LoopServices,
    turn: PlannedTurn,
    ids: _CallIds,
    recording: asyncio.Future[list[Row]],
    error: BaseException,
) -> None:
    """The record of a call whose turn failed after the record was sent, once it is written:
    what came of the call when it ran and was verified (nothing learned from it: the turn has
    no memory), else its Action ``interrupted``. A failure here is logged: the turn's own error
    is the one raised."""
    plan, agent_id = turn.plan, turn.agent_id
    try:
        if not await recording:
            return
        if plan.execution is not None and plan.verification is not None:
            lesson = turn_lesson(
                turn, outcome_of(plan.execution, plan.verification), services.settings.loop
            )
            await services.graph.write_alone(
                "loop/tool_turns/complete_call",
                agent_id=agent_id,
                now=services.clock.now(),
                decision=_decision_outcome(turn, ids, lesson),
                action={**_action_params(turn, ids, None, lesson), "moved": []},
                memory=None,
            )
            return
        await services.graph.write_alone(
            "loop/tool_turns/interrupt_call",
            agent_id=agent_id,
            action_id=ids.action,
            now=services.clock.now(),
            why=_why_interrupted(plan.execution, error),
        )
    except CredenceError:
        log.exception("the record of a tool call whose turn failed could not be settled")


def _why_interrupted(execution: ExecutionResult | None, error: BaseException) -> str:
    """The result an interrupted call's Action shows: the failure, and what the tool answered
    when it ran before its verification was made."""
    failure = f"{type(error).__name__}: {error}"
    if execution is None:
        return f"{INTERRUPTED} ({failure})"[:2000]
    answered = result_fields(execution)["result"] or ""
    return (f"{INTERRUPTED_AFTER_RUN} ({failure}); the call was {execution.status}: {answered}")[
        :2000
    ]


def _decision_outcome(turn: PlannedTurn, ids: _CallIds, lesson: OutcomeLesson) -> dict[str, Any]:
    """The ``decision`` parameter of ``loop/tool_turns/complete_call``."""
    execution = turn.plan.execution
    return {
        "id": ids.decision,
        "execution_status": execution.status if execution else None,
        "outcome": lesson.outcome,
        "final_confidence": finalised_confidence(lesson.outcome),
        "executor": execution.executor if execution else None,
    }


async def _answer(
    services: LoopServices, recorder: TurnRecorder, turn: PlannedTurn, question: str | None
) -> Reply:
    history_turns = services.settings.loop.history_turns_answer
    request = turn_response(turn, RevisionOutcome(), question, history_turns)
    return await recorder.judge("respond", services.reasoner.respond(request))


def _new_ids(services: LoopServices) -> _CallIds:
    return _CallIds(str(uuid.uuid4()), str(uuid.uuid4()), str(uuid.uuid4()), services.clock.now())


@dataclass(frozen=True, slots=True)
class _CallIds:
    """The ids of what a call's turn records (its episode is written after the answer), and the
    turn's time."""

    episode: str
    decision: str
    action: str
    at: datetime


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
    memory = _memory_of(services, recorder, turn, reply, ids, approval)
    if not await tx.run(_RECORD, **_record_params(services, turn, ids, approval, memory)):
        raise AgentNotFound(turn.agent_id)
    await open_turn_task_in(tx, turn, approval, services.settings.memory, ids.at)
    return await _recorded(recorder, turn, reply, ids, approval)


def _record_params(
    services: LoopServices,
    turn: PlannedTurn,
    ids: _CallIds,
    approval: ApprovalPublic | None,
    memory: CallMemory | None,
) -> dict[str, Any]:
    """The parameters of ``loop/tool_turns/record_call``: the decision, the Action and the
    call's memory; without a memory, the record of a call about to run (the Action and the
    decision's outcome ``running``)."""
    plan = turn.plan
    unit = plan.work_unit
    assert unit is not None and unit.call is not None  # a tool call's unit is the call
    recorded = decision_params(ids.decision, turn.activation, plan, unit)
    if memory is None:
        recorded["decision"]["outcome"] = "running"
        recorded["decision"]["final_confidence"] = None
        action = _action_params(turn, ids, approval, None)
    else:
        action = _action_params(turn, ids, approval, memory.lesson)
    return {
        "agent_id": turn.agent_id,
        "now": ids.at,
        **recorded,
        "action": action,
        "memory": memory.model_dump_json() if memory is not None else None,
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


def _action_params(
    turn: PlannedTurn,
    ids: _CallIds,
    approval: ApprovalPublic | None,
    lesson: OutcomeLesson | None,
) -> dict[str, Any]:
    """The Action's parameters (``action``): what was sent, and what came of it as ``lesson``
    says (None: the call is about to run)."""
    plan = turn.plan
    assert plan.work_unit is not None and plan.work_unit.call is not None
    status: ActionStatus
    moved: list[str] = []
    if lesson is None:
        status = "running"
    else:
        pending = approval is not None
        status = action_status(plan.mode, plan.execution, lesson.outcome, pending, False)
        if lesson.outcome != "neutral":
            moved = lesson.belief_ids
    return action_params(
        ids.action,
        plan.work_unit.call,
        status=status,
        mode=plan.mode,
        execution=plan.execution if lesson is not None else None,
        decision_id=ids.decision,
        episode_id=ids.episode,
        approval_id=approval.id if approval is not None else None,
        moved=moved,
    )


def _memory_of(
    services: LoopServices,
    recorder: TurnRecorder,
    turn: PlannedTurn,
    reply: Reply,
    ids: _CallIds,
    approval: ApprovalPublic | None,
) -> CallMemory:
    """What the call's memory is written from (app/loop/call_memory.py): the turn, what its
    outcome teaches, and its answer with how the turn ran, for its episode."""
    request, plan, activation = turn.request, turn.plan, turn.activation
    outcome = outcome_of(plan.execution, plan.verification)
    # A call that waits for a person opened its task with its approval (_record_asking).
    task = None if approval is not None else turn_task(turn, None)
    return CallMemory(
        episode_id=ids.episode,
        decision_id=ids.decision,
        approval_id=approval.id if approval is not None else None,
        occurred_at=ids.at,
        speaker=request.speaker,
        message=request.message,
        session=request.session,
        mentioned=list(plan.mentioned),
        frame=activation.frame,
        actions=turn_actions(plan),
        about=[activation.relevant.id] if activation.relevant else [],
        surprise=surprise(plan, activation),
        lesson=turn_lesson(turn, outcome, services.settings.loop),
        turn=turn_params(recorder, reply.text, turn_conduct(turn, False, ids.decision)),
        signals=turn_signals(turn, outcome, ids.episode),
        task=task[0] if task is not None else None,
        task_moves=task[1] if task is not None else [],
    )
