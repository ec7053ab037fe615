"""SUPPORTS (weighted, acyclic) and CONTRADICTS (the conflict register) edges."""

from __future__ import annotations

from app.beliefs.cascade import cascade_from
from app.beliefs.mechanics import Mechanics
from app.beliefs.models import EdgeCreate, EdgeResult
from app.errors import BeliefInactive, BeliefNotFound, CycleRefused, InvalidInput
from app.graph.agent_scope import lock_agent
from app.graph.client import GraphClient, Transaction


async def create_edge(
    graph: GraphClient, mechanics: Mechanics, agent_id: str, edge: EdgeCreate
) -> EdgeResult:
    """Creates or updates an edge; a new SUPPORTS edge cascades into its target.

    Raises:
        AgentNotFound, BeliefNotFound (either end).
        CycleRefused: SUPPORTS would close a cycle (the cycle is named).
        InvalidInput: a belief cannot contradict itself.
    """
    if edge.type == "CONTRADICTS" and edge.source_id == edge.target_id:
        raise InvalidInput(
            "a belief cannot contradict itself",
            errors=[{"location": ["body", "target_id"], "message": "must differ from source_id"}],
        )

    async def work(tx: Transaction) -> EdgeResult:
        await lock_agent(tx, agent_id)
        if edge.type == "SUPPORTS":
            row = (
                await tx.run("edges/create_supports", agent_id=agent_id, edge=edge.model_dump())
            )[0]
        else:
            row = (
                await tx.run("edges/upsert_contradicts", agent_id=agent_id, edge=edge.model_dump())
            )[0]
        if not row["source_found"]:
            raise BeliefNotFound(edge.source_id, agent_id)
        if not row["target_found"]:
            raise BeliefNotFound(edge.target_id, agent_id)
        for end in ("source", "target"):
            if not row[f"{end}_active"]:
                raise BeliefInactive(getattr(edge, f"{end}_id"))
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
            mechanics,
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

    return await graph.write_transaction(work, action="creating an edge")
