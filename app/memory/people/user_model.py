"""The pure rules of the user model the loop keeps on a person (docs/memory.md §2): how trust
moves and is recorded, knowledge per domain, inferred goals, successful patterns, and the depth
of an answer to them. Nothing here touches the database; app/memory/people/learning.py applies
these rules inside a turn's transaction.

Seed 003 gives the fields (trust 0.5, knowledge NOVICE / INTERMEDIATE / EXPERT per domain,
topics, inferred goals, successful patterns) and no rule for any of them; the rules are
Credence's and docs/origins.md §6 says why each is what it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from app.memory.people.models import (
    AnswerDepth,
    DomainKnowledge,
    DomainLevel,
    InferredGoal,
    Person,
    SuccessfulPattern,
    TrustCause,
    TrustChange,
)
from app.memory.settings import MemoryMechanics
from app.text.patterns import matched_patterns

MAX_GOAL_CHARS = 200
# A reason names what moved trust; a long claim is cut to this.
MAX_REASON_CHARS = 300


def trust_after(trust: float, gained: bool, mechanics: MemoryMechanics) -> float:
    """Trust after one gain (closes ``trust_gain`` of the gap to 1) or one loss (takes
    ``trust_loss`` of it): bounded in [0, 1] by construction, with diminishing steps."""
    current = min(1.0, max(0.0, trust))
    if gained:
        return round(current + mechanics.trust_gain * (1.0 - current), 10)
    return round(current - mechanics.trust_loss * current, 10)


def with_trust_change(
    person: Person,
    cause: TrustCause,
    after: float,
    reason: str,
    ref: str | None,
    at: datetime,
    mechanics: MemoryMechanics,
) -> Person:
    """``person`` with trust ``after``, the change recorded first in its history (the latest
    ``trust_history_kept``); unchanged when trust does not move."""
    if after == person.trust:
        return person
    change = TrustChange(
        at=at,
        cause=cause,
        before=person.trust,
        after=after,
        delta=round(after - person.trust, 10),
        reason=_clipped(reason, MAX_REASON_CHARS),
        ref=ref,
    )
    history = [change, *person.trust_history][: mechanics.trust_history_kept]
    return person.model_copy(update={"trust": after, "trust_history": history})


def level_for(score: float, mechanics: MemoryMechanics) -> DomainLevel:
    """The seed's level of a domain score: novice below ``novice_below``, expert from
    ``expert_from``, intermediate between."""
    if score < mechanics.novice_below:
        return "novice"
    if score >= mechanics.expert_from:
        return "expert"
    return "intermediate"


def knowledge_signal(text: str, taught: bool, mechanics: MemoryMechanics) -> float | None:
    """What the person's words say of their knowledge: 1.0 when they teach (guidance or a
    correction learned from them, or an expert cue), 0.0 when they ask to be taught (a novice
    cue), None when neither. Teaching wins: an expert may also ask."""
    if taught or matched_patterns(mechanics.expert_cues, text):
        return 1.0
    if matched_patterns(mechanics.novice_cues, text):
        return 0.0
    return None


def knowledge_after(
    knowledge: dict[str, DomainKnowledge],
    domain: str,
    signal: float,
    at: datetime,
    mechanics: MemoryMechanics,
) -> dict[str, DomainKnowledge]:
    """The map after one signal in ``domain``: its score (0.5 when new) moves
    ``knowledge_rate`` of the way to the signal, and its level follows."""
    known = knowledge.get(domain)
    score = known.score if known is not None else 0.5
    score = round(score + mechanics.knowledge_rate * (signal - score), 10)
    updated = dict(knowledge)
    updated[domain] = DomainKnowledge(
        level=level_for(score, mechanics),
        score=score,
        signals=(known.signals if known is not None else 0) + 1,
        updated_at=at,
    )
    return updated


def goals_after(
    goals: Sequence[InferredGoal],
    goal: str,
    verb: str | None,
    at: datetime,
    mechanics: MemoryMechanics,
) -> list[InferredGoal]:
    """The goals after a request for ``goal``: the same goal (any case) counted again and moved
    first, a new one put first; the latest ``goals_kept``."""
    text = _clipped(" ".join(goal.split()), MAX_GOAL_CHARS)
    key = text.lower()
    same = next((g for g in goals if g.goal.lower() == key), None)
    count = same.count + 1 if same is not None else 1
    rest = [g for g in goals if g.goal.lower() != key]
    first = InferredGoal(goal=text, verb=verb, count=count, last_at=at)
    return [first, *rest][: mechanics.goals_kept]


def pattern_name(frame: str, mode: str, verb: str | None, depth: AnswerDepth) -> str:
    """A pattern's words: ``proposal of reconcile_accounts in task, standard answer``."""
    what = f"{mode} of {verb}" if verb else mode
    return f"{what} in {frame}, {depth} answer"


def patterns_after(
    patterns: Sequence[SuccessfulPattern],
    frame: str,
    mode: str,
    verb: str | None,
    depth: AnswerDepth,
    at: datetime,
    mechanics: MemoryMechanics,
) -> list[SuccessfulPattern]:
    """The patterns after a success: this way of working counted again and moved first, or
    put first; the latest ``patterns_kept``."""
    name = pattern_name(frame, mode, verb, depth)
    same = next((p for p in patterns if p.pattern == name), None)
    first = SuccessfulPattern(
        pattern=name,
        frame=frame,
        mode=mode,
        verb=verb,
        depth=depth,
        count=same.count + 1 if same is not None else 1,
        last_at=at,
    )
    return [first, *(p for p in patterns if p.pattern != name)][: mechanics.patterns_kept]


def answer_depth(
    level: str | None, patterns: Sequence[SuccessfulPattern], frame: str | None = None
) -> AnswerDepth:
    """How deep an answer to the speaker goes: detailed for a novice in the turn's domain,
    brief for an expert; otherwise the depth of the latest pattern that worked with them (in
    this frame when one did, else any), else standard.

    Args:
        level: the speaker's level in the turn's domain (None: not known).
        patterns: their successful patterns, most recent first.
    """
    if level == "novice":
        return "detailed"
    if level == "expert":
        return "brief"
    in_frame = [p for p in patterns if p.frame == frame]
    latest = (in_frame or list(patterns))[:1]
    return latest[0].depth if latest else "standard"


def _clipped(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
