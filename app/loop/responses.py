"""What the agent is asked to answer from: the response request of a turn and of a resumed
turn (pure; the write phase sends it to the reasoner)."""

from __future__ import annotations

from typing import Any

from app.beliefs.models import RevisionOutcome
from app.loop.acting import describe_execution
from app.loop.activation import Activation
from app.loop.paused_turn import Resumption
from app.loop.planning import Plan, PlannedTurn
from app.loop.prompting import system_prompt_for
from app.loop.tool_routing import no_call_made
from app.reasoning.protocol import BeliefBrief, ResponseRequest


def turn_response(
    turn: PlannedTurn, revision: RevisionOutcome, question: str | None, history_turns: int
) -> ResponseRequest:
    """The answer to a turn rests on its relevant beliefs as they stand after the turn's
    revisions, and carries what was revised, done, asked or refused, with the session's latest
    ``history_turns`` turns."""
    activation, plan = turn.activation, turn.plan
    beliefs = _as_revised(_ordered_for_answer(list(activation.beliefs), activation), revision)
    return ResponseRequest(
        message=turn.request.message,
        system_prompt=system_prompt_for(activation.agent, activation.identity),
        band=activation.dissatisfaction.band,
        dissatisfaction=activation.dissatisfaction.value,
        # Supervision concerns acting: a turn that asks for nothing is simply answered.
        mode=(
            plan.mode
            if plan.work_unit is not None or plan.mode in ("blocked", "revision")
            else "autonomous"
        ),
        frame=activation.frame,
        frame_questions=activation.questions_to_ask,
        beliefs=beliefs,
        tensions=sorted(
            (b for b in beliefs if b.tension > 0), key=lambda b: b.tension, reverse=True
        )[:3],
        revision=_revision_note(revision),
        execution=describe_execution(plan.execution, plan.verification, plan.work_unit),
        approval_question=question,
        refusal=_refusal(plan),
        tool_request=(
            no_call_made(activation.tool_route) if activation.tool_route is not None else None
        ),
        history=activation.recent(history_turns),
        people=activation.people,
        rules=activation.rules,
        working_memory=activation.working_memory,
        episodes=activation.episodes,
        revisited=activation.revisited,
        depth=activation.depth,
    )


def resumption_response(
    agent: dict[str, Any], run: Resumption, history_turns: int = 5
) -> ResponseRequest:
    """The answer to a resumed turn: the paused turn's message, the belief that decided its
    mode, what was done (nothing, for a rejection), and the session's latest turns."""
    state = run.state
    beliefs = []
    if state is not None and state.belief_id and state.belief_statement:
        beliefs.append(
            BeliefBrief(
                id=state.belief_id,
                statement=state.belief_statement,
                strength=state.belief_strength or 0.5,
            )
        )
    execution = (
        "Rejected by the person: nothing was done, and the rejection is learned from."
        if run.rejected
        else describe_execution(run.execution, run.verification, run.unit)
    )
    return ResponseRequest(
        message=state.request.message if state else run.stored.public.question,
        system_prompt=system_prompt_for(agent, run.identity),
        band=run.band,
        dissatisfaction=run.dissatisfaction,
        mode=run.mode,
        frame=run.frame,
        beliefs=beliefs,
        execution=execution,
        refusal=run.guardian.reason if run.mode == "blocked" else None,
        history=run.history[-history_turns:] if history_turns else [],
    )


def _ordered_for_answer(beliefs: list[BeliefBrief], activation: Activation) -> list[BeliefBrief]:
    """The beliefs the answer may rest on: those at or above the relevance floor, most
    relevant first (the rest were retrieved but are about something else)."""
    relevance = activation.relevance
    relevant = [b for b in beliefs if relevance.get(b.id, 0.0) >= activation.floor]
    return sorted(relevant, key=lambda b: relevance.get(b.id, 0.0), reverse=True)


def _as_revised(beliefs: list[BeliefBrief], revision: RevisionOutcome) -> list[BeliefBrief]:
    """The answer rests on what is believed now, not on the superseded statements."""
    if not revision.revisions:
        return beliefs
    replaced = {r.old_belief_id: r for r in revision.revisions}
    return [
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


def _revision_note(revision: RevisionOutcome) -> str | None:
    """What was revised this turn, and an immutable belief's revision waiting for a person."""
    revised = (
        "; ".join(f"{r.old_statement} → {r.new_statement}" for r in revision.revisions) or None
    )
    if revision.approvals:
        pending = "; ".join(a.proposed_statement for a in revision.approvals)
        revised = (revised + "; " if revised else "") + (
            f"an immutable belief reached the threshold: a person must decide ({pending})"
        )
    return revised


def _refusal(plan: Plan) -> str | None:
    if plan.mode != "blocked":
        return None
    reason = plan.guardian.reason
    return "the guardian blocked this request" if reason is None else reason
