"""Executors that ship with Credence: they act on the agent's own working memory, so a work
unit such as "remember that the audit starts Monday" or "track the Q3 close" really happens.
Anything else (payments, e-mail, ledgers) needs an executor registered by the deployment."""

from __future__ import annotations

from app.clock import Clock, SystemClock
from app.graph.client import GraphClient
from app.memory.settings import MemoryMechanics
from app.memory.working_memory import NoteCreate, TaskCreate, add_note, add_task
from app.reasoning.protocol import ExecutionResult, WorkUnit


def _text(unit: WorkUnit) -> str:
    return unit.description.strip()[:2000] or unit.verb


class WorkingMemoryExecutor:
    """``remember`` / ``note`` → a working-memory note; ``track`` / ``add_task`` → an active
    task (at most four stay active)."""

    name = "working_memory"
    verbs = frozenset({"remember", "note", "track", "add_task"})

    def __init__(
        self, graph: GraphClient, mechanics: MemoryMechanics, clock: Clock | None = None
    ) -> None:
        self._graph = graph
        self._mechanics = mechanics
        self._clock = clock or SystemClock()

    async def execute(self, agent_id: str, unit: WorkUnit) -> ExecutionResult:
        if unit.verb in ("remember", "note"):
            note = await add_note(
                self._graph,
                agent_id,
                NoteCreate(content=_text(unit), source="loop"),
                mechanics=self._mechanics,
                now=self._clock.now(),
            )
            return ExecutionResult(
                status="executed",
                output={"note_id": note.id},
                message=f"noted in working memory: {note.content}",
            )
        added = await add_task(
            self._graph,
            agent_id,
            TaskCreate(description=_text(unit), source="loop"),
            mechanics=self._mechanics,
            now=self._clock.now(),
        )
        return ExecutionResult(
            status="executed",
            output={"task_id": added.task.id},
            message=f"tracking the task: {added.task.description}",
        )
