"""One turn of the cognitive loop (DESIGN §6): activate → appraise → route → guidance / proposal
/ autonomous → execute → verify → learn → respond.

Everything that only reads or judges happens first (activation, the reasoner's appraisal,
evidence, routing, the work unit, the executor and its verification). Then the turn's writes
(the people met, the episode, the evidence and its tension, the outcome, revisions of beliefs at
the threshold, the decision and its reasons, the approval, the response) go into **one**
transaction under the agent's lock: a reasoner or Neo4j failure anywhere rolls the whole turn
back, and the caller gets a ``TurnFailed`` naming the phase. Revision runs inside that
transaction, so the turn that pushes a belief over the threshold halts and revises.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from app.beliefs.models import EvidenceForBelief, OutcomeIn, RevisionOutcome, TensionMove
from app.beliefs.revision import observe_turn, revise_tense_in
from app.beliefs.store import lock_agent
from app.beliefs.updates import apply_evidence_in, apply_outcome_in
from app.config import Settings
from app.errors import CredenceError, TurnFailed
from app.graph.client import GraphClient, Transaction
from app.graph.vectors import vector_param
from app.loop.activation import Activation, activate
from app.loop.approvals import TurnState, create_approval_in
from app.loop.executors import ExecutorRegistry
from app.loop.guarding import Guard
from app.loop.models import (
    ApprovalPublic,
    ChatRequest,
    DissatisfactionView,
    GuardianReport,
    ReasonerCalls,
    TurnEvent,
    TurnMode,
    TurnResult,
)
from app.loop.prompting import system_prompt
from app.loop.routing import route
from app.memory.embedding_store import embed_pending
from app.memory.embeddings import Embedder
from app.memory.episodes import AGENT_SPEAKERS, end_sessions, write_episodes_in
from app.memory.people import meet_in, mentioned_people, micro_birth_properties
from app.memory.self_model import CapabilityOutcome, record_capability_outcome_in
from app.memory.text_match import matched_patterns
from app.reasoning.claims import split_claims
from app.reasoning.offline_requests import request_sentence
from app.reasoning.protocol import (
    Appraisal,
    AppraisalRequest,
    AuditRequest,
    BeliefBrief,
    EvidenceRequest,
    ExecutionResult,
    ExtractedEvidence,
    Judgement,
    Reasoner,
    Reply,
    ResponseRequest,
    Verification,
    VerificationIssue,
    VerifyRequest,
    WorkRequest,
    WorkUnit,
)

log = logging.getLogger(__name__)

Emit = Callable[[TurnEvent], Awaitable[None]]
J = TypeVar("J", bound=Judgement)


async def _silent(_: TurnEvent) -> None:
    return None


@dataclass(frozen=True, slots=True)
class LoopServices:
    """What a turn runs on; built once per process (the API's lifespan, the CLI)."""

    graph: GraphClient
    settings: Settings
    reasoner: Reasoner
    embedder: Embedder
    executors: ExecutorRegistry
    guard: Guard


@dataclass(slots=True)
class TurnRecorder:
    """The judgements a turn made (which reasoner, what they cost) and its phase timings."""

    emit: Emit
    judgements: list[tuple[str, Judgement]] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)
    phase_started: float = field(default_factory=time.perf_counter)

    async def judge(self, name: str, call: Awaitable[J]) -> J:
        try:
            answer = await call
        except CredenceError:
            raise
        except Exception as error:  # a reasoner bug must not leave half a turn
            log.exception("reasoner failed in %s", name)
            raise _Failed(name, f"{type(error).__name__}: {error}") from error
        self.judgements.append((name, answer))
        return answer

    async def phase(self, name: str, **data: Any) -> None:
        now = time.perf_counter()
        self.timings_ms[name] = round((now - self.phase_started) * 1000, 2)
        self.phase_started = now
        await self.emit(TurnEvent(type="phase", phase=name, data=data))

    def calls(self) -> ReasonerCalls:
        report = ReasonerCalls()
        for name, answer in self.judgements:
            report.calls.append(f"{name}: {answer.reasoner}")
            if answer.usage is not None:
                report.model_calls += 1
                report.input_tokens += answer.usage.input_tokens
                report.output_tokens += answer.usage.output_tokens
                report.cache_read_input_tokens += answer.usage.cache_read_input_tokens
        return report


class _Failed(Exception):
    def __init__(self, phase: str, cause: str) -> None:
        super().__init__(cause)
        self.phase = phase
        self.cause = cause


