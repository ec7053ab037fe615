"""An investigation whose agent is being deleted ends quietly: no step is written, nothing is
marked failed (the lock refuses every write to the agent), and the runner logs one line saying
why, with no traceback."""

from __future__ import annotations

import logging

import pytest

from app.agents.store import delete_agent
from app.config import Settings
from app.embeddings.embedder import Embedder
from app.errors import AgentNotFound
from app.graph.client import GraphClient
from app.reasoning.offline.reasoner import OfflineReasoner
from app.research import investigations, store
from app.research.runner import run_investigation
from app.research.tasks import InvestigationTasks
from tests.support.research import ListSource, passage_of, services_for, vitaminc_rows

MOROCCO = 4


def _source() -> ListSource:
    data = vitaminc_rows()
    return ListSource([passage_of(data[n], n) for n in (MOROCCO, MOROCCO + 1)], name="vitaminc")


async def _begin_deletion(graph: GraphClient, agent: str) -> None:
    """What the first batch of a deletion does: the agent is marked as being deleted."""
    assert await graph.write("agents/store/lock_agent_for_deletion", agent_id=agent)


@pytest.mark.parametrize("deleted", [False, True], ids=["being deleted", "deleted"])
async def test_the_background_runner_of_an_agent_going_away_stops_with_one_line(
    graph: GraphClient,
    settings: Settings,
    offline: OfflineReasoner,
    embedder: Embedder,
    agent: str,
    caplog: pytest.LogCaptureFixture,
    deleted: bool,
) -> None:
    services = services_for(graph, settings, offline, embedder, [_source()])
    claim = vitaminc_rows()[MOROCCO]["claim"]
    started = await investigations.start_investigation(services, None, agent, claim)
    if deleted:
        await delete_agent(graph, agent, default_agent_name="")
    else:
        await _begin_deletion(graph, agent)
    tasks = InvestigationTasks()
    with caplog.at_level(logging.DEBUG, logger="app.research"):
        tasks.ensure_running(services, agent, started.id)
        await tasks.wait(started.id)
    records = [r for r in caplog.records if r.name.startswith("app.research")]
    assert [r.exc_info for r in records if r.exc_info] == []
    why = (
        f"it is gone (agent {agent!r} deleted)"
        if deleted
        else (f"agent {agent!r} is gone or being deleted")
    )
    assert [r.getMessage() for r in records] == [f"investigation {started.id} ends: {why}"]
    if not deleted:
        # Nothing was written: no step, and the investigation was not marked failed.
        detail = await store.load_detail(graph, agent, started.id)
        assert (detail.investigation.status, detail.steps) == ("running", [])


async def test_the_foreground_runner_raises_agent_not_found_without_marking_it_failed(
    graph: GraphClient,
    settings: Settings,
    offline: OfflineReasoner,
    embedder: Embedder,
    agent: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    services = services_for(graph, settings, offline, embedder, [_source()])
    claim = vitaminc_rows()[MOROCCO]["claim"]
    started = await investigations.start_investigation(services, None, agent, claim)
    await _begin_deletion(graph, agent)
    with caplog.at_level(logging.DEBUG, logger="app.research"), pytest.raises(AgentNotFound):
        await run_investigation(services, agent, started.id)
    assert not [r for r in caplog.records if r.name.startswith("app.research")]
    detail = await store.load_detail(graph, agent, started.id)
    assert (detail.investigation.status, detail.steps) == ("running", [])
