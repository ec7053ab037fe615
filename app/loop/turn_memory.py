"""What every kind of turn writes to the agent's memory, inside the caller's transaction (which
holds the agent's lock): the people met, the turn's episode, and what an outcome teaches the
beliefs it concerns and the agent's record of its capability.

Written once here for the three writers that take these steps: a turn (app/loop/write_phase.py),
a resumed turn (the same module) and the memory of a tool call, written right after its answer
(app/loop/call_memory.py).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime

from app.beliefs.models import OutcomeIn
from app.beliefs.updates import apply_outcome_in
from app.graph.client import Transaction
from app.loop.acting import moral_valence
from app.loop.activation import Activation
from app.loop.episode_rows import EpisodeDraft, is_person, turn_episode_row
from app.loop.planning import PlannedTurn
from app.loop.services import LoopServices
from app.loop.settings import LoopConfig, LoopSettings
from app.memory.capability_map import capability_for
from app.memory.episodes import write_episodes_in
from app.memory.people.learning import (
    TurnSignals,
    WayOfWorking,
    learn_about_person_in,
    person_after_turn,
)
from app.memory.people.micro_birth import meet_in
from app.memory.people.models import MetPerson, Person
from app.memory.self_model import CapabilityOutcome, record_capability_outcome_in
from app.memory.settings import MemoryMechanics
from app.reasoning.protocol import Verification


@dataclass(frozen=True, slots=True)
class OutcomeLesson:
    """What learning takes from a turn's outcome."""

    # The beliefs the outcome moves: the one that decided the turn's mode first, then the next
    # most relevant (at most ``outcome_beliefs``); empty: no belief learns from this turn.
    belief_ids: list[str]
    outcome: str
    # The words judged for a moral topic (a confirmation or a violation).
    message: str
    severity: float
    context: str | None
    # The frame whose capability record counts the outcome; None: none does.
    capability_domain: str | None


@dataclass(frozen=True, slots=True)
class PeopleMet:
    """The speaker met in a turn (and the affect in their words), and who was micro-born."""

    person_id: str | None = None
    frustrated: bool = False
    praised: bool = False
    born: list[str] = field(default_factory=list)
    # The speaker as met (their user model as the turn found it, this interaction counted).
    person: Person | None = None


async def meet_people(
    tx: Transaction,
    memory: MemoryMechanics,
    agent_id: str,
    speaker: str | None,
    words: str,
    mentioned: list[str],
    now: datetime,
) -> PeopleMet:
    """The speaker (their ``words`` read for affect cues), then the people the message names
    who were not known yet (``mentioned``)."""
    met = await meet_speaker(tx, memory, agent_id, speaker, words, now)
    born = [met.person.name] if met is not None and met.created else []
    for name in mentioned:
        named = await meet_in(tx, agent_id, name, None, memory, now)
        if named.created:
            born.append(named.person.name)
    if met is None:
        return PeopleMet(born=born)
    return PeopleMet(
        person_id=met.person.id,
        frustrated=bool(met.frustration_cues),
        praised=bool(met.praise_cues),
        born=born,
        person=met.person,
    )


def turn_signals(turn: PlannedTurn, outcome: str, episode_id: str) -> TurnSignals:
    """What the turn showed of its speaker (docs/memory.md §2): the corrections and guidance
    it learned from them, their words in the turn's domain, the goal of their request, and how
    the turn worked, with its outcome."""
    plan, activation = turn.plan, turn.activation
    unit = plan.work_unit
    requested = plan.appraisal is not None and plan.appraisal.is_request and unit is not None
    return TurnSignals(
        text=turn.request.message,
        domain=activation.domain,
        corrections=[new.statement for new in plan.learning if new.kind == "correction"],
        taught=any(new.kind in ("guidance", "correction") for new in plan.learning),
        goal=unit.description if requested and unit is not None else None,
        verb=unit.verb if requested and unit is not None else None,
        outcome=outcome,
        way=WayOfWorking(
            frame=activation.frame,
            mode=plan.mode,
            verb=unit.verb if unit is not None else None,
            depth=activation.depth,
        ),
        episode_id=episode_id,
    )


async def learn_about_speaker_in(
    tx: Transaction,
    memory: MemoryMechanics,
    person: Person | None,
    signals: TurnSignals,
    now: datetime,
) -> None:
    """The speaker's user model after the turn (trust, knowledge, goals, patterns), written
    when it changed; nothing for a turn without a person speaking."""
    if person is not None:
        updated = person_after_turn(person, signals, memory, now)
        await learn_about_person_in(tx, person, updated, memory)