@dataclass(slots=True)
class Plan:
    """What the read-and-judge part of a turn decided, for the write part to record."""

    mode: TurnMode
    reasons: list[str]
    appraisal: Appraisal | None
    guardian: GuardianReport
    evidence: ExtractedEvidence | None
    work_unit: WorkUnit | None = None
    execution: ExecutionResult | None = None
    verification: Verification | None = None
    mentioned: list[str] = field(default_factory=list)


def moral_valence(text: str, outcome: str, topics: list[str]) -> str:
    """Confirmation or violation when the turn touches a moral topic, else neutral."""
    if outcome == "neutral" or not matched_patterns(topics, text):
        return "neutral"
    return "confirmation" if outcome == "success" else "violation"


def outcome_of(execution: ExecutionResult | None, verification: Verification | None) -> str:
    """success (executed and verified), failure (failed or not valid), neutral otherwise."""
    if execution is None or execution.status == "recorded_not_executed":
        return "neutral"
    if execution.status == "executed" and (verification is None or verification.is_valid):
        return "success"
    return "failure"


async def execute_and_verify(
    services: LoopServices, recorder: TurnRecorder, agent_id: str, unit: WorkUnit
) -> tuple[ExecutionResult, Verification]:
    """Runs the unit through its executor; verify decides proceed / retry (budget) / escalate."""
    attempt = 1
    while True:
        execution = await services.executors.execute(agent_id, unit)
        if execution.status == "recorded_not_executed":
            # Nothing ran, so there is nothing to check: no reasoner call spent on it.
            return execution, Verification(
                reasoner="loop",
                is_valid=True,
                issues=[VerificationIssue(description=execution.message, severity="low")],
                action="proceed",
            )
        verification = await recorder.judge(
            "verify",
            services.reasoner.verify(
                VerifyRequest(work_unit=unit, result=execution, attempt=attempt)
            ),
        )
        if verification.action != "retry" or attempt > services.settings.loop.retry_budget:
            if verification.action == "retry":
                verification = verification.model_copy(update={"action": "escalate"})
            return execution, verification
        attempt += 1


async def plan_turn(
    services: LoopServices,
    recorder: TurnRecorder,
    agent_id: str,
    request: ChatRequest,
    activation: Activation,
) -> Plan:
    """Appraise, evidence, guardian, route, work unit, execute and verify; writes nothing."""
    reasoner, settings = services.reasoner, services.settings
    dissatisfaction = activation.dissatisfaction
    appraisal = await recorder.judge(
        "appraise",
        reasoner.appraise(
            AppraisalRequest(
                message=request.message,
                speaker=request.speaker,
                frame=activation.frame,
                stakes=activation.stakes,
                beliefs=activation.beliefs,
                dissatisfaction=dissatisfaction.value,
                band=dissatisfaction.band,
            )
        ),
    )
    await recorder.phase("appraise", appraisal=appraisal.model_dump(exclude={"usage"}))
    guardian = await services.guard.check(agent_id, request.message)
    risk_kinds = sorted(
        set(appraisal.high_risk) | set(services.guard.high_risk_kinds(request.message))
    )
    audit_failed = False
    if risk_kinds and guardian.action not in ("block", "absolute"):
        audit = await recorder.judge(
            "audit",
            reasoner.audit(
                AuditRequest(
                    message=request.message,
                    creed=await services.guard.creed(agent_id),
                    risk_kinds=risk_kinds,
                )
            ),
        )
        audit_failed = not audit.passed
        guardian = guardian.model_copy(
            update={"audit": audit.model_dump(exclude={"usage"}) | {"kinds": risk_kinds}}
        )
        if audit_failed:
            guardian = guardian.model_copy(
                update={
                    "action": "block",
                    "reason": "the audit against the creed failed: "
                    + ("; ".join(audit.concerns) or "high risk"),
                }
            )
    if guardian.action != "allow":
        await recorder.emit(TurnEvent(type="guardian", data=guardian.model_dump()))
    # A turn with no claims (a question, a greeting) carries no evidence: no call spent on it.
    evidence = (
        await recorder.judge(
            "extract_evidence",
            reasoner.extract_evidence(
                EvidenceRequest(
                    message=request.message, speaker=request.speaker, beliefs=activation.beliefs
                )
            ),
        )
        if _claims_beyond_request(request.message, appraisal) and activation.beliefs
        else ExtractedEvidence(reasoner="loop")
    )
    relevant = activation.relevant
    routed = route(
        relevant.strength if relevant else None,
        stakes=activation.stakes,
        band=dissatisfaction.band,
        censor_action=guardian.action,
        audit_failed=audit_failed,
        mechanics=settings.mechanics,
    )
    plan = Plan(
        mode=routed.mode,
        reasons=list(routed.reasons),
        appraisal=appraisal,
        guardian=guardian,
        evidence=evidence,
    )
    if plan.mode != "blocked" and activation.at_threshold:
        plan.mode = "revision"
        plan.reasons.append("a belief is at the revision threshold: revise first")
    await recorder.phase("route", mode=plan.mode, reasons=plan.reasons)
    if plan.mode in ("blocked", "revision") or not appraisal.is_request:
        return plan
    # The appraisal usually names the work already (one call fewer); else ask for it.
    plan.work_unit = (
        WorkUnit(**appraisal.work_unit.model_dump(), reasoner=appraisal.reasoner)
        if appraisal.work_unit is not None
        else await recorder.judge(
            "propose_work_unit",
            reasoner.propose_work_unit(
                WorkRequest(
                    message=request.message,
                    frame=activation.frame,
                    beliefs=activation.beliefs,
                    appraisal=appraisal,
                )
            ),
        )
    )
    # The guardian also reads the proposed action, not only the words of the request.
    action_check = await services.guard.check(agent_id, plan.work_unit.description)
    if action_check.action in ("block", "absolute"):
        plan.mode, plan.guardian = "blocked", action_check
        plan.reasons.append("a censor matched the proposed action")
        await recorder.emit(TurnEvent(type="guardian", data=action_check.model_dump()))
        return plan
    if plan.mode == "autonomous":
        plan.execution, plan.verification = await execute_and_verify(
            services, recorder, agent_id, plan.work_unit
        )
        await recorder.phase(
            "execute",
            status=plan.execution.status,
            verification=plan.verification.action,
        )
    return plan


