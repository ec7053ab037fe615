"""Planning a turn: everything that only reads or judges (appraise, evidence, guardian, route,
the work unit, execute and verify), before the turn's one write transaction."""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import dataclass, field

from app.guardian.audit import work_unit_text
from app.guardian.check import Censors
from app.loop.acting import execute_and_verify
from app.loop.activation import Activation
from app.loop.guarding import refuses
from app.loop.learning import NewBelief, accepted, against_known
from app.loop.models import ChatRequest, GuardianReport, TurnEvent, TurnMode
from app.loop.recording import TurnRecorder
from app.loop.routing import route
from app.loop.services import LoopServices
from app.loop.tool_turns import destructive_cap, tool_unit
from app.reasoning.offline.requests import request_sentence
from app.reasoning.protocol import (
    Appraisal,
    AppraisalRequest,
    AuditRequest,
    EvidenceRequest,
    ExecutionResult,
    ExtractedEvidence,
    Verification,
    WorkRequest,
    WorkUnit,
)
from app.seeds.skill_schema import DomainSkill
from app.text.claims import split_claims


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
    # Claims the turn learns as beliefs (or that reinforce the belief they repeat).
    learning: list[NewBelief] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class PlannedTurn:
    """A turn ready for its write phase: whose it is, what was asked, what activation found and
    what planning decided."""

    agent_id: str
    request: ChatRequest
    activation: Activation
    plan: Plan


@dataclass(frozen=True, slots=True)
class _Planning:
    """What every step of planning reads."""

    services: LoopServices
    recorder: TurnRecorder
    agent_id: str
    request: ChatRequest
    activation: Activation


@dataclass(frozen=True, slots=True)
class _Guarded:
    """The guardian's word on the request, and whether the tier-3 audit failed."""

    report: GuardianReport
    audit_failed: bool = False


async def plan_turn(
    services: LoopServices,
    recorder: TurnRecorder,
    agent_id: str,
    request: ChatRequest,
    activation: Activation,
    censors_read: Awaitable[Censors],
) -> Plan:
    """Appraise, evidence, guardian, route, work unit, execute and verify; writes nothing. An
    autonomous tool call is planned, not run: it runs beside its record's write.

    Args:
        censors_read: the agent's censors (``services.guard.censors``), read meanwhile.

    Returns:
        The plan; it stops at routing when the turn is blocked, revises first, or asks for
        nothing, and at the action check when a censor matches the proposed action.

    Raises:
        ReasonerFailed: a judgement raised.
    """
    planning = _Planning(services, recorder, agent_id, request, activation)
    appraisal = await _appraise(planning)
    called = tool_unit(activation)
    if called is not None:
        # A tool call is the request; its JSON teaches no claim and proposes no other work.
        appraisal = appraisal.model_copy(update={"is_request": True, "work_unit": None})
    elif activation.tool_route is not None:
        # A tool the message asks for without its arguments, or with arguments its schema
        # refused: the answer says so, and no other work is proposed in its place.
        appraisal = appraisal.model_copy(update={"is_request": False, "work_unit": None})
    censors = await censors_read
    guarded = await _guard_request(planning, appraisal, censors)
    evidence = (
        ExtractedEvidence(reasoner="loop")
        if called is not None
        else await _extract_evidence(planning, appraisal)
    )
    plan = await _route(planning, appraisal, guarded, evidence)
    if plan.mode != "blocked" and called is None:
        plan.learning = await _learning(planning, evidence)
    # A refused tool call is still recorded (decision and action), so its unit is kept.
    plan.work_unit = called
    if plan.mode in ("blocked", "revision") or not appraisal.is_request:
        return plan
    unit = called or _no_call(await _work_unit(planning, appraisal))
    plan.work_unit = unit
    if await _blocks_action(planning, plan, unit, censors):
        return plan
    if plan.mode == "autonomous" and called is None:
        await execute_planned(services, recorder, agent_id, plan, unit, activation.skill)
    # An autonomous tool call runs while its record is written (app/loop/call_record.py).
    return plan


async def execute_planned(
    services: LoopServices,
    recorder: TurnRecorder,
    agent_id: str,
    plan: Plan,
    unit: WorkUnit,
    skill: DomainSkill | None = None,
) -> None:
    """Executes and verifies the plan's unit (against ``skill``'s criteria: the agent's), into
    the plan (its execution as soon as it ran, its verification once made)."""

    def ran(execution: ExecutionResult) -> None:
        plan.execution = execution

    plan.execution, plan.verification = await execute_and_verify(
        services, recorder, agent_id, unit, ran, skill
    )
    await recorder.phase(
        "execute",
        status=plan.execution.status,
        verification=plan.verification.action,
    )


