"""Closing a conversation session: summary, lessons, learned items, peak-end salience and
reflection when enough episodes have gathered. ``/close`` and ``/end`` are one operation."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.api.deps import AgentIdDep, LoopDep, SessionKey
from app.loop.sessions import SessionClosed, close_session

router = APIRouter(prefix="/v1/agents/{agent_id}", tags=["sessions"])

_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"description": "API keys are configured and none was sent"},
    403: {"description": "The API key may not touch this agent"},
    404: {"description": "No such agent, or no session of that key with episodes"},
    422: {"description": "A malformed session key"},
    503: {"description": "Neo4j unreachable"},
}


# `:path`: a session key may hold "/" (chat and imports take any key); send it as %2F or as is.
@router.post("/sessions/{session:path}/close", responses=_ERRORS)
async def close(loop: LoopDep, agent_id: AgentIdDep, session: SessionKey) -> SessionClosed:
    """Close a session: peak-end salience, its summary, lessons and learned items, then
    reflection when enough unconsolidated episodes wait. Closing again writes them again."""
    return await close_session(loop, agent_id, session, "explicit")


@router.post("/sessions/{session:path}/end", responses=_ERRORS)
async def end(loop: LoopDep, agent_id: AgentIdDep, session: SessionKey) -> SessionClosed:
    """The same as ``POST /sessions/{session}/close`` (an alias kept for clients of the
    earlier, salience-only ``end``): the whole close, with the same answer."""
    return await close_session(loop, agent_id, session, "explicit")
