"""Resuming a turn that waited for a person (``POST /approvals/{aid}``): the stored turn state
comes back from Neo4j, so this works through any API process and after a restart.

approve → the proposed work unit runs (execute → verify → learn); modify → the person's unit
runs instead; answer → the person's guidance shapes a new unit that runs; reject → nothing runs,
the belief that decided the mode takes a failure (rejection is learned from) and a rejection that
says "never" teaches the guardian a warn censor for that kind of action.
As in a turn, the reading and judging come first and the writes are one transaction.
"""

from __future__ import annotations

import logging
import re
import uuid
from dataclasses import dataclass, replace

from app.agents.store import find_agent_identity
from app.beliefs.revision import observe_turn
from app.embeddings.store import embed_pending
from app.errors import ApprovalAnswerInvalid, ApprovalClosed, CredenceError, InvalidInput
from app.guardian.audit import work_unit_text
from app.guardian.censors import learn_censor
from app.guardian.learning import rejected_action_pattern, rejection_reason
from app.loop.acting import execute_and_verify, unverified
from app.loop.activation import read_history
from app.loop.approvals import (
    StoredApproval,
    TurnState,
    check_authority,
    claim,
    close_after_work,
    expire_overdue,
    get_approval,
    modified_unit,
    release,
)
from app.loop.guarding import refuses
from app.loop.learning import plan_guidance
from app.loop.models import ApprovalAnswer, TurnResult
from app.loop.paused_turn import Resumption
from app.loop.recording import (
    Emit,
    ReasonerFailed,
    TurnRecorder,
    silent,
    turn_done,
    turn_failed,
)
from app.loop.services import LoopServices
from app.loop.write_phase import write_resumption
from app.reasoning.protocol import WorkRequest, WorkUnit
from app.seeds.skills import stored_skill
from app.tools.argument_check import check_finite_arguments, check_stored_arguments
from app.tools.calls import gone, not_called

log = logging.getLogger(__name__)

_ACTIONS_BY_KIND = {
    "guidance": ("answer", "reject"),
    "proposal": ("approve", "modify", "answer", "reject"),
    "revision": ("reject",),
}
# An approval of a tool call, guidance or proposal: guidance text cannot shape a call (no
# reasoner turns it into other arguments: the unit it shaped called nothing, "recorded, not
# executed"), so the call is approved as it is, modified, or rejected.
_TOOL_CALL_ACTIONS = ("approve", "modify", "reject")
_NEVER = re.compile(r"\b(never|don't ever|do not ever|must not|mustn't)\b", re.IGNORECASE)


def _validate(stored: StoredApproval, answer: ApprovalAnswer) -> None:
    """Refuses an answer that does not fit the approval, before the approval is claimed.

    Raises:
        ApprovalAnswerInvalid; InvalidInput (a modified call's argument is a number that is not
        finite: refused here, as its schema check after the claim would, so that nothing of it
        is written).
    """
    invalid = _why_invalid(stored, answer) or _why_modified_call_invalid(stored, answer)
    if invalid is not None:
        why, field = invalid
        raise ApprovalAnswerInvalid(
            stored.public.id, stored.public.kind, answer.action, why, ("body", *field.split("."))
        )
    if answer.action == "modify" and answer.work_unit and answer.work_unit.call:
        check_finite_arguments(answer.work_unit.call, ("body", "work_unit", "call"))


def _why_modified_call_invalid(
    stored: StoredApproval, answer: ApprovalAnswer
) -> tuple[str, str] | None:
    """A modified unit calls the tool proposed, or none when none was: the call's Action, the
    belief its outcome moves and the tool's count of successes are the proposed tool's, so a
    call of another tool (or a call where none was proposed, or none where one was) would be
    recorded as a call that did not run."""
    if answer.action != "modify" or answer.work_unit is None:
        return None
    proposed = stored.public.work_unit.call if stored.public.work_unit else None
    modified = answer.work_unit.call
    if proposed is None and modified is not None:
        return "the proposal calls no tool: a tool call is asked for on its own", "work_unit.call"
    if proposed is not None and modified is None:
        return (
            f"a modified call calls the tool proposed ({proposed.qualified_name})",
            "work_unit.call",
        )
    if proposed is None or modified is None or modified.qualified_name == proposed.qualified_name:
        return None
    return (
        f"a modified call calls the tool proposed ({proposed.qualified_name}), not "
        f"{modified.qualified_name}: another tool's call is asked for on its own",
        "work_unit.call.tool",
    )


