"""What a turn teaches the agent about the person it talks with (docs/memory.md §2), inside the
turn's transaction (which holds the agent's lock): trust moved by a correction learned from
them and by their answer to a proposal (each change recorded with its reason), their knowledge
in the turn's domain, the goal their request shows, and the way of working that succeeded with
them. The rules are app/memory/people/user_model.py's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from app.graph.client import Transaction
from app.memory.people.models import AnswerDepth, Person
from app.memory.people.store import write_person_in
from app.memory.people.user_model import (
    goals_after,
    knowledge_after,
    knowledge_signal,
    patterns_after,
    trust_after,
    with_trust_change,
)
from app.memory.settings import MemoryMechanics

AnswerAction = Literal["approve", "modify", "answer", "reject"]


@dataclass(frozen=True, slots=True)
class WayOfWorking:
    """How a turn worked: its frame, supervision mode, work verb and the depth of its answer."""

    frame: str
    mode: str
    verb: str | None = None
    depth: AnswerDepth = "standard"


@dataclass(frozen=True, slots=True)
class TurnSignals:
    """What one turn of the person says about them."""

    text: str
    # The turn's domain (the domain of the belief it rests on); None: no knowledge signal.
    domain: str | None = None
    # Corrections the turn learned from them (their statements).
    corrections: list[str] = field(default_factory=list)
    # They taught the agent something the turn learned (guidance or a correction).
    taught: bool = False
    # The work their request asks for (a work unit's description and verb), when a request.
    goal: str | None = None
    verb: str | None = None
    outcome: str = "neutral"
    way: WayOfWorking | None = None
    episode_id: str | None = None


@dataclass(frozen=True, slots=True)
class ProposalAnswer:
    """A person's answer to a question the agent left pending (an approval or guidance), and
    what came of it."""

    action: AnswerAction
    outcome: str
    approval_id: str
    question: str
    way: WayOfWorking | None = None


def person_after_turn(
    person: Person, signals: TurnSignals, mechanics: MemoryMechanics, now: datetime
) -> Person:
    """``person`` after what the turn showed of them (pure)."""
    updated = person
    if signals.corrections:
        more = f" (and {len(signals.corrections) - 1} more)" if len(signals.corrections) > 1 else ""
        updated = with_trust_change(
            updated,
            "correction",
            trust_after(updated.trust, True, mechanics),
            f"corrected the agent, and the correction was learned: “{signals.corrections[0]}”"
            + more,
            signals.episode_id,
            now,
            mechanics,
        )
    signal = knowledge_signal(signals.text, signals.taught, mechanics)
    if signals.domain and signal is not None:
        knowledge = knowledge_after(updated.knowledge, signals.domain, signal, now, mechanics)
        updated = updated.model_copy(update={"knowledge": knowledge})
    if signals.goal:
        goals = goals_after(updated.inferred_goals, signals.goal, signals.verb, now, mechanics)
        updated = updated.model_copy(update={"inferred_goals": goals})
    return _with_success(updated, signals.outcome, signals.way, mechanics, now)


def person_after_answer(
    person: Person, answer: ProposalAnswer, mechanics: MemoryMechanics, now: datetime
) -> Person:
    """``person`` after their answer to a pending question (pure): a rejection gains trust (the
    agent defers to it, and learns it as its own belief's failure); an approval or guidance
    gains trust when the work then succeeded and loses it when the work failed; a neutral
    outcome moves nothing."""
    asked = answer.question.strip()
    if answer.action == "reject":
        updated = with_trust_change(
            person,
            "rejection",
            trust_after(person.trust, True, mechanics),
            f"rejected what the agent proposed, and the agent deferred: “{asked}”",
            answer.approval_id,
            now,
            mechanics,
        )
    elif answer.outcome in ("success", "failure"):
        succeeded = answer.outcome == "success"
        updated = with_trust_change(
            person,
            "approval",
            trust_after(person.trust, succeeded, mechanics),
            f"{_verb(answer.action)} work that then {'succeeded' if succeeded else 'failed'}: "
            f"“{asked}”",
            answer.approval_id,
            now,
            mechanics,
        )
    else:
        updated = person
    return _with_success(updated, answer.outcome, answer.way, mechanics, now)


async def learn_about_person_in(
    tx: Transaction, person: Person, updated: Person, mechanics: MemoryMechanics
) -> Person:
    """Writes ``updated`` when it differs from ``person`` (the caller holds the agent's lock)."""
    if updated == person:
        return person
    return await write_person_in(tx, updated, mechanics)


def _with_success(
    person: Person,
    outcome: str,
    way: WayOfWorking | None,
    mechanics: MemoryMechanics,
    now: datetime,
) -> Person:
    if outcome != "success" or way is None:
        return person
    patterns = patterns_after(
        person.successful_patterns, way.frame, way.mode, way.verb, way.depth, now, mechanics
    )
    return person.model_copy(update={"successful_patterns": patterns})


def _verb(action: AnswerAction) -> str:
    return {"approve": "approved", "modify": "approved, modified,", "answer": "guided"}.get(
        action, action
    )
