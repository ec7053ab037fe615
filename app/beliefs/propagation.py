"""Tension propagation (docs/beliefs.md §5): contradicting evidence adds tension to a belief,
and that tension flows up the SUPPORTS hierarchy to the beliefs it supports, δ · ρ^k · Π(edge
weights) at k hops (up to ``propagation_max_hops``), summed over every path whose beliefs are all
active.

In the database this is part 3 of ``beliefs/updates/apply_evidence``: a batch of evidence, the
tension it propagates and the events of both are one statement, so they commit or roll back
together. This module holds the pure reference of the same computation (the unit and property
tests hold the two equal) and reads what the query propagated.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.beliefs.formulas import Edge
from app.beliefs.mechanics import Mechanics
from app.beliefs.models import TensionMove


def propagated_tension(
    origin: str, delta: float, supports: Sequence[Edge], active: Mapping[str, bool], m: Mechanics
) -> dict[str, float]:
    """Tension each belief up to ``max_hops`` SUPPORTS hops above ``origin`` receives:
    δ · ρ^k · Π(edge weights), summed over every path (each path is a channel) whose beliefs are
    all active."""
    outgoing: dict[str, list[Edge]] = {}
    for edge in supports:
        outgoing.setdefault(edge.source, []).append(edge)
    received: dict[str, float] = {}
    frontier: list[tuple[str, float]] = [(origin, 1.0)]
    for hop in range(1, m.propagation_max_hops + 1):
        next_frontier: list[tuple[str, float]] = []
        for node, product in frontier:
            for edge in outgoing.get(node, []):
                if not active.get(edge.target, False):
                    continue
                path_product = product * edge.weight
                amount = delta * m.propagation_rho**hop * path_product
                received[edge.target] = received.get(edge.target, 0.0) + amount
                next_frontier.append((edge.target, path_product))
        frontier = next_frontier
    return received


def propagated_moves(row: dict[str, Any]) -> list[TensionMove]:
    """The tension moves of the beliefs propagation reached, from the parallel lists of
    ``beliefs/updates/apply_evidence``'s row (``propagated_ids``, ``_old``, ``_new``,
    ``_added``)."""
    return [
        TensionMove(id=i, old=o, new=n, added=a)
        for i, o, n, a in zip(
            row["propagated_ids"],
            row["propagated_old"],
            row["propagated_new"],
            row["propagated_added"],
            strict=True,
        )
    ]
