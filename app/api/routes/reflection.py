"""Reflection: recent similar episodes consolidated into rules, capabilities and gaps."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body

from app.api.deps import AgentIdDep, EmbedderDep, GraphDep, ReasonerDep, SettingsDep
from app.memory.reflection import procedure as reflection
from app.memory.reflection.models import ReflectionReport, ReflectRequest

router = APIRouter(prefix="/v1/agents/{agent_id}", tags=["reflection"])


@router.post(
    "/reflect",
    responses={
        409: {"description": "episodes of a cluster were deleted while it was written"},
        502: {"description": "reflection_failed: the reasoner could not abstract a rule"},
    },
)
async def reflect(
    graph: GraphDep,
    settings: SettingsDep,
    embedder: EmbedderDep,
    reasoner: ReasonerDep,
    agent_id: AgentIdDep,
    body: Annotated[ReflectRequest | None, Body()] = None,
) -> ReflectionReport:
    """Cluster recent unconsolidated episodes and consolidate each cluster into a rule."""
    return await reflection.reflect(
        graph,
        embedder,
        reasoner,
        agent_id,
        body or ReflectRequest(),
        settings=settings.reflection,
        mechanics=settings.memory,
    )