async def _appraise(planning: _Planning) -> Appraisal:
    activation = planning.activation
    appraisal = await planning.recorder.judge(
        "appraise",
        planning.services.reasoner.appraise(
            AppraisalRequest(
                message=planning.request.message,
                speaker=planning.request.speaker,
                frame=activation.frame,
                frame_questions=activation.questions_to_ask,
                stakes=activation.stakes,
                beliefs=activation.beliefs,
                dissatisfaction=activation.dissatisfaction.value,
                band=activation.dissatisfaction.band,
                history=activation.recent(planning.services.settings.loop.history_turns_appraisal),
                identity=activation.identity,
                people=activation.people,
                rules=activation.rules,
                working_memory=activation.working_memory,
                episodes=activation.episodes,
                decisions=activation.decisions,
                urgency_multiplier=activation.urgency_multiplier,
                domain=activation.domain,
                skill=activation.skill,
            )
        ),
    )
    await planning.recorder.phase("appraise", appraisal=appraisal.model_dump(exclude={"usage"}))
    return appraisal


async def _guard_request(planning: _Planning, appraisal: Appraisal, censors: Censors) -> _Guarded:
    """Tier 1 on the request's words, then the tier-3 audit when the request is high-risk."""
    guard, message = planning.services.guard, planning.request.message
    guarded = _Guarded(await guard.check(planning.agent_id, message, censors))
    risk_kinds = sorted(set(appraisal.high_risk) | set(guard.high_risk_kinds(message)))
    # Tier 3 is for high-risk *requests*: a remark that mentions a refund asks for nothing.
    if risk_kinds and appraisal.is_request and not refuses(guarded.report):
        guarded = await _audit(planning, guarded.report, risk_kinds)
    if guarded.report.action != "allow":
        await planning.recorder.emit(TurnEvent(type="guardian", data=guarded.report.model_dump()))
    return guarded


async def _audit(
    planning: _Planning,
    report: GuardianReport,
    risk_kinds: list[str],
    work_unit: WorkUnit | None = None,
) -> _Guarded:
    """The tier-3 audit against the creed (of the request, and of the proposed work unit once
    there is one); a failed audit blocks."""
    services = planning.services
    audit = await planning.recorder.judge(
        "audit",
        services.reasoner.audit(
            AuditRequest(
                message=planning.request.message,
                work_unit=work_unit,
                creed=await services.guard.creed(planning.agent_id),
                risk_kinds=risk_kinds,
            )
        ),
    )
    penalty = 0.0 if audit.passed else -services.settings.guardian.creed_violation_coherence_penalty
    report = report.model_copy(
        update={
            "audit": audit.model_dump(exclude={"usage"})
            | {"kinds": risk_kinds, "coherence_penalty": penalty}
        }
    )
    if audit.passed:
        return _Guarded(report)
    blocked = report.model_copy(
        update={
            "action": "block",
            "reason": "the audit against the creed failed: "
            + ("; ".join(audit.concerns) or "high risk"),
        }
    )
    return _Guarded(blocked, audit_failed=True)


async def _extract_evidence(planning: _Planning, appraisal: Appraisal) -> ExtractedEvidence:
    request, beliefs = planning.request, planning.activation.beliefs
    # A turn with no claims (a question, a greeting) carries no evidence: no call spent on it.
    # Without beliefs its claims may still teach the agent something new.
    if not _claims_beyond_request(request.message, appraisal, planning.activation.skill):
        return ExtractedEvidence(reasoner="loop")
    return await planning.recorder.judge(
        "extract_evidence",
        planning.services.reasoner.extract_evidence(
            EvidenceRequest(
                message=request.message,
                speaker=request.speaker,
                beliefs=beliefs,
                history=planning.activation.recent(
                    planning.services.settings.loop.history_turns_answer
                ),
                identity=planning.activation.identity,
            )
        ),
    )


