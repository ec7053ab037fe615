"""The scheduler (docs/loop.md §14) on a real Neo4j, driven by ``tick`` with the clock moved:
an idle session closes with its summary, lessons and reflection without a later turn; two
schedulers claim a job once; a job that overruns its bound is cancelled and recorded so; the
monthly rule decay and the pending embeddings run for the agent that needs them."""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import AsyncIterator
from datetime import datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from prometheus_client import REGISTRY

from app.clock import Clock, FixedClock
from app.config import Settings
from app.errors import GraphUnavailable
from app.graph.client import GraphClient
from app.loop.services import LoopServices
from app.runtime import Runtime
from app.scheduler.jobs import AgentQuery, Job
from app.scheduler.models import JobDone
from app.scheduler.scheduler import Scheduler
from app.scheduler.store import Claim, claim_jobs, finish_job
from tests.integration.loop.conftest import Agent
from tests.integration.scheduler.conftest import MakeRuntime
from tests.support.agents import MakeAgent

REMEMBER = "Dates the person asks me to remember, such as when an audit starts, are noted"
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")


@pytest.fixture
async def job_keys(test_graph: GraphClient) -> AsyncIterator[list[str]]:
    """The keys of the test's own job nodes, deleted after it."""
    keys: list[str] = []
    yield keys
    await test_graph.write("scheduler/delete_jobs", keys=keys)


async def _job(test_graph: GraphClient, key: str) -> dict[str, object]:
    rows = await test_graph.read("scheduler/get_job", key=key)
    return dict(rows[0]["job"]) if rows else {}


async def test_an_idle_session_closes_with_its_summary_and_reflection_without_a_later_turn(
    client: TestClient,
    make_agent: MakeAgent,
    settings: Settings,
    make_runtime: MakeRuntime,
    moved_clock: FixedClock,
    clock: Clock,
    test_graph: GraphClient,
) -> None:
    agent = Agent(client, make_agent("Quiet"))
    agent.belief(REMEMBER, 0.9)
    for day in DAYS:
        agent.chat(
            f"Please remember that the audit meeting is on {day}",
            session="quiet-week",
            speaker="Dana Fox",
        )
    moved_clock.at = clock.now()  # where the API's turns left it
    runtime = make_runtime([agent.id], ["idle_sessions"])
    # Not idle yet: nothing due.
    assert await runtime.scheduler.tick() == []
    [before] = await test_graph.read(
        "sessions/get_session_node", agent_id=agent.id, key="quiet-week"
    )
    assert not before["closed"]

    # The clock moves past the idle timeout; nobody speaks to the agent again.
    moved_clock.advance(timedelta(minutes=settings.loop.session_idle_timeout_minutes + 1))
    [run] = await runtime.scheduler.tick()
    assert (run.job, run.agent_id, run.outcome, run.recorded) == (
        "idle_sessions",
        agent.id,
        "ok",
        True,
    )
    assert run.detail == "1 idle session(s) closed, reflection ran after 1"
    [stored] = await test_graph.read(
        "sessions/get_session_node", agent_id=agent.id, key="quiet-week"
    )
    assert stored["closed"] and stored["close_trigger"] == "idle_timeout"
    assert stored["summary"].startswith("Session quiet-week: 5 turn(s) with Dana Fox.")
    assert any(lesson.startswith("What worked:") for lesson in stored["lessons"])
    # Reflection ran after the close: the episodes were consolidated.
    status = agent.get("/status")
    assert status["episodes"]["since_reflection"] == 0
    assert status["last_reflection_at"] is not None
    assert status["last_session"]["key"] == "quiet-week"
    assert status["last_session"]["close_trigger"] == "idle_timeout"
    [job] = [j for j in status["scheduler"] if j["job"] == "idle_sessions"]
    assert job["last_outcome"] == "ok" and job["runs"] == 1 and job["lease_owner"] is None
    assert status["state"] == "idle"

    # Ran, so not due again within its interval (and no session is idle any more).
    moved_clock.advance(timedelta(seconds=1))
    assert await runtime.scheduler.tick() == []