def _claims_beyond_request(message: str, appraisal: Appraisal) -> list[str]:
    """The claims a turn makes besides the request itself ("Please reconcile X" asserts
    nothing about what is believed; "... because Y is wrong" does)."""
    claims = split_claims(message)
    if not appraisal.is_request:
        return claims
    asked = request_sentence(message)
    return [claim for claim in claims if asked is None or claim not in asked]


def _question(plan: Plan, activation: Activation) -> str:
    unit = plan.work_unit
    if plan.mode == "proposal" and unit is not None:
        return f"May I go ahead? Proposed: {unit.description}"
    asks = activation.questions_to_ask[:1]
    topic = activation.relevant.statement if activation.relevant else None
    base = (
        f"I am not sure enough to act on this ({topic}). How should I proceed?"
        if topic
        else "I have no belief I trust to act on this. How should I proceed?"
    )
    return f"{base} {asks[0]}" if asks else base


def _describe_execution(plan: Plan) -> str | None:
    if plan.execution is None:
        return None
    text = plan.execution.message or plan.execution.status
    if plan.verification is not None and plan.verification.action == "escalate":
        text += " — verification failed after the retry budget; escalated to a person"
    return f"{plan.execution.status}: {text}"


async def run_turn(
    services: LoopServices,
    agent_id: str,
    request: ChatRequest,
    emit: Emit = _silent,
) -> TurnResult:
    """One turn; see the module docstring.

    Raises:
        AgentNotFound, TurnFailed (nothing written), GraphUnavailable.
    """
    recorder = TurnRecorder(emit=emit)
    phase = "activate"
    try:
        activation = await activate(
            services.graph,
            services.embedder,
            services.settings,
            agent_id,
            request.message,
            request.context,
        )
        await recorder.phase(
            "activate",
            frame=activation.frame,
            dissatisfaction=activation.dissatisfaction.value,
            band=activation.dissatisfaction.band,
            relevant=activation.relevant.model_dump() if activation.relevant else None,
        )
        phase = "plan"
        plan = await plan_turn(services, recorder, agent_id, request, activation)
        mentions = await mentioned_people(services.graph, agent_id, request.message)
        plan.mentioned = [m.name for m in mentions if not m.known] if mentions else []
        phase = "learn"
        result = await services.graph.write_transaction(
            lambda tx: _record_turn(tx, services, recorder, agent_id, request, activation, plan),
            action="recording a turn",
        )
    except _Failed as failure:
        await emit(TurnEvent(type="error", data={"phase": failure.phase, "cause": failure.cause}))
        raise TurnFailed(agent_id, failure.phase, failure.cause) from failure
    except CredenceError as error:
        await emit(TurnEvent(type="error", data={"phase": phase, "cause": error.message}))
        raise
    await _after_turn(services, agent_id, request, result)
    await emit(TurnEvent(type="done", data={"turn_id": result.turn_id, "mode": result.mode}))
    return result