def _why_invalid(stored: StoredApproval, answer: ApprovalAnswer) -> tuple[str, str] | None:
    """Why the answer does not fit the approval, and the answer's field that is wrong or
    missing (dotted); None when it fits."""
    approval = stored.public
    call = approval.work_unit.call if approval.work_unit is not None else None
    allowed = _ACTIONS_BY_KIND.get(approval.kind, ()) if call is None else _TOOL_CALL_ACTIONS
    if answer.action not in allowed:
        if call is not None:
            return _call_not_answered(call.qualified_name), "action"
        return (
            "an immutable belief is never revised through the loop; reject keeps it"
            if approval.kind == "revision"
            else f"a {approval.kind} approval takes {', '.join(allowed)}"
        ), "action"
    if answer.action == "answer" and not (answer.text and answer.text.strip()):
        return "an answer needs its text", "text"
    if answer.action == "modify" and answer.work_unit is None:
        return "modify needs the modified work_unit", "work_unit"
    if approval.kind != "revision" and stored.state is None:
        return "the approval holds no turn state", "action"
    return None


def _call_not_answered(qualified_name: str) -> str:
    return (
        f"an approval of a tool call ({qualified_name}) takes approve, modify or reject: an "
        "answer's text cannot change the call; approve runs it as proposed, modify (with the "
        "work_unit, its call's arguments changed) runs yours instead"
    )


async def resume_approval(
    services: LoopServices,
    agent_id: str,
    approval_id: str,
    answer: ApprovalAnswer,
    emit: Emit = silent,
) -> TurnResult:
    """Answers a pending approval and finishes its turn.

    Raises:
        AgentNotFound, ApprovalNotFound, ApprovalClosed (answered before, or expired),
        ApprovalAnswerInvalid, ApprovalNotAuthorized (the answerer lacks the authority: nothing
        written, the approval stays pending), TurnFailed (nothing written).
    """
    # The proposal's memory (a tool call's, written after its answer) comes first.
    await services.call_memories.settled(agent_id)
    stored = await get_approval(services.graph, agent_id, approval_id)
    if stored.public.status not in ("pending", "resuming", "expired"):
        raise ApprovalClosed(approval_id, stored.public.status)
    if stored.public.status != "expired":
        # A resuming one goes to its claim too: a claim older than its lease (its process
        # died) is taken over there, a live one refused.
        _validate(stored, answer)
        # Only the principal, or a person with the authority it needs, answers it.
        speaker = answer.speaker or (stored.state.request.speaker if stored.state else None)
        await check_authority(services.graph, services.settings.loop, agent_id, stored, speaker)
    # Claimed before anything runs (this also writes "expired" on an approval past its time).
    claim_id = str(uuid.uuid4())
    try:
        await claim(
            services.graph,
            agent_id,
            approval_id,
            claim_id,
            services.settings.loop.approval_claim_lease_s,
        )
    except ApprovalClosed as closed:
        if closed.details.get("status") == "expired":
            # Its task will not be done: it stops awaiting input (and so do those of the
            # agent's other approvals that expired meanwhile).
            await expire_overdue(
                services.graph,
                agent_id,
                services.clock.now(),
                services.settings.loop.approval_claim_lease_s,
            )
        raise
    progress = _Progress()
    try:
        run = Resumption(agent_id=agent_id, stored=stored, answer=answer, claim_id=claim_id)
        return await _resume_claimed(services, run, emit, progress)
    except BaseException as error:
        if not progress.worked:
            # Nothing of the resumption was written or run: the approval is pending again.
            await release(services.graph, agent_id, approval_id, claim_id)
            raise
        # The work ran (a tool call may have written somewhere): a second answer must not run
        # it again, so the approval closes with its answer, the failure in its response.
        log.error("approval %s: its work ran but its turn was not written: %r", approval_id, error)
        await close_after_work(
            services.graph,
            agent_id,
            approval_id,
            claim_id,
            answer,
            f"the work ran, its turn was not written: {type(error).__name__}: {error}"[:2000],
        )
        raise


@dataclass(slots=True)
class _Progress:
    """How far a resumption got: ``worked`` once an executor ran its work unit (whatever came
    of it; a unit recorded without an executor did nothing)."""

    worked: bool = False


async def _resume_claimed(
    services: LoopServices, run: Resumption, emit: Emit, progress: _Progress
) -> TurnResult:
    recorder = TurnRecorder(emit=emit)
    try:
        run = await _remember(services, run)
        run = await _act_on_answer(services, recorder, run)
        progress.worked = (
            run.execution is not None and run.execution.status != "recorded_not_executed"
        )
        run = await _plan_guidance(services, run)
        result = await write_resumption(services, recorder, run)
    except ReasonerFailed as failure:
        raise await turn_failed(emit, run.agent_id, failure) from failure
    await _after_resumption(services, run)
    return await turn_done(emit, result)


async def _remember(services: LoopServices, run: Resumption) -> Resumption:
    """The paused turn's session so far, the skill the agent works under and, when a model
    reasons, the identity document."""
    session = run.state.request.session if run.state else None
    history = await read_history(services.graph, services.settings.loop, run.agent_id, session)
    agent = await find_agent_identity(services.graph, run.agent_id)
    skill = stored_skill(agent.get("skill")) if agent else None
    identity = (
        await services.identity.markdown(services.graph, run.agent_id)
        if services.reasoner.name != "offline"
        else None
    )
    return replace(run, history=history, identity=identity, skill=skill)