async def test_two_schedulers_run_a_due_job_once(
    settings: Settings,
    graph: GraphClient,
    moved_clock: FixedClock,
    test_graph: GraphClient,
    job_keys: list[str],
    make_runtime: MakeRuntime,
) -> None:
    name = f"probe-{uuid.uuid4().hex[:12]}"
    job_keys.append(name)
    ran: list[str] = []

    def probe(owner: str) -> Job:
        async def work(services: LoopServices, agent_id: str | None, now: datetime) -> JobDone:
            ran.append(owner)
            await asyncio.sleep(0)  # let the other scheduler try meanwhile
            return JobDone(detail=f"ran by {owner}")

        return Job(name, timedelta(hours=1), work)

    runtimes = [make_runtime([], []), make_runtime([], [])]

    def scheduler(i: int, runtime: Runtime) -> Scheduler:
        return Scheduler(lambda: runtime.loop, runtime.settings.scheduler, jobs=[probe(f"s{i}")])

    first, second = (scheduler(i, r) for i, r in enumerate(runtimes))
    assert first.owner != second.owner
    for _ in range(3):  # both try at once, again and again
        await asyncio.gather(first.tick(), second.tick())
    assert len(ran) == 1
    node = await _job(test_graph, name)
    assert node["runs"] == 1 and node["last_outcome"] == "ok" and node.get("lease_owner") is None
    assert node["last_owner"] in (first.owner, second.owner)

    # An hour later on the clock it is due again: once more, by one of them.
    moved_clock.advance(timedelta(hours=1))
    await asyncio.gather(first.tick(), second.tick(), first.tick())
    assert len(ran) == 2 and (await _job(test_graph, name))["runs"] == 2


async def test_a_job_that_overruns_its_bound_is_cancelled_and_recorded_as_timed_out(
    moved_clock: FixedClock,
    test_graph: GraphClient,
    job_keys: list[str],
    make_runtime: MakeRuntime,
) -> None:
    name = f"overrun-{uuid.uuid4().hex[:12]}"
    job_keys.append(name)
    cancelled = asyncio.Event()

    async def never_ends(services: LoopServices, agent_id: str | None, now: datetime) -> JobDone:
        try:
            await asyncio.Event().wait()  # nothing sets it: only the bound ends this run
        finally:
            cancelled.set()
        raise AssertionError("unreachable")  # pragma: no cover

    runtime = make_runtime([], [], job_timeout_seconds=0.2, lease_seconds=60)
    scheduler = Scheduler(
        lambda: runtime.loop,
        runtime.settings.scheduler,
        jobs=[Job(name, timedelta(minutes=5), never_ends)],
    )
    counted = REGISTRY.get_sample_value(
        "credence_scheduler_job_runs_total", {"job": name, "outcome": "timed_out"}
    )
    [run] = await scheduler.tick()
    assert run.outcome == "timed_out" and run.detail == "cancelled after 0.2 s"
    assert cancelled.is_set()
    node = await _job(test_graph, name)
    assert node["last_outcome"] == "timed_out" and node.get("lease_owner") is None
    assert node["last_detail"] == "cancelled after 0.2 s"
    assert (counted or 0) + 1 == REGISTRY.get_sample_value(
        "credence_scheduler_job_runs_total", {"job": name, "outcome": "timed_out"}
    )
    assert REGISTRY.get_sample_value("credence_scheduler_job_duration_seconds_count", {"job": name})
    # Recorded as a run: not due again until its interval has passed on the clock.
    assert await scheduler.tick() == []


