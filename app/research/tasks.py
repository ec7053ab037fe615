"""The investigations this process is running, as asyncio tasks (one per investigation)."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from app.errors import AgentNotFound, InvestigationNotFound
from app.research.runner import run_investigation
from app.research.services import ResearchServices

log = logging.getLogger(__name__)


class InvestigationTasks:
    """A registry of running investigation tasks: at most one per investigation per process
    (a second process running the same one is harmless: steps are claimed by ordinal)."""

    def __init__(self) -> None:
        self._tasks: dict[str, asyncio.Task[None]] = {}

    def running(self, investigation_id: str) -> bool:
        task = self._tasks.get(investigation_id)
        return task is not None and not task.done()

    def ensure_running(
        self, services: ResearchServices, agent_id: str, investigation_id: str
    ) -> None:
        """Starts the investigation's runner in the background unless it is running here."""
        if self.running(investigation_id):
            return
        task = asyncio.create_task(
            self._run(services, agent_id, investigation_id),
            name=f"investigation {investigation_id}",
        )
        self._tasks[investigation_id] = task

    async def _run(self, services: ResearchServices, agent_id: str, investigation_id: str) -> None:
        try:
            investigation = await run_investigation(services, agent_id, investigation_id)
            log.info("investigation %s stopped: %s", investigation_id, investigation.status)
        except asyncio.CancelledError:
            raise
        except AgentNotFound:
            # Expected while the agent is deleted: its lock refuses every write, the investigation
            # with the rest of its graph goes with it.
            log.info(
                "investigation %s ends: agent %r is gone or being deleted",
                investigation_id,
                agent_id,
            )
        except InvestigationNotFound:
            # Only an agent's deletion removes an investigation.
            log.info(
                "investigation %s ends: it is gone (agent %r deleted)", investigation_id, agent_id
            )
        except Exception:
            log.exception("investigation %s runner crashed", investigation_id)
        finally:
            self._tasks.pop(investigation_id, None)

    async def wait(self, investigation_id: str) -> None:
        """Waits for the investigation's runner in this process, if any, to stop."""
        task = self._tasks.get(investigation_id)
        if task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.shield(task)

    async def stop_all(self) -> None:
        """Cancels every runner (at shutdown); each investigation stays 'running' in the graph
        and continues from its last committed step on resume."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
