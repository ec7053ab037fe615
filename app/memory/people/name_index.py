"""Each agent's people finder (:class:`KnownNames`) kept between turns: a turn reads the agent's
people anyway (the people present are chosen among them), and indexing their names again every
turn cost ~14–27 ms for 2,000 people (bench/turn_name_index.py), against ~10 µs to compare them
with those the kept index was built from.

The index is kept with the (id, name) pairs it was built from and used only when the turn's
own pairs are the same, in the same order: a person added, renamed, merged or removed by any
path (the REST API, an import's speakers, a turn's micro-birth, another process, a direct
write) changes the pairs the next turn reads, and so the index. Nothing has to be told of a
change, and nothing stale can be used.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable

from app.memory.people.names import KnownNames

# The agents whose index is kept (the least recently used goes first): an index of 2,000 people
# holds ~1–2 MB.
AGENTS_KEPT = 64

KnownPairs = tuple[tuple[str, str], ...]


class NameIndexes:
    """The people finders of the agents read lately, each with the pairs it was built from."""

    def __init__(self, capacity: int = AGENTS_KEPT) -> None:
        self._capacity = capacity
        self._kept: OrderedDict[str, tuple[KnownPairs, KnownNames]] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, agent_id: str, known: Iterable[tuple[str, str]]) -> KnownNames:
        """The people finder of ``agent_id``'s ``known`` people ((id, name) pairs, as read now):
        the kept one when it was built from the same pairs, else a new one, kept."""
        pairs = tuple(known)
        with self._lock:
            kept = self._kept.get(agent_id)
            if kept is not None and kept[0] == pairs:
                self._kept.move_to_end(agent_id)
                return kept[1]
        index = KnownNames(pairs)
        with self._lock:
            self._kept[agent_id] = (pairs, index)
            self._kept.move_to_end(agent_id)
            while len(self._kept) > self._capacity:
                self._kept.popitem(last=False)
        return index

    def forget(self, agent_id: str) -> None:
        """Drops ``agent_id``'s kept index (a person deleted or merged: no name of theirs is
        kept in memory until the next turn reads the pairs again)."""
        with self._lock:
            self._kept.pop(agent_id, None)

    def kept_pairs(self, agent_id: str) -> KnownPairs | None:
        """The (id, name) pairs ``agent_id``'s kept index was built from, or None."""
        with self._lock:
            kept = self._kept.get(agent_id)
            return None if kept is None else kept[0]


_SHARED = NameIndexes()


def known_names(agent_id: str, known: Iterable[tuple[str, str]]) -> KnownNames:
    """The process's people finder of ``agent_id``'s ``known`` people (:meth:`NameIndexes.of`)."""
    return _SHARED.of(agent_id, known)


def forget_names(agent_id: str) -> None:
    """Drops the process's kept index of ``agent_id`` (:meth:`NameIndexes.forget`)."""
    _SHARED.forget(agent_id)


def kept_pairs(agent_id: str) -> KnownPairs | None:
    """The pairs the process's kept index of ``agent_id`` holds (:meth:`NameIndexes.kept_pairs`)."""
    return _SHARED.kept_pairs(agent_id)
