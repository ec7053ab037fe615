"""The frames an agent thinks in, and which one a text would select."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import BaseModel

from app.api.deps import AgentIdDep, GraphDep
from app.memory import frames
from app.memory.frames import Frame, FrameChoice

router = APIRouter(prefix="/v1/agents/{agent_id}", tags=["frames"])


class FramesView(BaseModel):
    data: list[Frame]
    count: int
    # With ?text=: the frame that text selects, with every frame's match counts.
    selection: FrameChoice | None = None


@router.get("/frames")
async def list_frames(
    graph: GraphDep,
    agent_id: AgentIdDep,
    text: Annotated[str | None, Query(min_length=1, max_length=4000)] = None,
) -> FramesView:
    """List installed frames; with ?text=, also the frame that text selects and why."""
    page = await frames.list_frames(graph, agent_id)
    choice = await frames.choose_frame(graph, agent_id, text) if text is not None else None
    return FramesView(data=page.data, count=page.count, selection=choice)