async def _learning(planning: _Planning, evidence: ExtractedEvidence) -> list[NewBelief]:
    """The claims the reasoner accepted that this turn learns: guidance, a correction from a
    person with enough authority, a novel fact; each checked against the known beliefs."""
    loop = planning.services.settings.loop
    speaker = next((person for person in planning.activation.people if person.speaker), None)
    claims = accepted(evidence.learned, speaker, loop)
    if not claims:
        return []
    return await against_known(
        planning.services.embedder, loop, claims, planning.activation.beliefs
    )


async def _route(
    planning: _Planning, appraisal: Appraisal, guarded: _Guarded, evidence: ExtractedEvidence
) -> Plan:
    """The supervision mode and its reasons; a belief at the threshold makes the turn revise."""
    activation = planning.activation
    relevant = activation.relevant
    routed = route(
        relevant.strength if relevant else None,
        stakes=activation.stakes,
        band=activation.dissatisfaction.band,
        censor_action=guarded.report.action,
        audit_failed=guarded.audit_failed,
        mechanics=planning.services.settings.mechanics,
        invalidated=relevant.invalidated if relevant else False,
        pinned=relevant.supervision_mode if relevant else None,
    )
    plan = Plan(
        mode=routed.mode,
        reasons=list(routed.reasons),
        appraisal=appraisal,
        guardian=guarded.report,
        evidence=evidence,
    )
    if plan.mode != "blocked" and activation.at_threshold:
        plan.mode = "revision"
        plan.reasons.append("a belief is at the revision threshold: revise first")
    capped = destructive_cap(activation, planning.services.settings.tools.destructive_min_successes)
    if plan.mode == "autonomous" and capped is not None:
        plan.mode = "proposal"
        plan.reasons.append(capped)
    await planning.recorder.phase("route", mode=plan.mode, reasons=plan.reasons)
    return plan


async def _work_unit(planning: _Planning, appraisal: Appraisal) -> WorkUnit:
    # The appraisal usually names the work already (one call fewer); else ask for it.
    if appraisal.work_unit is not None:
        return WorkUnit(**appraisal.work_unit.model_dump(), reasoner=appraisal.reasoner)
    return await planning.recorder.judge(
        "propose_work_unit",
        planning.services.reasoner.propose_work_unit(
            WorkRequest(
                message=planning.request.message,
                frame=planning.activation.frame,
                beliefs=planning.activation.beliefs,
                appraisal=appraisal,
                history=planning.activation.recent(
                    planning.services.settings.loop.history_turns_answer
                ),
                identity=planning.activation.identity,
                skill=planning.activation.skill,
            )
        ),
    )


async def _blocks_action(planning: _Planning, plan: Plan, unit: WorkUnit, censors: Censors) -> bool:
    """Whether the guardian stops the proposed action: a censor matches the work unit (its
    description and the entities it acts on), or the unit touches a high-risk kind the request
    did not and fails the tier-3 audit. Either way the plan is blocked."""
    # The guardian also reads the proposed action, not only the words of the request.
    guard, text = planning.services.guard, work_unit_text(unit)
    check = await guard.check(planning.agent_id, text, censors)
    if refuses(check):
        plan.mode, plan.guardian = "blocked", check
        plan.reasons.append("a censor matched the proposed action")
        await planning.recorder.emit(TurnEvent(type="guardian", data=check.model_dump()))
        return True
    audited = set((plan.guardian.audit or {}).get("kinds", []))
    new_kinds = sorted(set(guard.high_risk_kinds(text)) - audited)
    if not new_kinds:
        return False
    guarded = await _audit(planning, check, new_kinds, unit)
    if not guarded.audit_failed:
        plan.guardian = plan.guardian.model_copy(update={"audit": guarded.report.audit})
        return False
    plan.mode, plan.guardian = "blocked", guarded.report
    plan.reasons.append("the proposed action failed the audit against the creed")
    await planning.recorder.emit(TurnEvent(type="guardian", data=guarded.report.model_dump()))
    return True


def _no_call(unit: WorkUnit) -> WorkUnit:
    """Only a tool-call turn carries a call: a reasoner's unit never does."""
    return unit.model_copy(update={"call": None}) if unit.call is not None else unit


def _claims_beyond_request(
    message: str, appraisal: Appraisal, skill: DomainSkill | None = None
) -> list[str]:
    """The claims a turn makes besides the request itself ("Please reconcile X" asserts
    nothing about what is believed; "... because Y is wrong" does)."""
    claims = split_claims(message)
    if not appraisal.is_request:
        return claims
    asked = request_sentence(message, skill)
    return [claim for claim in claims if asked is None or claim not in asked]