async def _after_turn(
    services: LoopServices, agent_id: str, request: ChatRequest, result: TurnResult
) -> None:
    """Bookkeeping after the turn committed: the runaway guard's streak (a meditation when D
    stayed above 0.9 for too long) and, when asked, the session's peak-end salience."""
    try:
        if result.revisions:
            # Revised beliefs are written without vectors; give them theirs now so the next
            # turn finds them by meaning too, not only by their words.
            await embed_pending(services.graph, services.embedder, agent_id)
        await observe_turn(services.graph, services.settings.mechanics, services.reasoner, agent_id)
        if request.end_session and request.session:
            await end_sessions(
                services.graph, services.settings.retrieval, agent_id, [request.session]
            )
    except CredenceError:
        log.exception("after-turn bookkeeping failed for turn %s", result.turn_id)


async def _record_turn(
    tx: Transaction,
    services: LoopServices,
    recorder: TurnRecorder,
    agent_id: str,
    request: ChatRequest,
    activation: Activation,
    plan: Plan,
) -> TurnResult:
    settings, reasoner = services.settings, services.reasoner
    now = datetime.now(UTC)
    await lock_agent(tx, agent_id)
    memory = settings.memory
    speaker_is_person = (
        request.speaker is not None and request.speaker.casefold() not in AGENT_SPEAKERS
    )
    person_id: str | None = None
    people_born: list[str] = []
    if speaker_is_person and request.speaker is not None:
        met = await meet_in(tx, agent_id, request.speaker, request.message, memory, now)
        person_id = met.person.id
        if met.created:
            people_born.append(met.person.name)
    for name in plan.mentioned:
        met = await meet_in(tx, agent_id, name, None, memory, now)
        if met.created:
            people_born.append(met.person.name)

    episode_id = str(uuid.uuid4())
    vector = await services.embedder.embed_one(request.message)
    evidence_items = [
        item
        for item in (plan.evidence.items if plan.evidence else [])
        if item.confidence >= settings.loop.min_evidence_confidence
        and item.stance in ("reinforcing", "contradicting")
    ]
    about = list(
        dict.fromkeys(
            ([activation.relevant.id] if activation.relevant else [])
            + [item.belief_id for item in evidence_items]
        )
    )
    await write_episodes_in(
        tx,
        settings.retrieval,
        agent_id,
        [
            {
                "id": episode_id,
                "external_id": None,
                "speaker": request.speaker or "user",
                "person": (
                    micro_birth_properties(agent_id, request.speaker, memory, now)
                    if speaker_is_person and request.speaker
                    else None
                ),
                "text": request.message,
                "user_message": request.message,
                "response": None,
                "occurred_at": now,
                "session": request.session,
                "outcome": outcome_of(plan.execution, plan.verification),
                "emotional_valence": None,
                "surprise": None,
                "frame": activation.frame,
                "actions": _actions(plan),
                "trivial": _actions(plan) < 2,
                "interference": 0,
                "embedding": vector_param(vector) if vector is not None else None,
                "about": about,
            }
        ],
    )
    await recorder.phase("episode", episode_id=episode_id)

    tension_changes: list[TensionMove] = []
    touched: list[str] = []
    if evidence_items:
        applied = await apply_evidence_in(
            tx,
            settings.mechanics,
            agent_id,
            [
                EvidenceForBelief(
                    belief_id=item.belief_id,
                    text=item.claim[:2000],
                    stance=item.stance,
                    kind=item.kind,
                    confidence=item.confidence,
                    source_person_id=person_id,
                    episode_id=episode_id,
                )
                for item in evidence_items
            ],
        )
        for result in applied.results:
            if result.new_tension != result.old_tension:
                tension_changes.append(
                    TensionMove(
                        id=result.belief_id,
                        old=result.old_tension,
                        new=result.new_tension,
                        added=result.new_tension - result.old_tension,
                    )
                )
        tension_changes += applied.propagated
        touched = applied.touched_ids()
        for move in tension_changes:
            await recorder.emit(TurnEvent(type="tension", data=move.model_dump()))

    outcome = outcome_of(plan.execution, plan.verification)
    if outcome != "neutral" and activation.relevant is not None:
        await apply_outcome_in(
            tx,
            settings.mechanics,
            agent_id,
            activation.relevant.id,
            OutcomeIn(
                outcome=outcome,
                moral_valence=moral_valence(
                    request.message, outcome, settings.mechanics.moral_topics
                ),
                severity=0.5,
                context=activation.context_name,
            ),
        )
        await record_capability_outcome_in(
            tx,
            agent_id,
            CapabilityOutcome(domain=activation.frame, success=outcome == "success"),
            memory,
            now,
        )

    revision = RevisionOutcome()
    candidates = list(dict.fromkeys(touched + activation.at_threshold))
    if plan.mode != "blocked" and candidates:
        revision = await revise_tense_in(tx, settings.mechanics, reasoner, agent_id, candidates)
        for summary in revision.revisions:
            await recorder.emit(TurnEvent(type="revision", data=summary.model_dump(mode="json")))
        if (revision.revisions or revision.approvals) and plan.execution is None:
            plan.mode = "revision"
    await recorder.phase("learn", tension_changes=len(tension_changes))

    decision_id: str | None = None
    if plan.work_unit is not None:
        decision_id = await _record_decision(tx, agent_id, activation, plan)

    approval: ApprovalPublic | None = None
    question: str | None = None
    if plan.mode in ("guidance", "proposal") and plan.work_unit is not None:
        question = _question(plan, activation)
        approval = await create_approval_in(
            tx,
            agent_id,
            kind=plan.mode,
            question=question,
            work_unit=plan.work_unit,
            state=TurnState(
                request=request,
                mode=plan.mode,
                frame=activation.frame,
                stakes=activation.stakes,
                band=activation.dissatisfaction.band,
                dissatisfaction=activation.dissatisfaction.value,
                context_name=activation.context_name,
                belief_id=activation.relevant.id if activation.relevant else None,
                belief_strength=activation.relevant.strength if activation.relevant else None,
                belief_statement=activation.relevant.statement if activation.relevant else None,
                decision_id=decision_id,
                appraisal=plan.appraisal,
                used_belief_ids=[b.id for b in activation.beliefs[:3]],
            ),
            episode_id=episode_id,
            ttl_hours=settings.loop.approval_ttl_hours,
        )
        await recorder.emit(TurnEvent(type="approval", data=approval.model_dump(mode="json")))

    reply = await _respond(services, recorder, activation, request, plan, revision, question)
    await tx.run(
        "loop/complete_turn_episode",
        agent_id=agent_id,
        episode_id=episode_id,
        turn={
            "response": reply.text,
            "supervision_mode": plan.mode,
            "dissatisfaction": activation.dissatisfaction.value,
            "revision_triggered": bool(revision.revisions),
            "frame": activation.frame,
            "decision_id": decision_id,
            **_usage(recorder),
        },
    )
    await recorder.phase("respond")
    await recorder.emit(TurnEvent(type="response", data={"text": reply.text}))
    return TurnResult(
        turn_id=episode_id,
        agent_id=agent_id,
        response=reply.text,
        questions=reply.questions,
        mode=plan.mode,
        frame=activation.frame,
        stakes=activation.stakes,
        dissatisfaction=DissatisfactionView(
            value=activation.dissatisfaction.value, band=activation.dissatisfaction.band
        ),
        relevant_belief=activation.relevant,
        appraisal=plan.appraisal,
        guardian=plan.guardian,
        work_unit=plan.work_unit,
        execution=plan.execution,
        verification=plan.verification,
        decision_id=decision_id,
        tension_changes=tension_changes,
        revisions=revision.revisions,
        approval=approval,
        people_born=people_born,
        degraded=activation.context.degraded_reason,
        reasoners=recorder.calls(),
        timings_ms=dict(recorder.timings_ms),
    )


