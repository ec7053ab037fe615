"""Research mode: investigations that test hypotheses against sources (issue 16)."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, WebSocket, WebSocketDisconnect, status
from fastapi.responses import PlainTextResponse, Response
from pydantic import Field, StrictInt

from app.api.deps import AgentIdDep, ResearchDep, ResearchTasksDep, SkipQuery
from app.api.errors import socket_error_frame
from app.common import StrictModel
from app.errors import CredenceError, ReportNotReady
from app.research import investigations, store
from app.research.investigations import MAX_QUESTION_CHARS
from app.research.models import (
    Investigation,
    InvestigationDetail,
    InvestigationPage,
    InvestigationStatus,
)

router = APIRouter(prefix="/v1/agents/{agent_id}", tags=["research"])

InvestigationIdPath = Annotated[str, Path(min_length=1, max_length=64)]
# How often the step stream looks for new steps in the graph.
_STREAM_POLL_S = 0.25

_REPORT_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "The investigation's report (markdown)",
        "content": {"text/markdown": {"schema": {"type": "string"}}},
    },
}


class InvestigationCreate(StrictModel):
    question: str = Field(
        min_length=1, max_length=MAX_QUESTION_CHARS, description="A question or a claim."
    )
    iteration_cap: StrictInt | None = Field(
        default=None,
        ge=1,
        le=100,
        description="Steps before the investigation must synthesize (default: the settings').",
    )
    sources: list[Annotated[str, Field(min_length=1, max_length=64)]] | None = Field(
        default=None, max_length=20, description="Names of sources to search (default: all)."
    )


@router.post("/investigations", status_code=status.HTTP_201_CREATED)
async def start_investigation(
    research: ResearchDep, tasks: ResearchTasksDep, agent_id: AgentIdDep, body: InvestigationCreate
) -> Investigation:
    """Start an investigation of a question; it runs in the background."""
    return await investigations.start_investigation(
        research,
        tasks,
        agent_id,
        body.question,
        iteration_cap=body.iteration_cap,
        sources=body.sources,
    )


@router.get("/investigations")
async def list_investigations(
    research: ResearchDep,
    agent_id: AgentIdDep,
    status: InvestigationStatus | None = None,
    skip: SkipQuery = 0,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> InvestigationPage:
    """The agent's investigations, newest first (reports left out)."""
    return await investigations.list_investigations(research, agent_id, status, skip, limit)


@router.get("/investigations/{investigation_id}")
async def read_investigation(
    research: ResearchDep, agent_id: AgentIdDep, investigation_id: InvestigationIdPath
) -> InvestigationDetail:
    """An investigation: state, hypotheses, sources, evidence, conflicts and steps."""
    return await investigations.get_investigation(research, agent_id, investigation_id)


@router.post("/investigations/{investigation_id}/pause")
async def pause_investigation(
    research: ResearchDep, agent_id: AgentIdDep, investigation_id: InvestigationIdPath
) -> Investigation:
    """Pause a running investigation after the step in flight (409 unless running)."""
    return await investigations.pause_investigation(research, agent_id, investigation_id)


@router.post("/investigations/{investigation_id}/resume")
async def resume_investigation(
    research: ResearchDep,
    tasks: ResearchTasksDep,
    agent_id: AgentIdDep,
    investigation_id: InvestigationIdPath,
) -> Investigation:
    """Resume a paused or failed investigation, or one left running by a stopped process
    (409 when finished, cancelled, or running with its runner alive in this process)."""
    return await investigations.resume_investigation(research, tasks, agent_id, investigation_id)


@router.post("/investigations/{investigation_id}/cancel")
async def cancel_investigation(
    research: ResearchDep, agent_id: AgentIdDep, investigation_id: InvestigationIdPath
) -> Investigation:
    """Cancel an investigation for good (409 once it finished or was cancelled)."""
    return await investigations.cancel_investigation(research, agent_id, investigation_id)


@router.get(
    "/investigations/{investigation_id}/report",
    response_class=PlainTextResponse,
    responses=_REPORT_RESPONSES,
)
async def read_report(
    research: ResearchDep, agent_id: AgentIdDep, investigation_id: InvestigationIdPath
) -> Response:
    """The investigation's markdown report, citing its sources (404 until it synthesized)."""
    report = await investigations.get_report(research, agent_id, investigation_id)
    if report is None:
        investigation = await store.get_investigation(research.graph, agent_id, investigation_id)
        raise ReportNotReady(investigation_id, investigation.status)
    return PlainTextResponse(report, media_type="text/markdown")


@router.websocket("/ws/investigations/{investigation_id}")
async def investigation_socket(
    websocket: WebSocket,
    research: ResearchDep,
    agent_id: AgentIdDep,
    investigation_id: InvestigationIdPath,
) -> None:
    """Streams the investigation's steps as they commit (``{"type": "step", "data": ...}``,
    from the first), then ``{"type": "end", "data": <Investigation>}`` once it is no longer
    running — or ``{"type": "error"}``. Works for investigations run by any process: the
    steps are read from the graph."""
    await websocket.accept()
    sent = 0
    # Nothing is read from the client but its leaving: without this the polling went on for
    # an investigation that never ends (one left running by a stopped process), client or not.
    left = asyncio.create_task(_until_disconnect(websocket))
    try:
        while True:
            try:
                steps = await store.list_steps(research.graph, agent_id, investigation_id, sent)
                investigation = await store.get_investigation(
                    research.graph, agent_id, investigation_id
                )
            except CredenceError as error:
                await websocket.send_json(socket_error_frame(error))
                await websocket.close()
                return
            for step in steps:
                await websocket.send_json({"type": "step", "data": step.model_dump(mode="json")})
            sent += len(steps)
            if investigation.status != "running":
                # Steps committed between the two reads are sent before the end.
                for step in await store.list_steps(
                    research.graph, agent_id, investigation_id, sent
                ):
                    await websocket.send_json(
                        {"type": "step", "data": step.model_dump(mode="json")}
                    )
                await websocket.send_json(
                    {"type": "end", "data": investigation.model_dump(mode="json")}
                )
                await websocket.close()
                return
            await asyncio.wait({left}, timeout=_STREAM_POLL_S)
            if left.done():
                return
    except WebSocketDisconnect:
        return
    finally:
        left.cancel()


async def _until_disconnect(websocket: WebSocket) -> None:
    """Returns when the client closes the socket (what it sends meanwhile is ignored), or when
    the socket can no longer be read (closed by this side)."""
    try:
        while (await websocket.receive())["type"] != "websocket.disconnect":
            pass
    except (RuntimeError, WebSocketDisconnect):
        return
