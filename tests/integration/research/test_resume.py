"""A process running an investigation is killed (SIGKILL) while a step is in flight; resuming
from the graph finishes it the same way, with no step, source or evidence recorded twice."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from collections import Counter
from pathlib import Path

from app.config import Settings
from app.embeddings.embedder import Embedder
from app.graph.client import GraphClient
from app.reasoning.offline.reasoner import OfflineReasoner
from app.research import investigations, store
from app.research.runner import run_investigation
from tests.support.research import ListSource, passage_of, services_for, vitaminc_rows

ROOT = Path(__file__).resolve().parents[3]
MOROCCO = 4
ROWS = [MOROCCO, MOROCCO + 1, *range(20, 40)]


def _source(delay_s: float = 0.0) -> ListSource:
    data = vitaminc_rows()
    return ListSource([passage_of(data[n], n) for n in ROWS], name="vitaminc", delay_s=delay_s)


async def _wait_for_steps(graph: GraphClient, agent: str, investigation: str, count: int) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if len(await store.list_steps(graph, agent, investigation)) >= count:
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"the subprocess did not take {count} step(s) in time")


async def test_a_killed_run_resumes_to_the_same_end_without_duplicates(
    graph: GraphClient,
    settings: Settings,
    offline: OfflineReasoner,
    embedder: Embedder,
    agent: str,
) -> None:
    claim = vitaminc_rows()[MOROCCO]["claim"]
    services = services_for(graph, settings, offline, embedder, [_source()])
    started = await investigations.start_investigation(services, None, agent, claim)
    env = {
        **os.environ,
        "CREDENCE_NEO4J_URI": settings.neo4j_uri,
        "CREDENCE_NEO4J_USER": settings.neo4j_user,
        "CREDENCE_NEO4J_PASSWORD": settings.neo4j_password.get_secret_value(),
        "PYTHONPATH": str(ROOT),
    }
    # Each search takes 4 s: the process is killed in the middle of the first one.
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.support.run_investigation", agent, started.id,
        ",".join(map(str, ROWS)), "4",
        cwd=ROOT, env=env,
    )  # fmt: skip
    try:
        await _wait_for_steps(graph, agent, started.id, 1)
        await asyncio.sleep(1.5)
        assert process.returncode is None, "the run ended before it could be killed"
    finally:
        process.send_signal(signal.SIGKILL)
        await process.wait()
    killed = await store.load_detail(graph, agent, started.id)
    assert killed.investigation.status == "running"  # left running by a dead process
    assert [s.kind for s in killed.steps] == ["supervisor"]  # the search in flight is lost
    assert not killed.sources

    resumed = await investigations.resume_investigation(services, None, agent, started.id)
    assert resumed.status == "running"
    end = await run_investigation(services, agent, started.id)

    detail = await store.load_detail(graph, agent, started.id)
    assert end.status == "finished" and end.verdict == "undecided"
    assert [s.ordinal for s in detail.steps] == list(range(len(detail.steps)))
    assert [s.kind for s in detail.steps].count("supervisor") == 1
    assert len(detail.hypotheses) == 1
    assert not [k for k, n in Counter((s.kind, s.ref) for s in detail.sources).items() if n > 1]
    pairs = Counter((e.hypothesis_id, e.source_id) for e in detail.evidence)
    assert set(pairs.values()) == {1}
    assert len(detail.conflicts) == 1 and detail.conflicts[0].status == "unresolvable"
    # Same end as a run never interrupted.
    again = await investigations.start_investigation(services, None, agent, claim)
    uninterrupted = await run_investigation(services, agent, again.id)
    other = await store.load_detail(graph, agent, again.id)
    assert uninterrupted.verdict == end.verdict
    assert [s.kind for s in other.steps] == [s.kind for s in detail.steps]
    assert {s.ref for s in other.sources} == {s.ref for s in detail.sources}


async def test_a_step_prepared_before_a_pause_commits_nothing(
    graph: GraphClient,
    settings: Settings,
    offline: OfflineReasoner,
    embedder: Embedder,
    agent: str,
) -> None:
    claim = vitaminc_rows()[MOROCCO]["claim"]
    services = services_for(graph, settings, offline, embedder, [_source(delay_s=1.0)])
    started = await investigations.start_investigation(services, None, agent, claim)
    running = asyncio.create_task(run_investigation(services, agent, started.id))
    await _wait_for_steps(graph, agent, started.id, 1)
    await investigations.pause_investigation(services, agent, started.id)
    paused = await running
    assert paused.status == "paused"
    assert [s.kind for s in await store.list_steps(graph, agent, started.id)] == ["supervisor"]
    # The abrupt end of a task between a step's start and its commit loses only that step.
    await investigations.resume_investigation(services, None, agent, started.id)
    task = asyncio.create_task(run_investigation(services, agent, started.id))
    await asyncio.sleep(0.5)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    assert len(await store.list_steps(graph, agent, started.id)) == 1
    end = await run_investigation(services, agent, started.id)
    assert end.status == "finished"
