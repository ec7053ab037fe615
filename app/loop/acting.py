"""Acting on a work unit and judging the outcome: execute → verify (retry budget) and the
outcome and moral valence that learning applies."""

from __future__ import annotations

from collections.abc import Callable

from app.loop.recording import TurnRecorder
from app.loop.services import LoopServices
from app.reasoning.protocol import (
    ExecutionResult,
    Verification,
    VerificationIssue,
    VerifyRequest,
    WorkUnit,
)
from app.seeds.skill_schema import DomainSkill


def moral_topics_in(text: str, topics: list[str]) -> list[str]:
    """The moral topics ``text`` touches: each topic as a substring of the lower-cased text
    (seed 000), so "confidential" fires in "confidentiality", "audit" in "auditor"."""
    lowered = text.lower()
    return [topic for topic in topics if topic.strip() and topic.lower().strip() in lowered]


def moral_valence(text: str, outcome: str, topics: list[str]) -> str:
    """Confirmation or violation when the turn touches a moral topic, else neutral."""
    if outcome == "neutral" or not moral_topics_in(text, topics):
        return "neutral"
    return "confirmation" if outcome == "success" else "violation"


def outcome_of(execution: ExecutionResult | None, verification: Verification | None) -> str:
    """success (executed and verified), failure (failed or not valid), neutral otherwise."""
    if execution is None or execution.status == "recorded_not_executed":
        return "neutral"
    if execution.status == "executed" and (verification is None or verification.is_valid):
        return "success"
    return "failure"


def unverified(execution: ExecutionResult) -> Verification:
    """The verification of work that did not run: nothing to check, no reasoner asked."""
    return Verification(
        reasoner="loop",
        is_valid=True,
        issues=[VerificationIssue(description=execution.message, severity="low")],
        action="proceed",
    )


async def execute_and_verify(
    services: LoopServices,
    recorder: TurnRecorder,
    agent_id: str,
    unit: WorkUnit,
    ran: Callable[[ExecutionResult], None] | None = None,
    skill: DomainSkill | None = None,
) -> tuple[ExecutionResult, Verification]:
    """Runs the unit through its executor; verify decides proceed / retry (budget) / escalate. An
    execution whose outcome is unknown and that may not be repeated (``retry_safe`` false: a
    destructive tool that timed out) is escalated, never retried.

    Args:
        ran: told each execution's result before it is verified (a caller whose verification
            may raise still knows what the executor did).
        skill: the agent's domain skill, whose criteria verify reads (None: the shipped one).
    """
    attempt = 1
    while True:
        execution = await services.executors.execute(agent_id, unit)
        if ran is not None:
            ran(execution)
        if execution.status == "recorded_not_executed":
            # Nothing ran, so there is nothing to check: no reasoner call spent on it.
            return execution, unverified(execution)
        verification = await recorder.judge(
            "verify",
            services.reasoner.verify(
                VerifyRequest(work_unit=unit, result=execution, attempt=attempt, skill=skill)
            ),
        )
        if (
            verification.action != "retry"
            or attempt > services.settings.loop.retry_budget
            or not execution.retry_safe
        ):
            if verification.action == "retry":
                # Out of budget, or its outcome unknown: a person decides what happens next.
                verification = verification.model_copy(update={"action": "escalate"})
            return execution, verification
        attempt += 1


def describe_execution(
    execution: ExecutionResult | None, verification: Verification | None, unit: WorkUnit | None
) -> str | None:
    """What was done, in a sentence the answer can carry as it is ("Recorded, not executed"
    is never worded as a success)."""
    if execution is None:
        return None
    detail = execution.message or (unit.description if unit else execution.status)
    lead = {
        "executed": "Done",
        "failed": "It failed",
        "recorded_not_executed": "Recorded, not executed",
    }[execution.status]
    text = f"{lead}: {detail.rstrip('.')}"
    if verification is not None and verification.action == "escalate":
        text += " — verification failed after the retry budget; escalated to a person"
    return text + "."
