"""What a turn, fresh or resumed, gives back (:class:`TurnResult`), once its write phase
recorded it."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.beliefs.models import RevisionOutcome, TensionMove
from app.loop.activation import Activation
from app.loop.models import (
    ApprovalPublic,
    DissatisfactionView,
    LearnedBelief,
    TurnMemory,
    TurnResult,
)
from app.loop.paused_turn import Resumption
from app.loop.planning import PlannedTurn
from app.loop.recording import TurnRecorder
from app.reasoning.protocol import Reply


@dataclass(frozen=True, slots=True)
class TurnWritten:
    """What a turn's write phase recorded, for its result."""

    episode_id: str
    reply: Reply
    decision_id: str | None
    tension_changes: list[TensionMove]
    revision: RevisionOutcome
    approval: ApprovalPublic | None
    people_born: list[str]
    learned: list[LearnedBelief] = field(default_factory=list)


def turn_result(turn: PlannedTurn, recorder: TurnRecorder, written: TurnWritten) -> TurnResult:
    """The result of a turn, once its write phase recorded it."""
    activation, plan = turn.activation, turn.plan
    return TurnResult(
        turn_id=written.episode_id,
        agent_id=turn.agent_id,
        response=written.reply.text,
        questions=written.reply.questions,
        mode=plan.mode,
        frame=activation.frame,
        frame_questions=activation.questions_to_ask,
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
        decision_id=written.decision_id,
        tension_changes=written.tension_changes,
        revisions=written.revision.revisions,
        approval=written.approval,
        people_born=written.people_born,
        learned=written.learned,
        degraded=activation.context.degraded_reason,
        reasoners=recorder.calls(),
        memory=turn_memory(activation),
        tool_route=activation.tool_route,
        timings_ms={
            **recorder.timings_ms,
            **{f"context.{name}": ms for name, ms in activation.timings_ms.items()},
        },
    )


def turn_memory(activation: Activation) -> TurnMemory:
    """What the turn remembered, for its result."""
    return TurnMemory(
        history_turns=len(activation.history),
        understood_as=activation.query if activation.query != activation.message else None,
        rules_used=activation.rules,
        people_present=activation.people,
        working_memory_items=sum(item.kind != "temporal" for item in activation.working_memory),
        episodes_recalled=len(activation.episodes),
    )


def resumption_result(
    run: Resumption,
    recorder: TurnRecorder,
    approval: ApprovalPublic,
    episode_id: str,
    reply: Reply,
    learned: list[LearnedBelief] | None = None,
) -> TurnResult:
    """The result of a resumed turn, once its write phase recorded it."""
    return TurnResult(
        turn_id=episode_id,
        agent_id=run.agent_id,
        response=reply.text,
        questions=reply.questions,
        mode=run.mode,
        frame=run.frame,
        stakes=run.stakes,
        dissatisfaction=DissatisfactionView(value=run.dissatisfaction, band=run.band),
        guardian=run.guardian,
        work_unit=run.unit,
        execution=run.execution,
        verification=run.verification,
        decision_id=run.decision_id,
        approval=approval,
        learned=learned or [],
        reasoners=recorder.calls(),
        timings_ms=dict(recorder.timings_ms),
    )
