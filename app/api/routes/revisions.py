"""Revisions: the phase transitions of the agent's beliefs."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from app.api.deps import AgentIdDep, GraphDep, ItemId, SkipQuery
from app.beliefs import history

router = APIRouter(prefix="/v1/agents/{agent_id}", tags=["revisions"])


@router.get("/revisions")
async def list_revisions(
    graph: GraphDep,
    agent_id: AgentIdDep,
    skip: SkipQuery = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> history.RevisionPage:
    """Revisions, newest first."""
    return await history.list_revisions(graph, agent_id, skip, limit)


@router.get("/revisions/{revision_id}")
async def read_revision(
    graph: GraphDep, agent_id: AgentIdDep, revision_id: ItemId
) -> history.RevisionDetail:
    """One revision: trigger tension, evidence summary, reasoning, before/after, cascade."""
    return await history.get_revision(graph, agent_id, revision_id)
