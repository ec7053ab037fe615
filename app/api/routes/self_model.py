"""The agent's view of itself: identity (immutable creed), capabilities, gaps, self-beliefs."""

from __future__ import annotations

from fastapi import APIRouter

from app.api.deps import AgentIdDep, ClockDep, GraphDep, SettingsDep
from app.memory import self_model
from app.memory.introspection import Introspection, introspect
from app.memory.self_model import IdentityUpdate, SelfView

router = APIRouter(prefix="/v1/agents/{agent_id}", tags=["self"])


@router.get("/self")
async def read_self(graph: GraphDep, agent_id: AgentIdDep) -> SelfView:
    """Identity, capabilities, knowledge gaps, self-beliefs and the suggested goals."""
    return await self_model.get_self(graph, agent_id)


@router.patch("/self")
async def update_self(graph: GraphDep, agent_id: AgentIdDep, body: IdentityUpdate) -> SelfView:
    """Edit the name or identity goal; changing the terminal creed is refused (409)."""
    return await self_model.update_identity(graph, agent_id, body)


@router.post("/self/introspect")
async def introspect_self(
    graph: GraphDep, settings: SettingsDep, clock: ClockDep, agent_id: AgentIdDep
) -> Introspection:
    """Judge the capabilities' track record: gaps added and the goals the agent suggests."""
    return await introspect(graph, agent_id, mechanics=settings.memory, now=clock.now())