async def meet_speaker(
    tx: Transaction,
    memory: MemoryMechanics,
    agent_id: str,
    speaker: str | None,
    words: str | None,
    now: datetime,
) -> MetPerson | None:
    """The speaker met, when a person (not the agent itself): micro-born when new, one
    interaction counted, the affect cues in ``words`` applied."""
    if speaker is None or not is_person(speaker):
        return None
    return await meet_in(tx, agent_id, speaker, words, memory, now)


async def write_turn_episode(
    tx: Transaction,
    services: LoopServices,
    agent_id: str,
    draft: EpisodeDraft,
    now: datetime,
    *,
    defer_vectors: bool = False,
    episode_id: str | None = None,
) -> tuple[str, dict[str, str]]:
    """Writes the turn's episode at the end of its session (embedded with the turn before it,
    now or, with ``defer_vectors``, after the commit); returns its id (``episode_id``, else a
    new one) and the texts of the vectors deferred."""
    settings = services.settings
    episode_id = episode_id or str(uuid.uuid4())
    row = turn_episode_row(
        draft, agent_id=agent_id, episode_id=episode_id, now=now, memory=settings.memory
    )
    deferred = await write_episodes_in(
        tx,
        settings.retrieval,
        services.embedder,
        agent_id,
        [row],
        defer_vectors=defer_vectors,
    )
    return episode_id, deferred


async def learn_from_outcome(
    tx: Transaction, settings: LoopConfig, agent_id: str, lesson: OutcomeLesson, now: datetime
) -> None:
    """A success or a failure moves the beliefs it concerns (with its moral valence) and the
    agent's record of its capability in the frame; a neutral outcome teaches nothing."""
    outcome = lesson.outcome
    if outcome == "neutral" or not lesson.belief_ids:
        return
    mechanics = settings.mechanics
    update = OutcomeIn(
        outcome=outcome,
        moral_valence=moral_valence(lesson.message, outcome, mechanics.moral_topics),
        severity=lesson.severity,
        context=lesson.context,
    )
    for belief_id in lesson.belief_ids:
        await apply_outcome_in(tx, mechanics, agent_id, belief_id, update)
    if lesson.capability_domain is not None:
        await record_capability_outcome_in(
            tx,
            agent_id,
            CapabilityOutcome(domain=lesson.capability_domain, success=outcome == "success"),
            settings.memory,
            now,
        )


def outcome_beliefs(activation: Activation, limit: int) -> list[str]:
    """The beliefs an outcome moves (seed 000: the three most relevant): the relevant belief
    that decided the mode, then the others at or above the relevance floor, most relevant
    first; none when no belief decided."""
    if activation.relevant is None:
        return []
    others = sorted(
        (
            belief.id
            for belief in activation.beliefs
            if belief.id != activation.relevant.id
            and activation.relevance.get(belief.id, 0.0) >= activation.floor
        ),
        key=lambda belief_id: activation.relevance.get(belief_id, 0.0),
        reverse=True,
    )
    return [activation.relevant.id, *others][:limit]


def failure_severity(verification: Verification | None, loop: LoopSettings) -> float:
    """How bad a failure was (seed 000): the largest of the verification issues' severities
    through ``severity_by_issue`` (low 0.3, medium 0.6, high 0.9); 0 without issues."""
    issues = verification.issues if verification is not None else []
    return max((loop.severity_by_issue.get(issue.severity, 0.3) for issue in issues), default=0.0)


def turn_lesson(turn: PlannedTurn, outcome: str, loop: LoopSettings) -> OutcomeLesson:
    """What the turn's ``outcome`` teaches: the beliefs it moves, with its severity and context,
    and the capability it exercised (app/memory/capability_map.py: by its work unit's verb, else
    its frame)."""
    activation, plan = turn.activation, turn.plan
    return OutcomeLesson(
        belief_ids=outcome_beliefs(activation, loop.outcome_beliefs),
        outcome=outcome,
        message=turn.request.message,
        severity=failure_severity(plan.verification, loop),
        context=activation.context_name,
        capability_domain=capability_for(
            plan.work_unit.verb if plan.work_unit else None, activation.frame
        ),
    )
