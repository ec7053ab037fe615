"""Work a turn starts after its answer (a tool call's memory, a reflection), run in the
background of the process: a failure is logged, never raised; what must not be lost (the
memories of tool calls) is waited for before the runtime closes (:func:`settle_background`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine

log = logging.getLogger(__name__)

# Work a turn starts after its answer; kept referenced until done (asyncio holds tasks weakly).
_BACKGROUND: set[asyncio.Task[object]] = set()
# Of it, the work a closing process waits for (what is written nowhere else until it is done).
_SETTLE: set[asyncio.Task[object]] = set()


def in_background(
    work: Coroutine[object, object, object], what: str, *, settle_on_close: bool = False
) -> asyncio.Task[object]:
    """Runs ``work`` after the caller returns; a failure is logged, never raised.

    Args:
        settle_on_close: :func:`settle_background` waits for it (a reflection does not: one
            lost with the process runs at the next trigger).
    """

    async def run() -> object:
        try:
            return await work
        except Exception:
            log.exception("%s failed in the background", what)
            return None

    task = asyncio.get_running_loop().create_task(run())
    _BACKGROUND.add(task)
    task.add_done_callback(_BACKGROUND.discard)
    if settle_on_close:
        _SETTLE.add(task)
        task.add_done_callback(_SETTLE.discard)
    return task


async def settle_background() -> None:
    """Waits for the background work that must not be lost (the memories of tool calls) started
    so far; the runtime calls it before it closes the graph."""
    while _SETTLE:
        await asyncio.gather(*list(_SETTLE))


async def settle_all_background() -> None:
    """Waits for every piece of background work started so far, and for what it starts in
    turn (reflections too), on this event loop: for a caller that must see each turn's whole
    aftermath before the next turn starts, as the demo does to be deterministic (app/demo/)."""
    loop = asyncio.get_running_loop()
    while mine := [task for task in _BACKGROUND if task.get_loop() is loop]:
        await asyncio.gather(*mine)
