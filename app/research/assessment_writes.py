"""The writes that follow any change of evidence or conflicts: new conflicts between sources and
each hypothesis' status and confidence (both derived by :mod:`app.research.assessment`)."""

from __future__ import annotations

import uuid
from typing import Any

from app.graph.client import Transaction
from app.research.assessment import assess, new_conflicts
from app.research.models import ResearchState
from app.research.settings import ResearchSettings


def assessment_params(
    state: ResearchState, settings: ResearchSettings
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The conflicts to record and the hypothesis statuses to write, for the state after a step."""
    conflicts = [
        {
            "id": str(uuid.uuid4()),
            "hypothesis_id": conflict.hypothesis_id,
            "pair": conflict.pair,
            "first_source_id": conflict.supporting.source_id,
            "second_source_id": conflict.contradicting.source_id,
        }
        for conflict in new_conflicts(state, settings)
    ]
    # A conflict just found keeps its hypothesis "validating" until it is resolved.
    opened = {c["hypothesis_id"] for c in conflicts}
    hypotheses = [
        {
            "id": a.hypothesis_id,
            "status": "validating" if a.hypothesis_id in opened else a.status,
            "confidence": 0.5 if a.hypothesis_id in opened else a.confidence,
        }
        for a in assess(state, settings)
    ]
    return conflicts, hypotheses


async def write_assessment(
    tx: Transaction,
    state: ResearchState,
    step_id: str,
    conflicts: list[dict[str, Any]],
    hypotheses: list[dict[str, Any]],
) -> None:
    scope = {"agent_id": state.investigation.agent_id, "investigation_id": state.investigation.id}
    if conflicts:
        await tx.run(
            "research/assessment_writes/record_conflicts",
            **scope,
            step_id=step_id,
            conflicts=conflicts,
        )
    if hypotheses:
        await tx.run("research/assessment_writes/update_hypotheses", **scope, hypotheses=hypotheses)
