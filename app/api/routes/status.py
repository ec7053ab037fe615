"""An agent's status (docs/loop.md §15): state, sessions, episodes, last reflection, tokens and
calls per session, dissatisfaction, open conflicts, pending approvals, the scheduler's runs."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.api.deps import AgentIdDep, ClockDep, LoopDep
from app.status.agent_status import read_agent_status
from app.status.models import AgentStatus

router = APIRouter(prefix="/v1/agents/{agent_id}", tags=["status"])

_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"description": "The agent's status"},
    401: {"description": "API keys are configured and none (or an unknown one) was sent"},
    403: {"description": "The API key may not touch this agent"},
    404: {"description": "No such agent"},
    422: {"description": "An agent id that is not one (empty, too long, other characters)"},
    503: {"description": "Neo4j unreachable or busy"},
}


@router.get("/status", response_model=AgentStatus, responses=_RESPONSES)
async def agent_status(loop: LoopDep, clock: ClockDep, agent_id: AgentIdDep) -> AgentStatus:
    """The agent's state (active, idle, reflecting, error), sessions, episodes, last session and
    reflection, calls and tokens per session, D and its band, open conflicts, pending approvals
    and the scheduler's last runs."""
    return await read_agent_status(loop, agent_id, clock.now())
