"""Planning a turn: everything that only reads or judges (appraise, evidence, guardian, route,
the work unit, execute and verify), before the turn's one write transaction."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.loop.acting import execute_and_verify
from app.loop.activation import Activation
from app.loop.models import ChatRequest, GuardianReport, TurnEvent, TurnMode
from app.loop.recording import TurnRecorder
from app.loop.routing import route
from app.loop.services import LoopServices
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
    censors = await services.guard.censors(agent_id)
    guardian = await services.guard.check(agent_id, request.message, censors)
    risk_kinds = sorted(
        set(appraisal.high_risk) | set(services.guard.high_risk_kinds(request.message))
    )
    audit_failed = False
    # Tier 3 is for high-risk *requests*: a remark that mentions a refund asks for nothing.
    if risk_kinds and appraisal.is_request and guardian.action not in ("block", "absolute"):
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
    action_check = await services.guard.check(agent_id, plan.work_unit.description, censors)
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