def _usage(recorder: TurnRecorder) -> dict[str, Any]:
    """What the turn's judgements cost, recorded on its episode."""
    calls = recorder.calls()
    return {
        "model_calls": calls.model_calls,
        "input_tokens": calls.input_tokens,
        "output_tokens": calls.output_tokens,
        "reasoners": calls.calls,
    }


def _actions(plan: Plan) -> int:
    """Actions the turn took: judging evidence, proposing, executing, verifying (DESIGN §5:
    fewer than 2 makes the episode trivial)."""
    count = 1 if plan.evidence and plan.evidence.items else 0
    count += 1 if plan.work_unit is not None else 0
    count += 1 if plan.execution is not None else 0
    count += 1 if plan.verification is not None else 0
    return count


async def _record_decision(
    tx: Transaction, agent_id: str, activation: Activation, plan: Plan
) -> str:
    unit = plan.work_unit
    assert unit is not None
    decision_id = str(uuid.uuid4())
    reasons = [{"text": reason, "weight": 1.0} for reason in plan.reasons]
    if activation.relevant is not None:
        reasons.append(
            {
                "text": f"relevant belief: {activation.relevant.statement} "
                f"(strength {activation.relevant.strength:.2f} in "
                f"{activation.context_name or 'the default context'})",
                "weight": activation.relevant.relevance,
            }
        )
    if plan.verification is not None:
        reasons.append({"text": f"verification: {plan.verification.action}", "weight": 1.0})
    outcome = (
        outcome_of(plan.execution, plan.verification)
        if plan.mode == "autonomous"
        else "pending"
        if plan.mode in ("guidance", "proposal")
        else "neutral"
    )
    used = [activation.relevant.id] if activation.relevant else []
    used += [b.id for b in activation.beliefs[:3] if b.id not in used]
    await tx.run(
        "loop/create_decision",
        agent_id=agent_id,
        decision={
            "id": decision_id,
            "description": unit.description,
            "confidence": unit.confidence,
            "stakes": activation.stakes,
            "mode": plan.mode,
            "work_unit": unit.model_dump_json(),
            "verb": unit.verb,
            "execution_status": plan.execution.status if plan.execution else None,
            "outcome": outcome,
            "executor": plan.execution.executor if plan.execution else None,
        },
        reasons=reasons,
        used=used,
    )
    return decision_id


