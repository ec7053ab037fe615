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
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from app.beliefs.models import OutcomeIn
from app.beliefs.revision import observe_turn
from app.beliefs.updates import apply_outcome_in
from app.errors import (
    ApprovalAnswerInvalid,
    ApprovalClosed,
    CredenceError,
    InvalidInput,
    TurnFailed,
)
from app.graph.agent_scope import lock_agent
from app.graph.client import Transaction
from app.guardian.censors import learn_censor
from app.loop.acting import describe_execution, execute_and_verify, moral_valence, outcome_of
from app.loop.approvals import StoredApproval, claim, get_approval, release, resolve_in
from app.loop.episode_rows import finish_turn_episode_in, is_person, turn_episode_row
from app.loop.models import (
    ApprovalAnswer,
    DissatisfactionView,
    GuardianReport,
    TurnEvent,
    TurnMode,
    TurnResult,
)
from app.loop.prompting import system_prompt_for
from app.loop.recording import Emit, ReasonerFailed, TurnRecorder, silent
from app.loop.services import LoopServices
from app.memory.episodes import write_episodes_in
from app.memory.people import meet_in
from app.memory.self_model import CapabilityOutcome, record_capability_outcome_in
from app.reasoning.protocol import (
    BeliefBrief,
    ExecutionResult,
    Reply,
    ResponseRequest,
    Verification,
    WorkRequest,
    WorkUnit,
)

log = logging.getLogger(__name__)

_ACTIONS_BY_KIND = {
    "guidance": ("answer", "reject"),
    "proposal": ("approve", "modify", "answer", "reject"),
    "revision": ("reject",),
}
_STATUS_BY_ACTION = {
    "approve": "approved",
    "modify": "modified",
    "answer": "answered",
    "reject": "rejected",
}
_NEVER = re.compile(r"\b(never|don't ever|do not ever|must not|mustn't)\b", re.IGNORECASE)


@dataclass(slots=True)
class Resumption:
    """A paused turn being finished: the approval, the person's answer, and what was done."""

    stored: StoredApproval
    answer: ApprovalAnswer
    claim_id: str
    unit: WorkUnit | None = None
    mode: TurnMode = "autonomous"
    guardian: GuardianReport = field(default_factory=lambda: GuardianReport(action="allow"))
    execution: ExecutionResult | None = None
    verification: Verification | None = None


