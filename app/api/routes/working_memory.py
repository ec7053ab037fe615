"""Working memory: active tasks, notes, and objects in view (people, entities, time, beliefs)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, status

from app.api.deps import AgentIdDep, ClockDep, GraphDep, SettingsDep
from app.api.openapi import ErrorResponse
from app.common import Instant
from app.memory import working_memory
from app.memory.working_memory import (
    Entity,
    EntityCreate,
    Note,
    NoteCreate,
    Task,
    TaskAdded,
    TaskCreate,
    TasksPublic,
    TaskState,
    WorkingMemory,
)

router = APIRouter(prefix="/v1/agents/{agent_id}/working-memory", tags=["working memory"])


@router.get("")
async def read_working_memory(
    graph: GraphDep,
    settings: SettingsDep,
    clock: ClockDep,
    agent_id: AgentIdDep,
    at: Annotated[
        Instant | None,
        Query(
            description="The time the notes' expiry and the temporal context are judged at "
            "(default: now); tasks, notes, people, entities and beliefs are read as they stand "
            "now, not as they stood then"
        ),
    ] = None,
) -> WorkingMemory:
    """The three columns: active tasks, unexpired notes, and objects in view."""
    return await working_memory.load_working_memory(
        graph, agent_id, at or clock.now(), mechanics=settings.memory
    )


@router.get("/tasks")
async def list_tasks(
    graph: GraphDep,
    agent_id: AgentIdDep,
    state: Annotated[
        list[TaskState] | None, Query(description="Only tasks in these states")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> TasksPublic:
    """Tasks in any state (working memory shows the open ones), newest first, each with its
    transitions (state, time, cause)."""
    return await working_memory.list_tasks(graph, agent_id, state, limit)


@router.post("/tasks", status_code=status.HTTP_201_CREATED)
async def add_task(
    graph: GraphDep, settings: SettingsDep, clock: ClockDep, agent_id: AgentIdDep, body: TaskCreate
) -> TaskAdded:
    """Add a task in planning (beyond the limit, the oldest open task is evicted; one awaiting
    a person goes last)."""
    return await working_memory.add_task(
        graph, agent_id, body, mechanics=settings.memory, now=clock.now()
    )


@router.post(
    "/tasks/{task_id}/complete",
    responses={
        409: {
            "model": ErrorResponse,
            "description": "The task is no longer open (evicted or cancelled): ``task_closed`` "
            "naming its state; nothing written.",
        }
    },
)
async def complete_task(
    graph: GraphDep,
    clock: ClockDep,
    agent_id: AgentIdDep,
    task_id: Annotated[str, Path(min_length=1, max_length=64)],
) -> Task:
    """Mark an open task completed (a completed one answers as it is; an evicted or cancelled
    one, 409)."""
    return await working_memory.complete_task(graph, agent_id, task_id, now=clock.now())


@router.post("/notes", status_code=status.HTTP_201_CREATED)
async def add_note(
    graph: GraphDep, settings: SettingsDep, clock: ClockDep, agent_id: AgentIdDep, body: NoteCreate
) -> Note:
    """Add a note with a priority and a time to live."""
    return await working_memory.add_note(
        graph, agent_id, body, mechanics=settings.memory, now=clock.now()
    )


@router.post("/entities")
async def note_entity(
    graph: GraphDep, clock: ClockDep, agent_id: AgentIdDep, body: EntityCreate
) -> Entity:
    """Record a mention of a salient entity (merged on its name)."""
    return await working_memory.note_entity(graph, agent_id, body, now=clock.now())
