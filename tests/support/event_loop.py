"""Whether the event loop stays free while something runs: a coroutine that ticks every
``interval_s`` seconds beside it. A loop blocked for the whole time ticks once; a free one about
``elapsed / interval_s`` times."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass


@dataclass
class Ticks:
    count: int = 0


@contextlib.asynccontextmanager
async def ticking(interval_s: float = 0.01) -> AsyncIterator[Ticks]:
    """Ticks the running loop every ``interval_s`` seconds until the block ends."""
    ticks = Ticks()

    async def tick() -> None:
        while True:
            ticks.count += 1
            await asyncio.sleep(interval_s)

    task = asyncio.create_task(tick())
    try:
        yield ticks
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