async def test_eight_claims_at_once_of_a_due_job_leave_it_to_one(
    graph: GraphClient, moved_clock: FixedClock, job_keys: list[str]
) -> None:
    """The claim takes the job node's write lock before it reads the lease: without that first
    SET, about half of such races let two claimers through."""
    every = timedelta(hours=1)
    for _ in range(5):
        name = f"race-{uuid.uuid4().hex[:12]}"
        job_keys.append(name)
        earlier = moved_clock.now() - 2 * every
        await claim_jobs(
            graph,
            [Claim(name, None)],
            owner="before",
            now=earlier,
            due_before=earlier - every,
            lease_until=earlier + timedelta(minutes=5),
        )
        done = {"started_at": earlier, "outcome": "ok", "duration_ms": 1.0, "detail": ""}
        assert await finish_job(graph, name, "before", done)
        now = moved_clock.now()
        claims = await asyncio.gather(
            *(
                claim_jobs(
                    graph,
                    [Claim(name, None)],
                    owner=f"claimer-{n}",
                    now=now,
                    due_before=now - every,
                    lease_until=now + timedelta(minutes=5),
                )
                for n in range(8)
            )
        )
        assert sum(1 for claimed in claims if claimed) == 1


async def test_an_agent_whose_job_timed_out_is_in_error_until_it_runs_again(
    client: TestClient,
    make_agent: MakeAgent,
    moved_clock: FixedClock,
    make_runtime: MakeRuntime,
) -> None:
    agent = make_agent("Stuck")
    name = f"stuck-{uuid.uuid4().hex[:12]}"
    stuck = True

    async def the_agent(services: LoopServices, query: AgentQuery) -> list[str]:
        return [agent]

    async def work(services: LoopServices, agent_id: str | None, now: datetime) -> JobDone:
        if stuck:
            await asyncio.Event().wait()
        return JobDone(detail="done")

    runtime = make_runtime([agent], [], job_timeout_seconds=0.2, lease_seconds=60)
    scheduler = Scheduler(
        lambda: runtime.loop,
        runtime.settings.scheduler,
        jobs=[Job(name, timedelta(minutes=1), work, the_agent)],
    )
    [run] = await scheduler.tick()
    assert (run.agent_id, run.outcome) == (agent, "timed_out")
    status = client.get(f"/v1/agents/{agent}/status").json()
    assert status["state"] == "error"
    assert status["state_reason"] == f"the scheduler's {name} job timed_out: cancelled after 0.2 s"
    [job] = [j for j in status["scheduler"] if j["job"] == name]
    assert job["last_outcome"] == "timed_out" and job["runs"] == 1

    stuck = False
    moved_clock.advance(timedelta(minutes=1))
    [again] = await scheduler.tick()
    assert again.outcome == "ok"
    assert client.get(f"/v1/agents/{agent}/status").json()["state"] == "idle"


async def test_a_batch_that_outlasts_one_lease_still_runs_each_agent_once_across_schedulers(
    moved_clock: FixedClock,
    test_graph: GraphClient,
    job_keys: list[str],
    make_runtime: MakeRuntime,
) -> None:
    """Seven agents' runs of 110 s each (each under the 120 s bound) take longer than one 600 s
    lease: each is claimed when it starts, so a second scheduler ticking during the sixth finds
    nothing of the first's batch left to take but what the first has not started."""
    name = f"batch-{uuid.uuid4().hex[:12]}"
    agents = [f"ag{n}" for n in range(1, 8)]
    job_keys.extend(f"{name}:{agent}" for agent in agents)
    ran: list[tuple[str, str]] = []

    async def the_agents(services: LoopServices, query: AgentQuery) -> list[str]:
        return agents

    def job(owner: str, slow: bool) -> Job:
        async def work(services: LoopServices, agent_id: str | None, now: datetime) -> JobDone:
            assert agent_id is not None, "a job run for each agent ran for none"
            ran.append((owner, agent_id))
            if slow:
                moved_clock.advance(timedelta(seconds=110))  # the run takes 110 s
                if agent_id == "ag6":
                    assert [run.agent_id for run in await other.tick()] == ["ag7"]
            return JobDone(detail=f"ran by {owner}")

        return Job(name, timedelta(hours=1), work, the_agents)

    runtime = make_runtime(agents, [], job_timeout_seconds=120, lease_seconds=600)
    first = Scheduler(lambda: runtime.loop, runtime.settings.scheduler, jobs=[job("A", True)])
    other = Scheduler(lambda: runtime.loop, runtime.settings.scheduler, jobs=[job("B", False)])
    start = moved_clock.now()
    runs = await first.tick()
    assert sorted(agent for _, agent in ran) == agents  # each agent once, by one of them
    assert [run.agent_id for run in runs] == agents[:6] and all(run.recorded for run in runs)
    # Each run was claimed at the clock's time when it started, not the tick's.
    assert [run.started_at for run in runs] == [
        start + timedelta(seconds=110 * n) for n in range(6)
    ]
    for agent in agents:
        node = await _job(test_graph, f"{name}:{agent}")
        assert node["runs"] == 1 and node.get("lease_owner") is None, (agent, node)


