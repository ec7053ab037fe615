"""Chat with an agent: one turn per message (REST), or streamed phase by phase (WebSocket),
and the approvals a turn may leave for a person."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Annotated, Any

from fastapi import APIRouter, Query, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, Field, StrictStr, ValidationError

from app.api.deps import AgentIdDep, GraphDep, ItemId, LoopDep
from app.api.errors import socket_error_frame
from app.api.openapi import ErrorResponse
from app.errors import CredenceError, validation_entries
from app.loop import approvals
from app.loop.models import (
    ApprovalAnswer,
    ApprovalPublic,
    ApprovalsPublic,
    ApprovalStatus,
    ChatRequest,
    TurnEvent,
    TurnResult,
)
from app.loop.resume_turn import resume_approval
from app.loop.turn import run_turn
from app.tools.calls import CHAT_BODY_CALL

log = logging.getLogger(__name__)

router = APIRouter(prefix="/v1/agents/{agent_id}", tags=["chat"])


class SocketApproval(BaseModel):
    """A chat socket frame answering an approval, checked as a whole so that each problem is
    located in the frame as sent (``["answer", "action"]``, ``["approval_id"]``)."""

    model_config = ConfigDict(extra="forbid")

    # As the REST route's path parameter (ItemId).
    approval_id: Annotated[StrictStr, Field(min_length=1, max_length=64)]
    answer: ApprovalAnswer


@router.post("/chat")
async def chat(loop: LoopDep, agent_id: AgentIdDep, body: ChatRequest) -> TurnResult:
    """One turn of the cognitive loop: the response, mode, frame, dissatisfaction, any
    revision and any approval it leaves pending."""
    return await run_turn(loop, agent_id, body, source=CHAT_BODY_CALL)


@router.get("/approvals")
async def list_approvals(
    graph: GraphDep,
    agent_id: AgentIdDep,
    status: Annotated[ApprovalStatus | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> ApprovalsPublic:
    """The agent's approvals, newest first (filter by status)."""
    return await approvals.list_approvals(graph, agent_id, status, limit)


@router.get("/approvals/{approval_id}")
async def read_approval(
    graph: GraphDep, agent_id: AgentIdDep, approval_id: ItemId
) -> ApprovalPublic:
    """One approval."""
    return (await approvals.get_approval(graph, agent_id, approval_id)).public


@router.post(
    "/approvals/{approval_id}",
    responses={
        403: {
            "model": ErrorResponse,
            "description": "approval_not_authorized: the speaker (else the paused turn's) is "
            "neither the principal nor a known person with the approval's required_authority "
            "(nothing written, the approval stays pending); or agent_forbidden",
        }
    },
)
async def answer_approval(
    loop: LoopDep, agent_id: AgentIdDep, approval_id: ItemId, body: ApprovalAnswer
) -> TurnResult:
    """Answer, approve, modify or reject a pending approval; the paused turn resumes. Only the
    principal, or a person with the authority the approval needs, may answer it."""
    return await resume_approval(loop, agent_id, approval_id, body)


@router.websocket("/ws/chat")
async def chat_socket(websocket: WebSocket, loop: LoopDep, agent_id: AgentIdDep) -> None:
    """Send ``{"message": ...}`` (a ChatRequest) or ``{"approval_id": ..., "answer": {...}}``;
    receive the turn's events as they happen (phase, tension, revision, approval, guardian,
    response), then ``{"type": "result", "data": <TurnResult>}`` — or ``{"type": "error"}``."""
    await websocket.accept()
    emit = SocketEmitter(websocket)

    try:
        while True:
            try:
                payload = await websocket.receive_json()
            except (KeyError, ValueError, RecursionError):
                # A binary frame, or text that is not JSON: said, and the socket stays open.
                await websocket.send_json(_invalid_frame("the message is not a JSON object", []))
                continue
            emit.start_turn()
            try:
                if isinstance(payload, dict) and "approval_id" in payload:
                    frame = SocketApproval.model_validate(payload)
                    result = await resume_approval(
                        loop, agent_id, frame.approval_id, frame.answer, emit
                    )
                else:
                    request = ChatRequest.model_validate(payload)
                    result = await run_turn(loop, agent_id, request, emit)
            except ValidationError as error:
                # Without the input: it may be long, or hold what JSON cannot carry back.
                errors = validation_entries(error.errors(include_url=False, include_input=False))
                await websocket.send_json(
                    _invalid_frame("the message is not a valid chat request", errors)
                )
                continue
            except CredenceError as error:
                await emit.send(emit.failure_frame(error))
                continue
            await emit.send({"type": "result", "data": result.model_dump(mode="json")})
            if emit.gone:
                return
    except WebSocketDisconnect:
        return


class SocketEmitter:
    """A turn's events to its socket. When the client has gone, the turn goes on to its end
    (its record, its after-turn work: a closed session, the call's memory) and the events
    that follow are dropped: a turn never stops half-way because nobody is listening.

    A failed turn ends in one frame, the error frame (docs/chat.md): its ``error`` event (the
    phase it failed in) is held back and its phase goes into that frame's details."""

    def __init__(self, websocket: WebSocket) -> None:
        self._websocket = websocket
        self.gone = False
        self._failed_phase: str | None = None

    async def __call__(self, event: TurnEvent) -> None:
        if event.type == "error":
            self._failed_phase = event.data.get("phase")
            return
        await self.send(event.model_dump(mode="json"))

    def start_turn(self) -> None:
        """Forgets what an earlier turn said of its failure."""
        self._failed_phase = None

    def failure_frame(self, error: CredenceError) -> dict[str, Any]:
        """The one frame a failed turn ends in: the error, with the phase it failed in
        (``details.phase``) when its turn said."""
        frame = socket_error_frame(error)
        if self._failed_phase is not None:
            frame["error"]["details"].setdefault("phase", self._failed_phase)
        self._failed_phase = None
        return frame

    async def send(self, frame: dict[str, Any]) -> None:
        if self.gone:
            return
        try:
            await self._websocket.send_json(frame)
        except (WebSocketDisconnect, RuntimeError, OSError):
            self.gone = True


def _invalid_frame(message: str, errors: Sequence[Any]) -> dict[str, Any]:
    return {
        "type": "error",
        "error": {
            "code": "invalid_input",
            "status": 422,
            "message": message,
            "details": {"errors": list(errors)},
        },
    }
