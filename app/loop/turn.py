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
import uuid
from datetime import UTC, datetime

from app.beliefs.models import EvidenceForBelief, OutcomeIn, RevisionOutcome, TensionMove
from app.beliefs.revision import meditate_if_runaway, record_dissatisfaction_in, revise_tense_in
from app.beliefs.updates import apply_evidence_in, apply_outcome_in
from app.embeddings.store import embed_pending
from app.errors import CredenceError, TurnFailed
from app.graph.agent_scope import lock_agent
from app.graph.client import Transaction
from app.loop.acting import describe_execution, moral_valence, outcome_of
from app.loop.activation import Activation, activate
from app.loop.approvals import TurnState, create_approval_in
from app.loop.episode_rows import finish_turn_episode_in, is_person, turn_episode_row
from app.loop.models import (
    ApprovalPublic,
    ChatRequest,
    DissatisfactionView,
    TurnEvent,
    TurnResult,
)
from app.loop.planning import Plan, plan_turn
from app.loop.prompting import system_prompt_for
from app.loop.recording import (
    Emit,
    ReasonerFailed,
    RecordedReviser,
    TurnRecorder,
    silent,
)
from app.loop.services import LoopServices
from app.memory.episodes import end_sessions, write_episodes_in
from app.memory.people import meet_in, mentioned_people
from app.memory.self_model import CapabilityOutcome, record_capability_outcome_in
from app.reasoning.protocol import (
    BeliefBrief,
    Reply,
    ResponseRequest,
)

log = logging.getLogger(__name__)


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


async def run_turn(
    services: LoopServices,
    agent_id: str,
    request: ChatRequest,
    emit: Emit = silent,
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
        result, sample = await services.graph.write_transaction(
            lambda tx: _record_turn(tx, services, recorder, agent_id, request, activation, plan),
            action="recording a turn",
        )
    except ReasonerFailed as failure:
        await emit(TurnEvent(type="error", data={"phase": failure.phase, "cause": failure.cause}))
        raise TurnFailed(agent_id, failure.phase, failure.cause) from failure
    except CredenceError as error:
        await emit(TurnEvent(type="error", data={"phase": phase, "cause": error.message}))
        raise
    await _after_turn(services, agent_id, request, result, sample)
    await emit(TurnEvent(type="done", data={"turn_id": result.turn_id, "mode": result.mode}))
    return result


async def _after_turn(
    services: LoopServices,
    agent_id: str,
    request: ChatRequest,
    result: TurnResult,
    sample: tuple[float, int],
) -> None:
    """Bookkeeping after the turn committed: vectors for revised beliefs, a meditation when the
    runaway guard's streak (``sample``: D and the streak, recorded by the turn's transaction)
    says D stayed above the line too long, and, when asked, the session's peak-end salience."""
    try:
        if result.revisions:
            # Revised beliefs are written without vectors; give them theirs now so the next
            # turn finds them by meaning too, not only by their words.
            await embed_pending(services.graph, services.embedder, agent_id)
        value, streak = sample
        await meditate_if_runaway(
            services.graph,
            services.settings.mechanics,
            services.reasoner,
            agent_id,
            value,
            streak,
        )
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
) -> tuple[TurnResult, tuple[float, int]]:
    """Everything the turn writes, in the caller's transaction; returns the result and the
    dissatisfaction sample taken after the turn's learning (D, the runaway guard's streak)."""
    settings, reasoner = services.settings, services.reasoner
    now = datetime.now(UTC)
    await lock_agent(tx, agent_id)
    memory = settings.memory
    speaker_is_person = is_person(request.speaker)
    person_id: str | None = None
    people_born: list[str] = []
    frustrated = praised = False
    if speaker_is_person and request.speaker is not None:
        met = await meet_in(tx, agent_id, request.speaker, request.message, memory, now)
        person_id = met.person.id
        frustrated, praised = bool(met.frustration_cues), bool(met.praise_cues)
        if met.created:
            people_born.append(met.person.name)
    for name in plan.mentioned:
        met = await meet_in(tx, agent_id, name, None, memory, now)
        if met.created:
            people_born.append(met.person.name)

    episode_id = str(uuid.uuid4())
    outcome = outcome_of(plan.execution, plan.verification)
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
            turn_episode_row(
                agent_id=agent_id,
                episode_id=episode_id,
                speaker=request.speaker,
                text=request.message,
                session=request.session,
                outcome=outcome,
                frame=activation.frame,
                actions=_actions(plan),
                about=about,
                vector=vector,
                now=now,
                memory=memory,
                emotional_valence=emotional_valence(outcome, frustrated, praised),
                surprise=surprise(plan, activation),
            )
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
        revision = await revise_tense_in(
            tx, settings.mechanics, RecordedReviser(reasoner, recorder), agent_id, candidates
        )
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
    await finish_turn_episode_in(
        tx,
        recorder,
        agent_id,
        episode_id,
        response=reply.text,
        mode=plan.mode,
        dissatisfaction=activation.dissatisfaction.value,
        revision_triggered=bool(revision.revisions),
        frame=activation.frame,
        decision_id=decision_id,
    )
    sample = await record_dissatisfaction_in(tx, settings.mechanics, agent_id)
    turn = TurnResult(
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
        timings_ms={
            **recorder.timings_ms,
            **{f"context.{name}": ms for name, ms in activation.timings_ms.items()},
        },
    )
    return turn, sample


def emotional_valence(outcome: str, frustrated: bool, praised: bool) -> float:
    """How the turn felt, in [-1, 1], for peak-end salience: frustration −0.3, praise +0.2,
    a failure −0.4, a success +0.2 (the largest |valence| of a session is its peak)."""
    value = (-0.3 if frustrated else 0.0) + (0.2 if praised else 0.0)
    value += {"failure": -0.4, "success": 0.2}.get(outcome, 0.0)
    return max(-1.0, min(1.0, round(value, 3)))


def surprise(plan: Plan, activation: Activation) -> float:
    """How far the turn's evidence went against what was believed: the strongest contradicting
    confidence times that belief's strength (0 when nothing contradicted)."""
    strengths = {b.id: b.strength for b in activation.beliefs}
    return round(
        max(
            (
                item.confidence * strengths.get(item.belief_id, 0.0)
                for item in (plan.evidence.items if plan.evidence else [])
                if item.stance == "contradicting"
            ),
            default=0.0,
        ),
        3,
    )


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
                system_prompt=system_prompt_for(agent),
                band=activation.dissatisfaction.band,
                dissatisfaction=activation.dissatisfaction.value,
                # Supervision concerns acting: a turn that asks for nothing is simply answered.
                mode=(
                    plan.mode
                    if plan.work_unit is not None or plan.mode in ("blocked", "revision")
                    else "autonomous"
                ),
                frame=activation.frame,
                beliefs=beliefs,
                tensions=tensions,
                revision=revised,
                execution=describe_execution(plan.execution, plan.verification, plan.work_unit),
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
