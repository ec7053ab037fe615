"""The Decision a turn records when it proposes or runs a work unit (with its reasons and the
beliefs it used), and the outcome a resumed turn writes on it later."""

from __future__ import annotations

import uuid
from typing import Any

from app.graph.client import Transaction
from app.loop.acting import outcome_of
from app.loop.activation import Activation
from app.loop.planning import Plan
from app.reasoning.protocol import ExecutionResult, WorkUnit

# Seed 002's finalize(): once its outcome is known, a decision's confidence becomes what the
# outcome says of it (the confidence it was proposed with is kept as proposed_confidence).
FINAL_CONFIDENCE = {"success": 0.8, "partial": 0.5, "failure": 0.3, "rejected": 0.3}


def finalised_confidence(outcome: str) -> float | None:
    """The confidence a decision with this outcome ends with; None while it is not known
    (pending, running) or says nothing of the decision (neutral)."""
    return FINAL_CONFIDENCE.get(outcome)


async def create_decision_in(
    tx: Transaction, agent_id: str, activation: Activation, plan: Plan, unit: WorkUnit
) -> str:
    """Records the turn's decision about ``unit`` (its reasons and the beliefs used) inside the
    turn's transaction.

    Returns:
        The decision's id.
    """
    decision_id = str(uuid.uuid4())
    await tx.run(
        "loop/decisions/create_decision",
        agent_id=agent_id,
        **decision_params(decision_id, activation, plan, unit),
    )
    return decision_id


def decision_params(
    decision_id: str, activation: Activation, plan: Plan, unit: WorkUnit
) -> dict[str, Any]:
    """The parameters ``decision``, ``reasons`` and ``used`` of the queries that record a
    decision (``loop/decisions/create_decision``, ``loop/tool_turns/record_call``)."""
    used = [activation.relevant.id] if activation.relevant else []
    used += [b.id for b in activation.beliefs[:3] if b.id not in used]
    return {
        "decision": {
            "id": decision_id,
            "description": unit.description,
            "confidence": unit.confidence,
            "stakes": activation.stakes,
            "mode": plan.mode,
            "work_unit": unit.model_dump_json(),
            "verb": unit.verb,
            "execution_status": plan.execution.status if plan.execution else None,
            "outcome": _outcome(plan),
            "final_confidence": finalised_confidence(_outcome(plan)),
            "executor": plan.execution.executor if plan.execution else None,
        },
        "reasons": _reasons(activation, plan),
        "used": used,
    }


async def record_decision_outcome_in(
    tx: Transaction,
    agent_id: str,
    decision_id: str,
    outcome: str,
    execution: ExecutionResult | None,
    modified: WorkUnit | None = None,
) -> None:
    """Writes how a decision that waited for a person turned out, and the confidence that
    outcome gives it (inside the resumed turn's transaction); ``modified``, the unit a person's
    ``modify`` ran, becomes what the decision describes (the proposal's words are kept)."""
    ran = (
        {
            "description": modified.description,
            "work_unit": modified.model_dump_json(),
            "verb": modified.verb,
        }
        if modified is not None
        else None
    )
    await tx.run(
        "loop/decisions/update_decision_outcome",
        agent_id=agent_id,
        decision_id=decision_id,
        outcome=outcome,
        confidence=finalised_confidence(outcome),
        execution_status=execution.status if execution else None,
        executor=execution.executor if execution else None,
        ran=ran,
    )


def _reasons(activation: Activation, plan: Plan) -> list[dict[str, Any]]:
    """Routing's reasons, then the relevant belief (weighted by its relevance) and the
    verification."""
    reasons: list[dict[str, Any]] = [{"text": reason, "weight": 1.0} for reason in plan.reasons]
    if activation.relevant is not None:
        reasons.append(
            {
                "text": f"relevant belief: {activation.relevant.statement} "
                f"(strength {activation.relevant.strength:.2f} in "
                f"{activation.context_name or 'the default context'})",
                "weight": activation.relevant.relevance,
            }
        )
    reasons += [
        {"text": f"rule: {rule.content}", "weight": rule.confidence} for rule in activation.rules
    ]
    if plan.verification is not None:
        reasons.append({"text": f"verification: {plan.verification.action}", "weight": 1.0})
    return reasons


def _outcome(plan: Plan) -> str:
    """Known when the turn acted; pending while a person decides; neutral otherwise."""
    if plan.mode == "autonomous":
        return outcome_of(plan.execution, plan.verification)
    if plan.mode in ("guidance", "proposal"):
        return "pending"
    return "neutral"
