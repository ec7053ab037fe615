"""Closing a conversation session: summary, lessons, learned items, peak-end salience and
reflection when enough episodes have gathered."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path

from app.api.deps import AgentIdDep, LoopDep
from app.loop.sessions import SessionClosed, close_session

router = APIRouter(prefix="/v1/agents/{agent_id}", tags=["sessions"])

_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"description": "API keys are configured and none was sent"},
    403: {"description": "The API key may not touch this agent"},
    404: {"description": "No such agent, or no session of that key with episodes"},
    422: {"description": "A malformed session key"},
    503: {"description": "Neo4j unreachable"},
}


@router.post("/sessions/{session}/close", responses=_ERRORS)
async def close(
    loop: LoopDep,
    agent_id: AgentIdDep,
    session: Annotated[str, Path(min_length=1, max_length=200)],
) -> SessionClosed:
    """Close a session: peak-end salience, its summary, lessons and learned items, then
    reflection when enough unconsolidated episodes wait."""
    return await close_session(loop, agent_id, session, "explicit")