async def _respond(
    services: LoopServices,
    recorder: TurnRecorder,
    activation: Activation,
    request: ChatRequest,
    plan: Plan,
    revision: RevisionOutcome,
    question: str | None,
) -> Reply:
    agent = activation.agent
    revised = (
        "; ".join(f"{r.old_statement} → {r.new_statement}" for r in revision.revisions) or None
    )
    if revision.approvals:
        pending = "; ".join(a.proposed_statement for a in revision.approvals)
        revised = (revised + "; " if revised else "") + (
            f"an immutable belief reached the threshold: a person must decide ({pending})"
        )
    beliefs = _ordered_for_answer(list(activation.beliefs), activation)
    if revision.revisions:
        # The answer rests on what is believed now, not on the superseded statements.
        replaced = {r.old_belief_id: r for r in revision.revisions}
        beliefs = [
            b.model_copy(
                update={
                    "id": replaced[b.id].new_belief_id or b.id,
                    "statement": replaced[b.id].new_statement or b.statement,
                    "tension": 0.0,
                }
            )
            if b.id in replaced
            else b
            for b in beliefs
        ]
    tensions = sorted((b for b in beliefs if b.tension > 0), key=lambda b: b.tension, reverse=True)[
        :3
    ]
    refusal = plan.guardian.reason if plan.mode == "blocked" else None
    if plan.mode == "blocked" and refusal is None:
        refusal = "the guardian blocked this request"
    return await recorder.judge(
        "respond",
        services.reasoner.respond(
            ResponseRequest(
                message=request.message,
                system_prompt=system_prompt(
                    str(agent.get("name") or "Credence"),
                    agent.get("identity_goal"),
                    activation.creed,
                ),
                band=activation.dissatisfaction.band,
                dissatisfaction=activation.dissatisfaction.value,
                mode=plan.mode,
                frame=activation.frame,
                beliefs=beliefs,
                tensions=tensions,
                revision=revised,
                execution=_describe_execution(plan),
                approval_question=question,
                refusal=refusal,
            )
        ),
    )


def _ordered_for_answer(beliefs: list[BeliefBrief], activation: Activation) -> list[BeliefBrief]:
    """The beliefs the answer may rest on: those at or above the relevance floor, most
    relevant first (the rest were retrieved but are about something else)."""
    relevance = activation.relevance
    relevant = [b for b in beliefs if relevance.get(b.id, 0.0) >= activation.floor]
    return sorted(relevant, key=lambda b: relevance.get(b.id, 0.0), reverse=True)