async def _plan_guidance(services: LoopServices, run: Resumption) -> Resumption:
    """A guidance answer becomes a belief of the agent (seed 000: "Learned: …" at 0.5), or
    reinforces the belief it repeats."""
    text, state = run.answer.text, run.state
    if run.answer.action != "answer" or not text or state is None or run.mode == "blocked":
        return run
    learning = await plan_guidance(
        services.graph,
        services.embedder,
        services.settings,
        run.agent_id,
        text,
        state.request.message,
    )
    return replace(run, learning=learning)


async def _act_on_answer(
    services: LoopServices, recorder: TurnRecorder, run: Resumption
) -> Resumption:
    """Runs the work the answer allows (none for a rejection, or without a turn state): the
    unit past the guardian, executed and verified. Writes nothing but what the executor does.

    Raises:
        ApprovalAnswerInvalid: no work unit to run; ReasonerFailed.
    """
    state = run.state
    if state is None or run.rejected:
        return run
    unit = await _unit_to_run(services, recorder, run, state)
    if unit.call is not None:
        # Nothing has run yet: a refusal leaves the approval pending (a 422 naming the argument).
        modified = run.answer.action == "modify"
        where = ("body", "work_unit", "call") if modified else ("approval", "work_unit", "call")
        if not await check_stored_arguments(services.graph, run.agent_id, unit.call, where):
            # Its connection was removed (or no longer offers it) while it waited: not made.
            execution = not_called(unit.call, gone(unit.call))
            await recorder.phase("execute", status=execution.status)
            return replace(run, unit=unit, execution=execution, verification=unverified(execution))
    guardian = await services.guard.check(run.agent_id, work_unit_text(unit))
    if refuses(guardian):
        return replace(run, unit=unit, guardian=guardian, mode="blocked")
    execution, verification = await execute_and_verify(
        services, recorder, run.agent_id, unit, skill=run.skill
    )
    await recorder.phase("execute", status=execution.status)
    return replace(
        run, unit=unit, guardian=guardian, execution=execution, verification=verification
    )


async def _unit_to_run(
    services: LoopServices, recorder: TurnRecorder, run: Resumption, state: TurnState
) -> WorkUnit:
    """The proposed unit (approve), the person's (modify), or one shaped by their guidance
    (answer).

    Raises:
        ApprovalAnswerInvalid: there is none.
    """
    answer = run.answer
    unit: WorkUnit | None
    if answer.action == "approve":
        unit = run.stored.public.work_unit
    elif answer.action == "modify":
        # The person's call, described as it will run (not in the proposal's words).
        unit = modified_unit(answer)
    else:
        unit = await recorder.judge(
            "propose_work_unit",
            services.reasoner.propose_work_unit(
                WorkRequest(
                    message=state.request.message,
                    frame=state.frame,
                    appraisal=state.appraisal,
                    guidance=answer.text,
                    history=run.history[-services.settings.loop.history_turns_answer :],
                    identity=run.identity,
                    skill=run.skill,
                )
            ),
        )
    if unit is None:
        raise ApprovalAnswerInvalid(
            run.stored.public.id, run.stored.public.kind, answer.action, "no work unit to run"
        )
    return unit


async def _after_resumption(services: LoopServices, run: Resumption) -> None:
    """A rejection that says "never" teaches the guardian (≤ 3 learned per session); the
    runaway guard counts the turn, and a belief it learned is embedded. A censor that cannot be
    learned does not keep the turn from being counted."""
    await _learn_from_rejection(services, run)
    try:
        await observe_turn(
            services.graph, services.settings.mechanics, services.reasoner, run.agent_id
        )
        if any(new.duplicate_of is None for new in run.learning):
            # The learned belief was written without a vector: embed it for the next turns.
            await embed_pending(services.graph, services.embedder, run.agent_id)
    except (CredenceError, InvalidInput):
        log.exception("after-resumption bookkeeping failed for approval %s", run.stored.public.id)


async def _learn_from_rejection(services: LoopServices, run: Resumption) -> None:
    """A censor learned from a rejection that says "never"; one that cannot be learned (its
    pattern refused, the agent gone) is logged and left."""
    stored, answer = run.stored, run.answer
    proposed = run.unit or stored.public.work_unit
    if not (
        answer.action == "reject"
        and answer.text
        and _NEVER.search(answer.text)
        and proposed is not None
    ):
        return
    session = (stored.state.request.session if stored.state else None) or "approvals"
    try:
        learned = await learn_censor(
            services.graph,
            run.agent_id,
            session,
            rejected_action_pattern(proposed),
            rejection_reason(answer.text),
            "warn",
            settings=services.settings.guardian,
        )
    except (CredenceError, InvalidInput):
        log.exception("censor learning after rejection failed for approval %s", stored.public.id)
        return
    log.info("censor learning after rejection: %s", learned.message)
