"""Ten slots for more than one moment: the episode list is diversified by session neighbourhood.

A turn lifts the turns next to it (the neighbour step of the episode search), so the best moment
of a conversation tends to fill the list with itself and its neighbours, and evidence spread over
several sessions is left out. Here the ranked episodes are taken best first, skipping a turn when
``per_moment`` turns already chosen lie within ``window`` places of it in its session; the skipped
ones fill what is left of the ``k`` slots, best first, so nothing is lost when there is nothing
else to show.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def diversified(
    rows: Sequence[dict[str, Any]], k: int, *, per_moment: int, window: int
) -> list[dict[str, Any]]:
    """The first ``k`` of ``rows`` (best first; each with ``session`` and ``seq``, either may
    be None) with at most ``per_moment`` turns per session neighbourhood before the rest.
    ``per_moment`` 0 keeps the order as it is."""
    if per_moment <= 0:
        return list(rows[:k])
    chosen: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    for row in rows:
        if len(chosen) >= k:
            break
        if _crowded(row, chosen, per_moment, window):
            skipped.append(row)
        else:
            chosen.append(row)
    return (chosen + skipped)[:k]


def _crowded(
    row: dict[str, Any], chosen: Sequence[dict[str, Any]], per_moment: int, window: int
) -> bool:
    session, seq = row.get("session"), row.get("seq")
    if session is None or seq is None:
        return False
    close = sum(
        1
        for other in chosen
        if other.get("session") == session
        and other.get("seq") is not None
        and abs(int(other["seq"]) - int(seq)) <= window
    )
    return close >= per_moment
