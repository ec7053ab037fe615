"""The write phase of a turn, fresh or resumed: everything the turn writes, in the caller's one
transaction, under the agent's lock (taken first, before anything is read or written), so a
failure anywhere in it rolls the whole turn back.

A turn: meet the people → write the episode → apply the evidence → learn from the outcome →
revise beliefs at the threshold → record the decision → ask a person (guidance, proposal) →
answer and finish the episode → sample D.

A resumed turn: resolve the approval → meet the speaker → learn from the outcome → record the
decision's outcome → write the episode → answer and finish the episode.

The steps both take (meet the speaker, write the episode, learn from the outcome) live in
app/loop/turn_memory.py; each keeps the order its writes always had. A turn that calls a tool
writes through app/loop/call_record.py instead (its memory after its answer).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime

from app.agents.store import find_agent_identity
from app.beliefs.formulas import tension_delta
from app.beliefs.mechanics import Mechanics
from app.beliefs.models import EvidenceForBelief, RevisionOutcome, TensionMove
from app.beliefs.revision import record_dissatisfaction_in, revise_tense_in
from app.beliefs.updates import apply_evidence_in
from app.errors import AgentNotFound
from app.graph.agent_scope import lock_agent
from app.graph.client import Transaction
from app.loop.acting import outcome_of
from app.loop.activation import Activation
from app.loop.answers import ROUNDS, AnswersNeeded, TurnAnswers
from app.loop.approvals import (
    ANSWERED_STATUS,
    TurnState,
    create_approval_in,
    modified_unit,
    required_authority,
    resolve_in,
)
from app.loop.call_memory import CallCompletion
from app.loop.decisions import create_decision_in, record_decision_outcome_in
from app.loop.episode_rows import (
    EpisodeDraft,
    TurnConduct,
    coherence_penalty,
    emotional_valence,
    error_surprise,
    finish_turn_episode_in,
    is_person,
    surprise,
    turn_actions,
)
from app.loop.learning import learn_in, reinforcements
from app.loop.models import ApprovalPublic, TurnEvent, TurnResult
from app.loop.paused_turn import Resumption
from app.loop.planning import Plan, PlannedTurn
from app.loop.recording import TurnRecorder, write_then_emit
from app.loop.responses import resumption_response, turn_response
from app.loop.results import TurnWritten, resumption_result, turn_result
from app.loop.revisits import mark_told_in
from app.loop.services import LoopServices
from app.loop.settings import LoopConfig, LoopSettings
from app.loop.turn_memory import (
    OutcomeLesson,
    PeopleMet,
    failure_severity,
    learn_about_speaker_in,
    learn_from_outcome,
    meet_people,
    meet_speaker,
    outcome_beliefs,
    turn_lesson,
    turn_signals,
    write_turn_episode,
)
from app.loop.work_tasks import move_resumed_task_in, open_turn_task_in
from app.memory.capability_map import capability_for
from app.memory.people.learning import (
    ProposalAnswer,
    WayOfWorking,
    learn_about_person_in,
    person_after_answer,
)
from app.memory.people.models import MetPerson, Person
from app.memory.settings import MemoryMechanics
from app.memory.working_memory import note_entities_in
from app.reasoning.protocol import EvidenceItem, Reply, ResponseRequest
from app.tools.actions import action_status, complete_approved_action_in


@dataclass(frozen=True, slots=True)
class Aftermath:
    """What a committed turn leaves for the work after its answer: the dissatisfaction sample
    taken after its learning (D, the runaway guard's streak), or the Action of a tool call whose
    memory (its episode, what its outcome teaches, D's sample) is written after the answer
    (app/loop/call_memory.py), with what came of the call when it ran beside its record."""

    dissatisfaction: float
    streak: int
    call_memory: str | None = None
    call_completion: CallCompletion | None = None


@dataclass(frozen=True, slots=True)
class TurnRecords:
    """What the end of a turn's transaction recorded: the answer, the decision and the question
    left for a person."""

    reply: Reply
    decision_id: str | None
    approval: ApprovalPublic | None


@dataclass(frozen=True, slots=True)
class _TensionApplied:
    moves: list[TensionMove] = field(default_factory=list)
    touched: list[str] = field(default_factory=list)


# --- a turn ------------------------------------------------------------------------------------


async def write_turn(
    services: LoopServices, recorder: TurnRecorder, turn: PlannedTurn
) -> tuple[TurnResult, Aftermath]:
    """Everything a turn writes, in one transaction, with the reasoner asked outside it (see
    app/loop/answers.py): the response first (for the turn as it would be without a revision,
    unless a belief is at the threshold already), then, when the transaction finds a belief
    its evidence made tense, the revisions and the response that says so, and the transaction
    again. The turn's events reach the listener once, after the commit.

    Returns:
        The turn's result, and what it leaves for after the answer.

    Raises:
        ReasonerFailed (revise, respond) and CredenceError (the graph): nothing is written.
    """
    answers = TurnAnswers()
    if not _may_revise(turn, services.settings):
        await answers.respond(services.reasoner, recorder, _unrevised_response(services, turn))
    for round_ in range(1, ROUNDS + 1):
        answers.settle = round_ == ROUNDS
        if answers.settle and answers.response is None:
            await answers.respond(services.reasoner, recorder, _unrevised_response(services, turn))
        try:
            return await write_then_emit(
                services.graph,
                recorder,
                lambda tx, held: record_turn(tx, services, held, turn, answers),
                action="recording a turn",
            )
        except AnswersNeeded as needed:
            await answers.answer(services.reasoner, recorder, needed)
    raise AssertionError("the last round settles")  # pragma: no cover


def _may_revise(turn: PlannedTurn, settings: LoopConfig) -> bool:
    """Whether the turn will likely revise (then its response is asked once the revision is
    known, not before): a belief at the threshold already, or contradicting evidence that may
    take the belief it contradicts there (its tension plus the most one piece can add). A
    wrong guess costs one more round of the transaction, or one more response."""
    activation, mechanics = turn.activation, settings.mechanics
    if turn.plan.mode == "blocked":
        return False
    if activation.at_threshold:
        return True
    tension = {belief.id: belief.tension for belief in activation.beliefs}
    return any(
        item.stance == "contradicting"
        and tension.get(item.belief_id, 0.0) + tension_delta(item.confidence, mechanics)
        >= mechanics.revision_threshold
        for item in _usable_evidence(settings.loop, turn.plan)
    )


def _unrevised_response(services: LoopServices, turn: PlannedTurn) -> ResponseRequest:
    """The response request of the turn when it revises nothing."""
    return turn_response(
        turn,
        RevisionOutcome(),
        question_for(turn.plan, turn.activation),
        services.settings.loop.history_turns_answer,
    )


async def record_turn(
    tx: Transaction,
    services: LoopServices,
    recorder: TurnRecorder,
    turn: PlannedTurn,
    answers: TurnAnswers,
) -> tuple[TurnResult, Aftermath]:
    """Everything a turn writes, in the caller's transaction, with the reasoner's answers
    asked before it. Revision runs inside it, so the turn that pushes a belief over the
    threshold halts and revises.

    Raises:
        AnswersNeeded (a revision or the response not answered yet) and CredenceError (the
        graph): the caller's transaction then rolls back.
    """
    # The plan's mode may change in here (a revision): a round run again starts from the
    # planned one.
    turn = replace(turn, plan=replace(turn.plan))
    settings, plan, agent_id = services.settings, turn.plan, turn.agent_id
    now = services.clock.now()
    await lock_agent(tx, agent_id)
    request = turn.request
    people = await meet_people(
        tx, settings.memory, agent_id, request.speaker, request.message, plan.mentioned, now
    )
    outcome = outcome_of(plan.execution, plan.verification)
    usable = _usable_evidence(settings.loop, plan)
    evidence = usable + reinforcements(plan.learning, usable)
    draft = _turn_episode(turn, outcome, evidence, people)
    episode_id, _ = await write_turn_episode(tx, services, agent_id, draft, now)
    await recorder.phase("episode", episode_id=episode_id)
    items = _evidence_for_beliefs(evidence, people.person_id, episode_id)
    tension = await _apply_evidence(tx, settings.mechanics, recorder, agent_id, items)
    speaker = turn.request.speaker if is_person(turn.request.speaker) else None
    learned = await learn_in(
        tx,
        settings.mechanics,
        settings.loop,
        agent_id,
        plan.learning,
        (episode_id, people.person_id, speaker),
        turn.activation.learned_category,
    )
    await learn_from_outcome(tx, settings, agent_id, turn_lesson(turn, outcome, settings.loop), now)
    revision = await _revise(tx, services.settings.mechanics, recorder, turn, tension, answers)
    signals = turn_signals(turn, outcome, episode_id)
    await learn_about_speaker_in(tx, settings.memory, people.person, signals, now)
    # The speaker has now been told of what this answer names and of what it revised.
    told = [r.revision_id for r in turn.activation.revisited] + [r.id for r in revision.revisions]
    await mark_told_in(tx, agent_id, speaker, told, episode_id, now)
    if turn.plan.work_unit is not None:
        # What the work acts on becomes salient in working memory (seed 002's entities column).
        await note_entities_in(tx, agent_id, turn.plan.work_unit.entities, "work_unit", now)
    await recorder.phase("learn", tension_changes=len(tension.moves))
    records = await _record_decision_and_answer(
        tx, services, recorder, turn, (revision, answers), (outcome, episode_id), now
    )
    # The work unit as a task of working memory, in the state the turn left it (seed 000).
    await open_turn_task_in(tx, turn, records.approval, settings.memory, now)
    value, streak = await record_dissatisfaction_in(tx, settings.mechanics, agent_id)
    written = TurnWritten(
        episode_id,
        records.reply,
        records.decision_id,
        tension.moves,
        revision,
        records.approval,
        people.born,
        learned,
    )
    result = turn_result(turn, recorder, written)
    return result, Aftermath(value, streak)


async def _record_decision_and_answer(
    tx: Transaction,
    services: LoopServices,
    recorder: TurnRecorder,
    turn: PlannedTurn,
    revised: tuple[RevisionOutcome, TurnAnswers],
    written: tuple[str, str],
    now: datetime,
) -> TurnRecords:
    """The decision (when the turn has a work unit), the rules used, the question to a
    person, the answer, and the episode completed (a turn that calls no tool);
    ``written``: the turn's outcome and its episode."""
    settings, plan, agent_id = services.settings, turn.plan, turn.agent_id
    (revision, answers), (outcome, episode_id) = revised, written
    decision_id = (
        await create_decision_in(tx, agent_id, turn.activation, plan, plan.work_unit)
        if plan.work_unit is not None
        else None
    )
    rule_ids = [rule.id for rule in turn.activation.rules]
    await _record_rules_used(tx, agent_id, episode_id, decision_id, rule_ids, outcome, now)
    approval, question = await ask_a_person(
        tx, settings.loop, recorder, turn, decision_id, episode_id
    )
    reply = answers.reply_for(
        turn_response(turn, revision, question, settings.loop.history_turns_answer)
    )
    conduct = turn_conduct(turn, bool(revision.revisions), decision_id)
    await finish_turn_episode_in(tx, recorder, agent_id, episode_id, reply.text, conduct)
    return TurnRecords(reply, decision_id, approval)


def turn_conduct(turn: PlannedTurn, revised: bool, decision_id: str | None) -> TurnConduct:
    """How the turn ran, recorded on its episode."""
    return TurnConduct(
        mode=turn.plan.mode,
        dissatisfaction=turn.activation.dissatisfaction.value,
        revision_triggered=revised,
        frame=turn.activation.frame,
        decision_id=decision_id,
    )


def _usable_evidence(loop: LoopSettings, plan: Plan) -> list[EvidenceItem]:
    """The evidence the turn applies: confident enough, and for or against a belief."""
    return [
        item
        for item in (plan.evidence.items if plan.evidence else [])
        if item.confidence >= loop.min_evidence_confidence
        and item.stance in ("reinforcing", "contradicting")
    ]


def _turn_episode(
    turn: PlannedTurn, outcome: str, evidence: list[EvidenceItem], people: PeopleMet
) -> EpisodeDraft:
    activation, request = turn.activation, turn.request
    about = list(
        dict.fromkeys(
            ([activation.relevant.id] if activation.relevant else [])
            + [item.belief_id for item in evidence]
        )
    )
    return EpisodeDraft(
        speaker=request.speaker,
        text=request.message,
        session=request.session,
        outcome=outcome,
        frame=activation.frame,
        actions=turn_actions(turn.plan),
        about=about,
        emotional_valence=emotional_valence(outcome, people.frustrated, people.praised),
        surprise=surprise(turn.plan, activation),
        coherence_penalty=coherence_penalty(turn.plan),
    )


def _evidence_for_beliefs(
    evidence: list[EvidenceItem], person_id: str | None, episode_id: str
) -> list[EvidenceForBelief]:
    return [
        EvidenceForBelief(
            belief_id=item.belief_id,
            text=item.claim[:2000],
            stance=item.stance,
            kind=item.kind,
            confidence=item.confidence,
            source_person_id=person_id,
            episode_id=episode_id,
        )
        for item in evidence
    ]


async def _apply_evidence(
    tx: Transaction,
    mechanics: Mechanics,
    recorder: TurnRecorder,
    agent_id: str,
    items: list[EvidenceForBelief],
) -> _TensionApplied:
    """The evidence applied; each tension it moved (directly or by propagation) is streamed."""
    if not items:
        return _TensionApplied()
    applied = await apply_evidence_in(tx, mechanics, agent_id, items)
    moves = [
        TensionMove(
            id=result.belief_id,
            old=result.old_tension,
            new=result.new_tension,
            added=result.new_tension - result.old_tension,
        )
        for result in applied.results
        if result.new_tension != result.old_tension
    ]
    moves += applied.propagated
    for move in moves:
        await recorder.emit(TurnEvent(type="tension", data=move.model_dump()))
    return _TensionApplied(moves=moves, touched=applied.touched_ids())


async def _record_rules_used(
    tx: Transaction,
    agent_id: str,
    episode_id: str,
    decision_id: str | None,
    rule_ids: list[str],
    outcome: str,
    now: datetime,
) -> None:
    """The rules the turn applied, recorded as used by its episode (and its decision); a
    success validates them, which restarts their decay."""
    if not rule_ids:
        return
    await tx.run(
        "loop/write_phase/record_rules_used",
        agent_id=agent_id,
        episode_id=episode_id,
        decision_id=decision_id,
        rule_ids=rule_ids,
        validate=outcome == "success",
        now=now,
    )


async def _revise(
    tx: Transaction,
    mechanics: Mechanics,
    recorder: TurnRecorder,
    turn: PlannedTurn,
    tension: _TensionApplied,
    answers: TurnAnswers,
) -> RevisionOutcome:
    """Revises the beliefs the evidence touched and those already at the threshold (those
    still below it are left); a turn that revised and ran nothing answers as a revision.

    Raises:
        AnswersNeeded: a tense belief's revision is not answered yet (unless settling).
    """
    plan = turn.plan
    candidates = list(dict.fromkeys(tension.touched + turn.activation.at_threshold))
    if plan.mode == "blocked" or not candidates:
        return RevisionOutcome()
    revised = await revise_tense_in(tx, mechanics, answers, turn.agent_id, candidates)
    if revised.unanswered and not answers.settle:
        raise AnswersNeeded(revised.unanswered)
    revision = revised.outcome
    for summary in revision.revisions:
        await recorder.emit(TurnEvent(type="revision", data=summary.model_dump(mode="json")))
    if (revision.revisions or revision.approvals) and plan.execution is None:
        plan.mode = "revision"
    return revision


async def ask_a_person(
    tx: Transaction,
    loop: LoopSettings,
    recorder: TurnRecorder,
    turn: PlannedTurn,
    decision_id: str | None,
    episode_id: str,
) -> tuple[ApprovalPublic | None, str | None]:
    """A guidance or proposal turn with a work unit leaves its question pending, with the
    turn's state, for a person to answer; returns the approval and the question."""
    plan = turn.plan
    if plan.mode not in ("guidance", "proposal") or plan.work_unit is None:
        return None, None
    question = question_for(plan, turn.activation)
    assert question is not None
    approval = await create_approval_in(
        tx,
        turn.agent_id,
        kind=plan.mode,
        question=question,
        work_unit=plan.work_unit,
        state=_turn_state(turn, decision_id, loop),
        episode_id=episode_id,
        ttl_hours=loop.approval_ttl_hours,
        required_authority=required_authority(turn.activation.stakes, loop),
    )
    await recorder.emit(TurnEvent(type="approval", data=approval.model_dump(mode="json")))
    return approval, question


def question_for(plan: Plan, activation: Activation) -> str | None:
    """What a guidance or proposal turn with a work unit asks a person; None otherwise."""
    unit = plan.work_unit
    if plan.mode not in ("guidance", "proposal") or unit is None:
        return None
    if plan.mode == "proposal":
        return f"May I go ahead? Proposed: {unit.description}"
    # The frame's questions_to_ask are the agent's own checks ("Do I actually know this?"), not
    # questions for the person: the question asked is about this request alone.
    topic = activation.relevant.statement if activation.relevant else None
    # A tool call is approved, modified or rejected: no guidance text can change its arguments.
    ask = "May I make this call?" if unit.call is not None else "How should I proceed?"
    if topic:
        return f"I am not sure enough to act on this (“{topic.strip().rstrip('.')}”). {ask}"
    asked = unit.description.strip().rstrip(".")
    return f"I have no belief I trust to act on this ({asked}). {ask}"


def _turn_state(turn: PlannedTurn, decision_id: str | None, loop: LoopSettings) -> TurnState:
    """What the paused turn needs to resume, through any API process, after a restart."""
    activation, plan, relevant = turn.activation, turn.plan, turn.activation.relevant
    return TurnState(
        request=turn.request,
        mode=plan.mode,
        frame=activation.frame,
        stakes=activation.stakes,
        band=activation.dissatisfaction.band,
        dissatisfaction=activation.dissatisfaction.value,
        context_name=activation.context_name,
        belief_id=relevant.id if relevant else None,
        belief_strength=relevant.strength if relevant else None,
        belief_statement=relevant.statement if relevant else None,
        decision_id=decision_id,
        appraisal=plan.appraisal,
        used_belief_ids=[b.id for b in activation.beliefs[:3]],
        outcome_belief_ids=outcome_beliefs(activation, loop.outcome_beliefs),
        rule_ids=[rule.id for rule in activation.rules],
        learned_category=activation.learned_category,
    )


# --- a resumed turn ----------------------------------------------------------------------------


async def write_resumption(
    services: LoopServices, recorder: TurnRecorder, run: Resumption
) -> TurnResult:
    """Everything a resumed turn writes, in one transaction; its response is asked before it
    (it rests on the paused turn's state, not on what the transaction writes), and its events
    reach the listener once, after the commit.

    Raises:
        AgentNotFound, ApprovalClosed (the claim was lost), ReasonerFailed (respond) and
        CredenceError (the graph): nothing is written.
    """
    agent = await find_agent_identity(services.graph, run.agent_id)
    if agent is None:
        raise AgentNotFound(run.agent_id)
    history_turns = services.settings.loop.history_turns_answer
    request = resumption_response(agent, run, history_turns)
    reply = await recorder.judge("respond", services.reasoner.respond(request))
    return await write_then_emit(
        services.graph,
        recorder,
        lambda tx, held: record_resumption(tx, services, held, run, reply),
        action="resuming a turn",
    )


async def record_resumption(
    tx: Transaction, services: LoopServices, recorder: TurnRecorder, run: Resumption, reply: Reply
) -> TurnResult:
    """Everything a resumed turn writes, in the caller's transaction: the approval resolved
    (only while this resumption still holds its claim), the outcome learned, the episode, and
    ``reply`` (asked before the transaction).

    Raises:
        ApprovalClosed (the claim was lost) and CredenceError (the graph): the caller's
        transaction then rolls back.
    """
    settings, agent_id, state = services.settings, run.agent_id, run.state
    now = services.clock.now()
    await lock_agent(tx, agent_id)
    approval = await _resolve_approval(tx, run)
    await move_resumed_task_in(tx, run, now)
    speaker = run.answer.speaker or (state.request.speaker if state else None)
    met = await meet_speaker(tx, settings.memory, agent_id, speaker, run.answer.text, now)
    outcome = "failure" if run.rejected else outcome_of(run.execution, run.verification)
    if met is not None:
        await _learn_about_answerer(tx, settings.memory, met.person, run, outcome, now)
    lesson = _resumption_lesson(run, outcome, settings.loop)
    await learn_from_outcome(tx, settings, agent_id, lesson, now)
    if run.decision_id is not None:
        decided = "rejected" if run.rejected else outcome
        modified = run.unit if run.answer.action == "modify" else None
        await record_decision_outcome_in(
            tx, agent_id, run.decision_id, decided, run.execution, modified
        )
    draft = _resumption_episode(run, speaker, outcome, met)
    episode_id, _ = await write_turn_episode(tx, services, agent_id, draft, now)
    action_id = await _complete_approved_action(tx, run, outcome, lesson, episode_id, now)
    rule_ids = state.rule_ids if state else []
    await _record_rules_used(tx, agent_id, episode_id, run.decision_id, rule_ids, outcome, now)
    person_id = met.person.id if met is not None else None
    repeats = _evidence_for_beliefs(reinforcements(run.learning, []), person_id, episode_id)
    await _apply_evidence(tx, settings.mechanics, recorder, agent_id, repeats)
    learned = await learn_in(
        tx,
        settings.mechanics,
        settings.loop,
        agent_id,
        run.learning,
        (episode_id, person_id, speaker if is_person(speaker) else None),
        state.learned_category if state else "contextual",
    )
    conduct = TurnConduct(
        mode=run.mode,
        dissatisfaction=run.dissatisfaction,
        revision_triggered=False,
        frame=run.frame,
        decision_id=run.decision_id,
    )
    await finish_turn_episode_in(tx, recorder, agent_id, episode_id, reply.text, conduct)
    result = resumption_result(run, recorder, approval, episode_id, reply, learned)
    result.action_id = action_id
    return result


async def _learn_about_answerer(
    tx: Transaction,
    memory: MemoryMechanics,
    person: Person,
    run: Resumption,
    outcome: str,
    now: datetime,
) -> None:
    """The answering person's trust after their answer and what came of it, and the way of
    working that succeeded with them (docs/memory.md §2)."""
    state = run.state
    answer = ProposalAnswer(
        action=run.answer.action,
        outcome=outcome,
        approval_id=run.stored.public.id,
        question=run.stored.public.question,
        # The way that worked is the paused turn's (a proposal, a guidance question).
        way=WayOfWorking(
            frame=state.frame,
            mode=state.mode,
            verb=run.unit.verb if run.unit is not None else None,
        )
        if state is not None
        else None,
    )
    updated = person_after_answer(person, answer, memory, now)
    await learn_about_person_in(tx, person, updated, memory)


async def _resolve_approval(tx: Transaction, run: Resumption) -> ApprovalPublic:
    answer = run.answer
    resolved = await resolve_in(
        tx,
        run.agent_id,
        run.stored.public.id,
        run.claim_id,
        ANSWERED_STATUS[answer.action],
        {"action": answer.action, "text": answer.text, "speaker": answer.speaker},
        modified_unit(answer),
    )
    return resolved.public


async def _complete_approved_action(
    tx: Transaction,
    run: Resumption,
    outcome: str,
    lesson: OutcomeLesson,
    episode_id: str,
    now: datetime,
) -> str | None:
    """The Action of an approved (modified, answered or rejected) tool call, completed."""
    proposed = run.stored.public.work_unit
    if proposed is None or proposed.call is None:
        return None
    ran = run.unit.call if run.unit is not None else None
    return await complete_approved_action_in(
        tx,
        run.agent_id,
        run.stored.public.id,
        ran,
        status=action_status(run.mode, run.execution, outcome, False, run.rejected),
        execution=run.execution,
        episode_id=episode_id,
        moved=lesson.belief_ids if outcome != "neutral" else [],
        now=now,
    )


def _resumption_lesson(run: Resumption, outcome: str, loop: LoopSettings) -> OutcomeLesson:
    """A rejection is a failure of the belief that decided the mode (learned from); an
    outcome of the work moves the paused turn's most relevant beliefs; an immutable belief's
    revision approval teaches nothing."""
    state = run.state
    deciding = [run.belief_id] if run.belief_id else []
    moved = state.outcome_belief_ids if state and state.outcome_belief_ids else deciding
    return OutcomeLesson(
        belief_ids=[]
        if run.stored.public.kind == "revision"
        else (deciding if run.rejected else moved),
        outcome=outcome,
        message=state.request.message if state else "",
        severity=(
            loop.rejection_severity if run.rejected else failure_severity(run.verification, loop)
        ),
        context=state.context_name if state else None,
        capability_domain=(
            capability_for(run.unit.verb if run.unit else None, state.frame) if state else None
        ),
    )


def _resumption_episode(
    run: Resumption, speaker: str | None, outcome: str, met: MetPerson | None
) -> EpisodeDraft:
    """The answered approval's episode: its outcome and, as a turn's, the valence of that outcome
    with the answerer's affect cues (approved work that succeeded can be a session's peak)."""
    state, belief_id = run.state, run.belief_id
    frustrated = met is not None and bool(met.frustration_cues)
    praised = met is not None and bool(met.praise_cues)
    return EpisodeDraft(
        speaker=speaker,
        text=run.answer.text or f"({run.answer.action})",
        session=state.request.session if state else None,
        outcome=outcome,
        frame=run.frame,
        actions=1 + (1 if run.execution else 0) + (1 if run.verification else 0),
        about=[belief_id] if belief_id else [],
        emotional_valence=emotional_valence(outcome, frustrated, praised),
        surprise=error_surprise(run.execution, run.unit),
    )
