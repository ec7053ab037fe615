"""The tool calls' memories a process is still writing, by agent (app/loop/call_memory.py writes
them right after each call's answer): an agent's next turn waits for them, so it reads what the
calls before it taught."""

from __future__ import annotations

import asyncio


class PendingCallMemories:
    """The calls' memories this process is writing, by agent: an agent's next turn waits for
    them (:meth:`settled`), so it reads what the calls before it taught."""

    def __init__(self) -> None:
        self._pending: dict[str, set[asyncio.Future[object]]] = {}

    def add(self, agent_id: str, task: asyncio.Future[object]) -> None:
        """Counts ``task`` (writing one of the agent's call memories) until it is done."""
        pending = self._pending.setdefault(agent_id, set())
        pending.add(task)
        task.add_done_callback(lambda done: self._done(agent_id, done))

    def _done(self, agent_id: str, task: asyncio.Future[object]) -> None:
        pending = self._pending.get(agent_id)
        if pending is not None:
            pending.discard(task)
            if not pending:
                del self._pending[agent_id]

    async def settled(self, agent_id: str) -> None:
        """Returns once the agent's call memories started so far are written (or failed: a
        failure is logged where it ran, and the memory waits in the graph)."""
        while pending := self._pending.get(agent_id):
            await asyncio.wait(list(pending))