async def test_a_run_whose_record_fails_leaves_the_rest_of_the_batch_to_run_and_record(
    moved_clock: FixedClock,
    graph: GraphClient,
    test_graph: GraphClient,
    job_keys: list[str],
    make_runtime: MakeRuntime,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    name = f"unrecorded-{uuid.uuid4().hex[:12]}"
    agents = ["a1", "a2", "a3"]
    job_keys.extend(f"{name}:{agent}" for agent in agents)
    ran: list[str | None] = []

    async def the_agents(services: LoopServices, query: AgentQuery) -> list[str]:
        return agents

    async def work(services: LoopServices, agent_id: str | None, now: datetime) -> JobDone:
        ran.append(agent_id)
        return JobDone(detail="done")

    write_alone = graph.write_alone

    async def neo4j_away_for_a1s_record(query: str, **params: object) -> list[dict[str, object]]:
        if query == "scheduler/finish_job" and params["key"] == f"{name}:a1":
            raise GraphUnavailable("Neo4j is unreachable (the test's fault)")
        return await write_alone(query, **params)

    monkeypatch.setattr(graph, "write_alone", neo4j_away_for_a1s_record)
    runtime = make_runtime(agents, [], job_timeout_seconds=60, lease_seconds=300)
    scheduler = Scheduler(
        lambda: runtime.loop,
        runtime.settings.scheduler,
        jobs=[Job(name, timedelta(hours=1), work, the_agents)],
    )
    start = moved_clock.now()
    with caplog.at_level(logging.ERROR, logger="app.scheduler.scheduler"):
        runs = await scheduler.tick()
    assert ran == agents
    assert [(run.agent_id, run.recorded) for run in runs] == [
        ("a1", False),
        ("a2", True),
        ("a3", True),
    ]
    [message] = [record.getMessage() for record in caplog.records]
    lease_end = (start + timedelta(seconds=300)).isoformat()
    assert message == (
        f"scheduler: job {name}:a1 ran (ok) but its run was not recorded: Neo4j is unreachable "
        f"(the test's fault); its lease ends at {lease_end}, when it is due again"
    )
    a1 = await _job(test_graph, f"{name}:a1")
    assert a1["runs"] == 0 and a1["lease_owner"] == scheduler.owner
    for agent in ("a2", "a3"):
        node = await _job(test_graph, f"{name}:{agent}")
        assert node["runs"] == 1 and node.get("lease_owner") is None

    # Until its lease ends nothing runs again; then a1, never recorded, is due and runs.
    monkeypatch.setattr(graph, "write_alone", write_alone)
    moved_clock.advance(timedelta(seconds=299))
    assert await scheduler.tick() == []
    moved_clock.advance(timedelta(seconds=1))
    [again] = await scheduler.tick()
    assert (again.agent_id, again.recorded) == ("a1", True)
