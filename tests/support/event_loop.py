"""Whether the event loop stays free while something runs: a coroutine that ticks every
``interval_s`` seconds beside it. A loop blocked for the whole time ticks once; a free one about
``elapsed / interval_s`` times. The longest wait between two ticks (``longest_gap_s``, read on
an injectable monotonic timer) is how long the loop was held at most: what a ``/health`` asked
meanwhile would have waited."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass


@dataclass
class Ticks:
    count: int = 0
    longest_gap_s: float = 0.0


@contextlib.asynccontextmanager
async def ticking(
    interval_s: float = 0.01, timer: Callable[[], float] = time.monotonic
) -> AsyncIterator[Ticks]:
    """Ticks the running loop every ``interval_s`` seconds until the block ends."""
    ticks = Ticks()
    last = timer()

    def measure_gap() -> None:
        nonlocal last
        now = timer()
        ticks.longest_gap_s = max(ticks.longest_gap_s, now - last)
        last = now

    async def tick() -> None:
        while True:
            ticks.count += 1
            measure_gap()
            await asyncio.sleep(interval_s)

    task = asyncio.create_task(tick())
    try:
        yield ticks
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        measure_gap()  # a loop held until the block ended waited since its last tick
