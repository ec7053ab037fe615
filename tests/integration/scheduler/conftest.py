"""Schedulers over the suite's graph, on a clock the test moves (never the wall)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import pytest

from app.clock import Clock, FixedClock
from app.config import Settings
from app.graph.client import GraphClient
from app.runtime import Runtime
from app.scheduler.settings import SchedulerSettings

MakeRuntime = Callable[..., Runtime]


@pytest.fixture
def moved_clock(clock: Clock) -> FixedClock:
    """A clock standing at the session API's "now", for the test to move."""
    return FixedClock(clock.now())


@pytest.fixture
async def make_runtime(
    settings: Settings, graph: GraphClient, moved_clock: FixedClock
) -> AsyncIterator[MakeRuntime]:
    """Runtimes over the suite's graph and ``moved_clock`` whose scheduler sees only the given
    agents (so a test never touches another test's agents) and runs only the given jobs."""
    made: list[Runtime] = []

    def make(agent_ids: list[str], jobs: list[str], **scheduler: object) -> Runtime:
        chosen = SchedulerSettings(enabled=False, agent_ids=agent_ids, jobs=jobs, **scheduler)
        runtime = Runtime(
            settings.model_copy(update={"scheduler": chosen}), graph, clock=moved_clock
        )
        made.append(runtime)
        return runtime

    yield make
    for runtime in made:
        await runtime.aclose()
