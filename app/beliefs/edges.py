"""SUPPORTS (weighted, acyclic) and CONTRADICTS (the conflict register) edges."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from app.beliefs.cascade import cascade_from
from app.beliefs.mechanics import Mechanics
from app.beliefs.models import EdgeCreate, EdgeRemoved, EdgeResult
from app.errors import (
    BeliefInactive,
    BeliefNotFound,
    CycleRefused,
    EdgeNotFound,
    InvalidInput,
    error_entry,
)
from app.graph.agent_scope import lock_agent
from app.graph.client import GraphClient, Transaction


@dataclass(frozen=True)
class _EdgeWrite:
    """One edge to create or update for one agent."""

    mechanics: Mechanics
    agent_id: str
    edge: EdgeCreate


async def create_edge(
    graph: GraphClient, mechanics: Mechanics, agent_id: str, edge: EdgeCreate
) -> EdgeResult:
    """Creates or updates an edge by hand, with its event (kind ``manual``) on the target of a
    SUPPORTS edge new or re-weighed, which then cascades into it, or on both beliefs of a
    CONTRADICTS pair new or changed (docs/beliefs.md §6).

    Raises:
        AgentNotFound, BeliefNotFound (either end).
        CycleRefused: SUPPORTS would close a cycle (the cycle is named).
        InvalidInput: a belief cannot contradict itself.
    """
    if edge.type == "CONTRADICTS" and edge.source_id == edge.target_id:
        raise InvalidInput(
            "a belief cannot contradict itself",
            errors=[error_entry(["body", "target_id"], "must differ from source_id", "self_link")],
        )
    write = _EdgeWrite(mechanics, agent_id, edge)
    return await graph.write_transaction(partial(_write_edge, write), action="creating an edge")


async def delete_supports(
    graph: GraphClient, mechanics: Mechanics, agent_id: str, source_id: str, target_id: str
) -> EdgeRemoved:
    """Removes ``source SUPPORTS target`` by hand, with a ``support_removed`` event on the
    target, which is then re-derived from the supporters it has left (docs/beliefs.md §6).

    Raises:
        AgentNotFound, BeliefNotFound (either end), EdgeNotFound (no such edge).
    """
    return await graph.write_transaction(
        partial(_delete_supports, mechanics, agent_id, source_id, target_id),
        action="removing an edge",
    )


async def _delete_supports(
    mechanics: Mechanics, agent_id: str, source_id: str, target_id: str, tx: Transaction
) -> EdgeRemoved:
    await lock_agent(tx, agent_id)
    edge = {"source_id": source_id, "target_id": target_id}
    row = (
        await tx.run("beliefs/edges/delete_supports", agent_id=agent_id, edge=edge, kind="manual")
    )[0]
    for found, belief_id in ((row["source_found"], source_id), (row["target_found"], target_id)):
        if not found:
            raise BeliefNotFound(belief_id, agent_id)
    if not row["deleted"]:
        raise EdgeNotFound(source_id, target_id, agent_id)
    moves = await cascade_from(
        tx,
        mechanics,
        agent_id,
        sorted(row["resupport_ids"]),
        f"SUPPORTS {source_id} -> {target_id} removed",
    )
    return EdgeRemoved(
        source_id=source_id, target_id=target_id, weight=row["weight"], cascade=moves
    )


async def create_supports_in(
    tx: Transaction,
    agent_id: str,
    source_id: str,
    target_id: str,
    weight: float,
    *,
    kind: str = "manual",
) -> dict[str, Any]:
    """Creates (or re-weighs) ``source SUPPORTS target`` inside the caller's transaction, which
    holds the agent's lock, with an event of ``kind`` on the target (docs/beliefs.md §6); no
    cascade (run :func:`app.beliefs.cascade.cascade_from` after).

    Returns:
        The query's row: created, weight, source/target found and active, cycle (the belief ids
        of the cycle the edge would close, or None; then nothing was written).
    """
    edge = {"source_id": source_id, "target_id": target_id, "weight": weight}
    rows = await tx.run("beliefs/edges/create_supports", agent_id=agent_id, edge=edge, kind=kind)
    return rows[0]


async def upsert_contradicts_in(
    tx: Transaction,
    agent_id: str,
    source_id: str,
    target_id: str,
    *,
    strength: float | None = None,
    status: str | None = "open",
    resolution: str | None = None,
    kind: str = "manual",
) -> dict[str, Any]:
    """Creates or updates ``source CONTRADICTS target`` inside the caller's transaction, which
    holds the agent's lock, with an event of ``kind`` on both beliefs when it changed.

    Returns:
        The query's row: created, strength, status, resolution, source/target found and active.
    """
    edge = {
        "source_id": source_id,
        "target_id": target_id,
        "strength": strength,
        "status": status,
        "resolution": resolution,
    }
    rows = await tx.run("beliefs/edges/upsert_contradicts", agent_id=agent_id, edge=edge, kind=kind)
    return rows[0]


async def _write_edge(write: _EdgeWrite, tx: Transaction) -> EdgeResult:
    edge, agent_id = write.edge, write.agent_id
    await lock_agent(tx, agent_id)
    query = (
        "beliefs/edges/create_supports"
        if edge.type == "SUPPORTS"
        else "beliefs/edges/upsert_contradicts"
    )
    row = (await tx.run(query, agent_id=agent_id, edge=edge.model_dump(), kind="manual"))[0]
    _require_active_ends(row, edge, agent_id)
    if edge.type == "CONTRADICTS":
        return EdgeResult(
            type=edge.type,
            source_id=edge.source_id,
            target_id=edge.target_id,
            created=row["created"],
            strength=row["strength"],
            status=row["status"],
            resolution=row["resolution"],
        )
    if row["cycle"] is not None:
        raise CycleRefused(edge.source_id, edge.target_id, row["cycle"][:-1])
    moves = await cascade_from(
        tx,
        write.mechanics,
        agent_id,
        [edge.source_id],
        f"SUPPORTS {edge.source_id} -> {edge.target_id}",
    )
    return EdgeResult(
        type=edge.type,
        source_id=edge.source_id,
        target_id=edge.target_id,
        created=row["created"],
        weight=row["weight"],
        cascade=moves,
    )


def _require_active_ends(row: dict[str, Any], edge: EdgeCreate, agent_id: str) -> None:
    """Raises BeliefNotFound or BeliefInactive for the first end (source, then target) that is
    missing or inactive; a raise rolls the edge back with the transaction."""
    if not row["source_found"]:
        raise BeliefNotFound(edge.source_id, agent_id)
    if not row["target_found"]:
        raise BeliefNotFound(edge.target_id, agent_id)
    for end in ("source", "target"):
        if not row[f"{end}_active"]:
            raise BeliefInactive(getattr(edge, f"{end}_id"))
