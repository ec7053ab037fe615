"""The order of a session's episodes and what an episode is searched by.

A session is a chain of episodes, ``(e1)-[:NEXT]->(e2)-[:NEXT]->…``, ordered by ``occurred_at``
then ``seq`` (the order of arrival, so turns of equal time keep the order they came in). New
episodes are merged into that order: mostly appended, but an episode that predates stored ones
is stitched in between them, and the stored episode after it gets a new predecessor.

What an episode is searched by (issue 12, measured on LoCoMo and MADial,
docs/episodes-and-context.md): its **search text** ``"<speaker>: <text>"`` is indexed for
fulltext, since questions name the people who spoke; its **vector** embeds the previous turn of
its session before it, since a reply ("Yes, last week!") means little without the turn it
answers. A speaker named by role only ("assistant", "user") adds nothing and is left out.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import pairwise
from typing import Any

# Speakers that are the agent itself, not a Person.
AGENT_SPEAKERS = frozenset({"assistant", "agent", "system", "ai", "bot"})
# Speakers named by their role only: their name says nothing a question could ask about.
ROLE_SPEAKERS = AGENT_SPEAKERS | {"user", "human"}


def search_text(speaker: str | None, text: str) -> str:
    """The words an episode is found by: who said it (when a named person), then what was said."""
    if speaker is None or speaker.casefold() in ROLE_SPEAKERS:
        return text
    return f"{speaker}: {text}"


def embedding_text(previous: str | None, own: str) -> str:
    """The text an episode's vector embeds: the previous turn of its session, then its own."""
    return f"{previous}\n{own}" if previous else own


@dataclass(frozen=True, slots=True)
class Placed:
    """One episode of a session: where it sits and what it is searched by."""

    id: str
    session: str | None
    occurred_at: datetime
    seq: int
    search_text: str

    @staticmethod
    def from_row(row: dict[str, Any]) -> Placed:
        return Placed(
            id=row["id"],
            session=row["session"],
            occurred_at=row["occurred_at"],
            seq=int(row["seq"]),
            search_text=row["search_text"],
        )


@dataclass
class OrderPlan:
    """How new episodes join their sessions.

    ``seq``: each new episode's place of arrival; ``embed``: the text each vector must embed,
    for the new episodes and for stored ones whose previous turn changes; ``link`` / ``unlink``:
    the ``NEXT`` edges to create and to remove (pairs of episode ids).
    """

    seq: dict[str, int | None] = field(default_factory=dict)
    embed: dict[str, str] = field(default_factory=dict)
    link: list[tuple[str, str]] = field(default_factory=list)
    unlink: list[tuple[str, str]] = field(default_factory=list)

    def restitched(self, new_ids: Iterable[str]) -> list[str]:
        """The stored episodes that get a new previous turn (their vectors change)."""
        new = set(new_ids)
        return [episode_id for episode_id in self.embed if episode_id not in new]


def plan_order(stored: Sequence[Placed], new: Sequence[Placed]) -> OrderPlan:
    """Merges ``new`` episodes (their ``seq`` is their batch position; no session: a chain of
    one) into the ``stored`` order of their sessions. ``stored`` may be a session's tail only: the
    episodes from the earliest new one's time on and the one just before (what
    ``cypher/memory/episodes/session_order`` reads); episodes before that cannot change."""
    plan = OrderPlan()
    by_session: dict[str | None, list[Placed]] = defaultdict(list)
    for episode in stored:
        by_session[episode.session].append(episode)
    fresh: dict[str | None, list[Placed]] = defaultdict(list)
    for episode in new:
        fresh[episode.session].append(episode)
    for session, arriving in fresh.items():
        if session is None:  # no session: no neighbours
            for episode in arriving:
                plan.seq[episode.id] = None
                plan.embed[episode.id] = embedding_text(None, episode.search_text)
            continue
        before = sorted(by_session.get(session, []), key=_key)
        first_seq = (max(e.seq for e in before) + 1) if before else 0
        arriving = sorted(arriving, key=_key)
        placed = [
            Placed(e.id, e.session, e.occurred_at, first_seq + i, e.search_text)
            for i, e in enumerate(arriving)
        ]
        plan.seq.update({e.id: e.seq for e in placed})
        after = sorted(before + placed, key=_key)
        old_pairs = _pairs(before)
        new_pairs = _pairs(after)
        kept_pairs, had_pairs = set(new_pairs), set(old_pairs)
        plan.unlink += [pair for pair in old_pairs if pair not in kept_pairs]
        plan.link += [pair for pair in new_pairs if pair not in had_pairs]
        previous = {b: a for a, b in new_pairs}
        texts = {e.id: e.search_text for e in after}
        changed = {b for a, b in plan.link} | {e.id for e in placed}
        for episode in after:
            if episode.id in changed:
                prior = previous.get(episode.id)
                plan.embed[episode.id] = embedding_text(
                    texts[prior] if prior is not None else None, episode.search_text
                )
    return plan


def _key(episode: Placed) -> tuple[datetime, int]:
    return episode.occurred_at, episode.seq


def _pairs(ordered: Sequence[Placed]) -> list[tuple[str, str]]:
    return [(a.id, b.id) for a, b in pairwise(ordered)]