def _validate(stored: StoredApproval, answer: ApprovalAnswer) -> None:
    approval = stored.public
    allowed = _ACTIONS_BY_KIND.get(approval.kind, ())
    if answer.action not in allowed:
        why = (
            "an immutable belief is never revised through the loop; reject keeps it"
            if approval.kind == "revision"
            else f"a {approval.kind} approval takes {', '.join(allowed)}"
        )
        raise ApprovalAnswerInvalid(approval.id, approval.kind, answer.action, why)
    if answer.action == "answer" and not (answer.text and answer.text.strip()):
        raise ApprovalAnswerInvalid(
            approval.id, approval.kind, answer.action, "an answer needs its text"
        )
    if answer.action == "modify" and answer.work_unit is None:
        raise ApprovalAnswerInvalid(
            approval.id, approval.kind, answer.action, "modify needs the modified work_unit"
        )
    if approval.kind != "revision" and stored.state is None:
        raise ApprovalAnswerInvalid(
            approval.id, approval.kind, answer.action, "the approval holds no turn state"
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
        ApprovalAnswerInvalid, TurnFailed (nothing written).
    """
    stored = await get_approval(services.graph, agent_id, approval_id)
    if stored.public.status not in ("pending", "expired"):
        raise ApprovalClosed(approval_id, stored.public.status)
    if stored.public.status == "pending":
        _validate(stored, answer)
    # Claimed before anything runs (this also writes "expired" on an approval past its time).
    claim_id = str(uuid.uuid4())
    await claim(
        services.graph,
        agent_id,
        approval_id,
        claim_id,
        services.settings.loop.approval_claim_lease_s,
    )
    try:
        return await _resume_claimed(
            services, agent_id, approval_id, claim_id, stored, answer, emit
        )
    except BaseException:
        # Nothing of the resumption was written: the approval is pending again.
        await release(services.graph, agent_id, approval_id, claim_id)
        raise


async def _resume_claimed(
    services: LoopServices,
    agent_id: str,
    approval_id: str,
    claim_id: str,
    stored: StoredApproval,
    answer: ApprovalAnswer,
    emit: Emit,
) -> TurnResult:
    recorder = TurnRecorder(emit=emit)
    state = stored.state
    run = Resumption(stored=stored, answer=answer, claim_id=claim_id)
    try:
        if state is not None and answer.action != "reject":
            if answer.action == "approve":
                run.unit = stored.public.work_unit
            elif answer.action == "modify":
                run.unit = answer.work_unit
            else:
                run.unit = await recorder.judge(
                    "propose_work_unit",
                    services.reasoner.propose_work_unit(
                        WorkRequest(
                            message=state.request.message,
                            frame=state.frame,
                            appraisal=state.appraisal,
                            guidance=answer.text,
                        )
                    ),
                )
            if run.unit is None:
                raise ApprovalAnswerInvalid(
                    approval_id, stored.public.kind, answer.action, "no work unit to run"
                )
            run.guardian = await services.guard.check(agent_id, run.unit.description)
            if run.guardian.action in ("block", "absolute"):
                run.mode = "blocked"
            else:
                run.execution, run.verification = await execute_and_verify(
                    services, recorder, agent_id, run.unit
                )
                await recorder.phase("execute", status=run.execution.status)
        result = await services.graph.write_transaction(
            lambda tx: _record_resumption(tx, services, recorder, agent_id, run),
            action="resuming a turn",
        )
    except ReasonerFailed as failure:
        await emit(TurnEvent(type="error", data={"phase": failure.phase, "cause": failure.cause}))
        raise TurnFailed(agent_id, failure.phase, failure.cause) from failure
    await _after_resumption(services, agent_id, stored, answer, run.unit)
    await emit(TurnEvent(type="done", data={"turn_id": result.turn_id, "mode": result.mode}))
    return result


async def _after_resumption(
    services: LoopServices,
    agent_id: str,
    stored: StoredApproval,
    answer: ApprovalAnswer,
    unit: WorkUnit | None,
) -> None:
    """A rejection that says "never" teaches the guardian (≤ 3 learned per session); the
    runaway guard counts the turn."""
    try:
        proposed = unit or stored.public.work_unit
        if (
            answer.action == "reject"
            and answer.text
            and _NEVER.search(answer.text)
            and proposed is not None
        ):
            session = (stored.state.request.session if stored.state else None) or "approvals"
            pattern = rf"(?i)\b{re.escape(proposed.verb.replace('_', ' '))}\b"
            if proposed.entities:
                pattern += rf".*\b{re.escape(proposed.entities[0])}\b"
            learned = await learn_censor(
                services.graph,
                agent_id,
                session,
                pattern,
                f"learned from a rejection: {answer.text}",
                "warn",
                settings=services.settings.guardian,
            )
            log.info("censor learning after rejection: %s", learned.message)
        await observe_turn(services.graph, services.settings.mechanics, services.reasoner, agent_id)
    except (CredenceError, InvalidInput):
        log.exception("after-resumption bookkeeping failed for approval %s", stored.public.id)


async def _record_resumption(
    tx: Transaction,
    services: LoopServices,
    recorder: TurnRecorder,
    agent_id: str,
    run: Resumption,
) -> TurnResult:
    settings = services.settings
    stored, answer, mode, guardian = run.stored, run.answer, run.mode, run.guardian
    unit, execution, verification = run.unit, run.execution, run.verification
    now = datetime.now(UTC)
    await lock_agent(tx, agent_id)
    approval = (
        await resolve_in(
            tx,
            agent_id,
            stored.public.id,
            run.claim_id,
            _STATUS_BY_ACTION[answer.action],
            {"action": answer.action, "text": answer.text, "speaker": answer.speaker},
        )
    ).public
    state = stored.state
    text = answer.text or f"({answer.action})"
    speaker = answer.speaker or (state.request.speaker if state else None)
    speaker_is_person = is_person(speaker)
    if speaker_is_person and speaker is not None:
        await meet_in(tx, agent_id, speaker, answer.text, settings.memory, now)
    outcome = "failure" if answer.action == "reject" else outcome_of(execution, verification)
    belief_id = state.belief_id if state else stored.public.belief_id
    message = state.request.message if state else ""
    if outcome != "neutral" and belief_id is not None and stored.public.kind != "revision":
        await apply_outcome_in(
            tx,
            settings.mechanics,
            agent_id,
            belief_id,
            OutcomeIn(
                outcome=outcome,
                moral_valence=moral_valence(message, outcome, settings.mechanics.moral_topics),
                severity=settings.loop.rejection_severity if answer.action == "reject" else 0.5,
                context=state.context_name if state else None,
            ),
        )
        if state is not None:
            await record_capability_outcome_in(
                tx,
                agent_id,
                CapabilityOutcome(domain=state.frame, success=outcome == "success"),
                settings.memory,
                now,
            )
    if state is not None and state.decision_id is not None:
        await tx.run(
            "loop/update_decision_outcome",
            agent_id=agent_id,
            decision_id=state.decision_id,
            outcome="rejected" if answer.action == "reject" else outcome,
            execution_status=execution.status if execution else None,
            executor=execution.executor if execution else None,
        )
    episode_id = str(uuid.uuid4())
    vector = await services.embedder.embed_one(text)
    frame = state.frame if state else "conversation"
    await write_episodes_in(
        tx,
        settings.retrieval,
        agent_id,
        [
            turn_episode_row(
                agent_id=agent_id,
                episode_id=episode_id,
                speaker=speaker,
                text=text,
                session=state.request.session if state else None,
                outcome=outcome,
                frame=frame,
                actions=1 + (1 if execution else 0) + (1 if verification else 0),
                about=[belief_id] if belief_id else [],
                vector=vector,
                now=now,
                memory=settings.memory,
            )
        ],
    )
    agent = (await tx.run("agents/get_agent", agent_id=agent_id))[0]["agent"]
    reply = await _respond(services, recorder, agent, run)
    await finish_turn_episode_in(
        tx,
        recorder,
        agent_id,
        episode_id,
        response=reply.text,
        mode=mode,
        dissatisfaction=state.dissatisfaction if state else 0.0,
        revision_triggered=False,
        frame=frame,
        decision_id=state.decision_id if state else None,
    )
    return TurnResult(
        turn_id=episode_id,
        agent_id=agent_id,
        response=reply.text,
        questions=reply.questions,
        mode=mode,
        frame=frame,
        stakes=state.stakes if state else "low",
        dissatisfaction=DissatisfactionView(
            value=state.dissatisfaction if state else 0.0,
            band=state.band if state else "low",
        ),
        guardian=guardian,
        work_unit=unit,
        execution=execution,
        verification=verification,
        decision_id=state.decision_id if state else None,
        approval=approval,
        reasoners=recorder.calls(),
        timings_ms=dict(recorder.timings_ms),
    )


async def _respond(
    services: LoopServices,
    recorder: TurnRecorder,
    agent: dict[str, Any],
    run: Resumption,
) -> Reply:
    stored, answer, mode, guardian = run.stored, run.answer, run.mode, run.guardian
    unit, execution, verification = run.unit, run.execution, run.verification
    state = stored.state
    beliefs = []
    if state is not None and state.belief_id and state.belief_statement:
        beliefs.append(
            BeliefBrief(
                id=state.belief_id,
                statement=state.belief_statement,
                strength=state.belief_strength or 0.5,
            )
        )
    execution_text = (
        "Rejected by the person: nothing was done, and the rejection is learned from."
        if answer.action == "reject"
        else describe_execution(execution, verification, unit)
    )
    return await recorder.judge(
        "respond",
        services.reasoner.respond(
            ResponseRequest(
                message=state.request.message if state else stored.public.question,
                system_prompt=system_prompt_for(agent),
                band=state.band if state else "low",
                dissatisfaction=state.dissatisfaction if state else 0.0,
                mode=mode,
                frame=state.frame if state else "conversation",
                beliefs=beliefs,
                execution=execution_text,
                refusal=guardian.reason if mode == "blocked" else None,
            )
        ),
    )
