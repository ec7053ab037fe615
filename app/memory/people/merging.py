"""Two Person nodes that are one human, made one (docs/memory.md §2, merging people): how the
survivor's user model and the merged person's are combined. Pure: the service
(:mod:`app.memory.people.removal`) reads both and writes the result under the agent's lock.

The survivor keeps its id, name, birth and creation time; what it lacks is filled from the other
(an email, a known role, seniority or knowledge level); what both have is combined so that
nothing learned of either is lost: interactions are added, the relationship value's parts
(interaction frequency, context relevance) are the higher of the two, trust is the lower (a
word that proved unreliable under one name stays so under the other), and the affect is the
one of whoever was seen last.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypeVar

from app.memory.people.models import (
    MAX_PREFERENCES,
    DomainKnowledge,
    InferredGoal,
    Person,
    SuccessfulPattern,
)
from app.memory.people.user_model import level_for
from app.memory.settings import MemoryMechanics

Item = TypeVar("Item", InferredGoal, SuccessfulPattern)


def merged_person(keep: Person, gone: Person, mechanics: MemoryMechanics) -> Person:
    """``keep`` with ``gone``'s user model combined into it (authority and relationship value
    are recomputed from the result when it is written)."""
    gone_is_later = _later(gone.last_seen, keep.last_seen)
    return keep.model_copy(
        update={
            "email": keep.email or gone.email,
            "role": keep.role if keep.role != "unknown" else gone.role,
            "seniority": keep.seniority if keep.seniority != "unknown" else gone.seniority,
            "knowledge_level": (
                keep.knowledge_level if keep.knowledge_level != "unknown" else gone.knowledge_level
            ),
            "interaction_count": keep.interaction_count + gone.interaction_count,
            "interaction_frequency": max(keep.interaction_frequency, gone.interaction_frequency),
            "context_relevance": max(keep.context_relevance, gone.context_relevance),
            "trust": min(keep.trust, gone.trust),
            "affect": gone.affect if gone_is_later else keep.affect,
            "last_seen": gone.last_seen if gone_is_later else keep.last_seen,
            "preferences": merged_preferences(keep.preferences, gone.preferences),
            "knowledge": merged_knowledge(keep.knowledge, gone.knowledge, mechanics),
            "trust_history": sorted(
                [*keep.trust_history, *gone.trust_history], key=lambda c: c.at, reverse=True
            )[: mechanics.trust_history_kept],
            "inferred_goals": _merged_counts(
                keep.inferred_goals, gone.inferred_goals, "goal", mechanics.goals_kept
            ),
            "successful_patterns": _merged_counts(
                keep.successful_patterns,
                gone.successful_patterns,
                "pattern",
                mechanics.patterns_kept,
            ),
            "topics": [],
        }
    )


def _later(one: datetime | None, other: datetime | None) -> bool:
    return one is not None and (other is None or one > other)


def merged_preferences(keep: dict[str, Any], gone: dict[str, Any]) -> dict[str, Any]:
    """The survivor's preferences, then the other's keys it lacks (in key order) while there is
    room (``MAX_PREFERENCES``): on a shared key the survivor's value wins."""
    merged = dict(keep)
    for key in sorted(gone):
        if len(merged) >= MAX_PREFERENCES:
            break
        merged.setdefault(key, gone[key])
    return merged


def merged_knowledge(
    keep: dict[str, DomainKnowledge],
    gone: dict[str, DomainKnowledge],
    mechanics: MemoryMechanics,
) -> dict[str, DomainKnowledge]:
    """Knowledge per domain of both; a domain both have gets the mean of the two scores weighed
    by their signals, the signals added, and the level of that score."""
    merged = dict(keep)
    for domain, theirs in gone.items():
        ours = merged.get(domain)
        if ours is None:
            merged[domain] = theirs
            continue
        signals = ours.signals + theirs.signals
        score = (
            (ours.score * ours.signals + theirs.score * theirs.signals) / signals
            if signals
            else (ours.score + theirs.score) / 2
        )
        updated = [at for at in (ours.updated_at, theirs.updated_at) if at is not None]
        merged[domain] = DomainKnowledge(
            level=level_for(score, mechanics),
            score=score,
            signals=signals,
            updated_at=max(updated) if updated else None,
        )
    return merged


def _merged_counts(keep: list[Item], gone: list[Item], key: str, kept: int) -> list[Item]:
    """Goals or patterns of both: one of the same ``key`` counted once with both counts added
    and the later ``last_at``; most recent first, the latest ``kept``."""
    by_key: dict[str, Item] = {}
    for item in keep + gone:
        name = getattr(item, key)
        known = by_key.get(name)
        if known is None:
            by_key[name] = item
            continue
        stamps = [at for at in (known.last_at, item.last_at) if at is not None]
        combined: Item = known.model_copy(
            update={"count": known.count + item.count, "last_at": max(stamps) if stamps else None}
        )
        by_key[name] = combined
    ordered = sorted(
        by_key.values(),
        key=lambda item: (item.last_at is not None, item.last_at or datetime.min),
        reverse=True,
    )
    return ordered[:kept]
