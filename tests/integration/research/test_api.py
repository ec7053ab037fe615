"""Research mode over REST and WebSocket, on the real Neo4j, searching a VitaminC corpus loaded
into the agent (the shipped CorpusSource): the investigation runs in the API process."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.api.app import create_app
from app.config import Settings
from app.embeddings.embedder import shared_embedder
from app.graph.client import GraphClient
from app.reasoning.offline.reasoner import OfflineReasoner
from app.research import investigations
from app.research.sources.corpus import CorpusSource, load_corpus_files
from app.research.sources.documents import CorpusFile
from app.research.tasks import InvestigationTasks
from tests.support.agents import MakeAgent
from tests.support.research import services_for
from tests.support.runtime import runtime_of
from tools.eval_data.vitaminc import corpus_jsonl, find_vitaminc, read_rows

MOROCCO = 4  # rows 4 (REFUTES) and 5 (SUPPORTS) of the dev slice: one claim, a conflict


@pytest.fixture
def researcher(make_agent: MakeAgent, settings: Settings) -> str:
    """An agent whose corpus holds the first 60 evidence sentences of the dev slice."""
    agent_id = make_agent("REST researcher")
    path = find_vitaminc()
    assert path is not None, "the VitaminC dev slice is missing"
    content = corpus_jsonl(read_rows(path, 60))

    async def load() -> None:
        graph = GraphClient.from_settings(settings.neo4j)
        try:
            await load_corpus_files(
                graph,
                shared_embedder(settings.embeddings),
                agent_id,
                [CorpusFile(name="vitaminc.jsonl", format="jsonl", content=content)],
            )
        finally:
            await graph.close()

    asyncio.run(load())
    return agent_id


def _claim() -> str:
    path = find_vitaminc()
    assert path is not None
    return read_rows(path, MOROCCO + 1)[MOROCCO].claim


def _until_stopped(client: TestClient, agent_id: str, investigation_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        body: dict[str, Any] = client.get(
            f"/v1/agents/{agent_id}/investigations/{investigation_id}"
        ).json()
        if body["investigation"]["status"] != "running":
            return body
        time.sleep(0.2)
    raise AssertionError("the investigation did not stop in time")


def test_an_investigation_over_rest_finds_the_conflict_and_shows_it_in_the_context(
    client: TestClient, researcher: str
) -> None:
    claim = _claim()
    response = client.post(
        f"/v1/agents/{researcher}/investigations", json={"question": claim, "iteration_cap": 20}
    )
    assert response.status_code == 201, response.text
    investigation_id = response.json()["id"]

    detail = _until_stopped(client, researcher, investigation_id)

    assert detail["investigation"]["status"] == "finished"
    origins = {s["id"]: s["origin"] for s in detail["sources"]}
    assert {o.rsplit("#", 1)[1] for o in origins.values()} >= {"4", "5"}
    [conflict] = detail["conflicts"]
    assert {origins[conflict["first_source_id"]], origins[conflict["second_source_id"]]} == {
        o for o in origins.values() if o.endswith(("#4", "#5"))
    }
    assert conflict["status"] == "unresolvable" and "cannot resolve" in conflict["resolution"]
    assert detail["investigation"]["verdict"] == "undecided"
    assert [s["ordinal"] for s in detail["steps"]] == list(range(len(detail["steps"])))
    report = client.get(f"/v1/agents/{researcher}/investigations/{investigation_id}/report")
    assert report.status_code == 200
    assert report.headers["content-type"].startswith("text/markdown")
    assert "## Conflicts between sources" in report.text
    context = client.get(f"/v1/agents/{researcher}/context", params={"q": claim})
    assert context.status_code == 200, context.text
    [shown] = context.json()["sections"]["conflicts"]["items"]
    assert shown["id"] == conflict["id"] and shown["status"] == "unresolvable"
    assert {s["stance"] for s in shown["sources"]} == {"supports", "contradicts"}
    listed = client.get(f"/v1/agents/{researcher}/investigations", params={"limit": 1}).json()
    assert listed["count"] == 1 and listed["data"][0]["report"] is None


def test_pause_resume_and_cancel_follow_the_status(
    client: TestClient, researcher: str, settings: Settings
) -> None:
    base = f"/v1/agents/{researcher}/investigations"

    async def create() -> str:
        # Created running but not started (no task registry): a runner that stopped.
        graph = GraphClient.from_settings(settings.neo4j)
        try:
            embedder = shared_embedder(settings.embeddings)
            services = services_for(
                graph, settings, runtime_of(client).reasoner, embedder,
                [CorpusSource(graph, embedder)],
            )  # fmt: skip
            started = await investigations.start_investigation(services, None, researcher, _claim())
            return started.id
        finally:
            await graph.close()

    investigation_id = asyncio.run(create())
    assert client.post(f"{base}/{investigation_id}/pause").json()["status"] == "paused"
    again = client.post(f"{base}/{investigation_id}/pause")
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "investigation_state_conflict"
    assert client.get(f"{base}/{investigation_id}/report").status_code == 404
    resumed = client.post(f"{base}/{investigation_id}/resume")
    assert resumed.status_code == 200 and resumed.json()["status"] == "running"
    assert _until_stopped(client, researcher, investigation_id)["investigation"]["status"] == (
        "finished"
    )
    for action in ("pause", "resume", "cancel"):
        assert client.post(f"{base}/{investigation_id}/{action}").status_code == 409

    other = asyncio.run(create())
    cancelled = client.post(f"{base}/{other}/cancel")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert client.post(f"{base}/{other}/resume").status_code == 409
    assert client.post(f"{base}/unknown-id/pause").status_code == 404
    bad = client.post(base, json={"question": "x", "iteration_cap": 0})
    assert bad.status_code == 422 and "iteration_cap" in bad.text
    unknown = client.post(base, json={"question": "x", "sources": ["nowhere"]})
    assert unknown.status_code == 422 and "nowhere" in unknown.text
    assert client.get(base, params={"status": "cancelled"}).json()["count"] == 1


def test_the_socket_streams_the_steps_then_the_end(client: TestClient, researcher: str) -> None:
    response = client.post(f"/v1/agents/{researcher}/investigations", json={"question": _claim()})
    investigation_id = response.json()["id"]
    events = []
    with client.websocket_connect(
        f"/v1/agents/{researcher}/ws/investigations/{investigation_id}"
    ) as socket:
        while True:
            event = socket.receive_json()
            events.append(event)
            if event["type"] != "step":
                break
    assert events[-1]["type"] == "end" and events[-1]["data"]["status"] == "finished"
    steps = [e["data"] for e in events[:-1]]
    assert [s["ordinal"] for s in steps] == list(range(len(steps)))
    assert steps[0]["kind"] == "supervisor" and steps[-1]["kind"] == "synthesize"


def _left_running(settings: Settings, researcher: str) -> str:
    """An investigation left running, as a process that stopped leaves it: no process runs it."""

    async def create() -> str:
        graph = GraphClient.from_settings(settings.neo4j)
        try:
            embedder = shared_embedder(settings.embeddings)
            services = services_for(
                graph, settings, OfflineReasoner(embedder), embedder,
                [CorpusSource(graph, embedder)],
            )  # fmt: skip
            started = await investigations.start_investigation(services, None, researcher, _claim())
            return started.id
        finally:
            await graph.close()

    return asyncio.run(create())


def test_the_socket_stops_when_its_client_leaves(
    client: TestClient, researcher: str, settings: Settings
) -> None:
    """The socket read nothing from its client, so for an investigation that stays running
    (no process runs it) it polled the graph for ever after the client had gone."""

    investigation_id = _left_running(settings, researcher)
    url = f"/v1/agents/{researcher}/ws/investigations/{investigation_id}"

    def listen_then_leave() -> None:
        with client.websocket_connect(url):
            time.sleep(0.3)  # the server polls; nothing comes

    leaving = threading.Thread(target=listen_then_leave, daemon=True)
    leaving.start()
    leaving.join(timeout=30)
    # Leaving the socket waits for its handler: it ends once it sees the client has gone.
    assert not leaving.is_alive()


def test_an_api_started_with_resume_on_start_continues_what_a_dead_process_left(
    researcher: str, settings: Settings
) -> None:
    investigation_id = _left_running(settings, researcher)
    resuming = settings.model_copy(
        update={"research": settings.research.model_copy(update={"resume_on_start": True})}
    )
    with TestClient(create_app(resuming)) as client:
        detail = _until_stopped(client, researcher, investigation_id)
    assert detail["investigation"]["status"] == "finished"


class _RunningHere(InvestigationTasks):
    """The API's registry with a live runner for the investigations named (their runner is busy
    with a step): what ``running`` answers is all a resume may go by."""

    def __init__(self, alive: set[str]) -> None:
        super().__init__()
        self.alive = alive

    def running(self, investigation_id: str) -> bool:
        return investigation_id in self.alive or super().running(investigation_id)


def test_resuming_an_investigation_whose_runner_is_alive_is_a_409(
    researcher: str, settings: Settings
) -> None:
    """docs/research.md: only "running with no live runner" may be resumed; it answered 200."""
    investigation_id = _left_running(settings, researcher)
    app = create_app(settings)
    with TestClient(app) as own:
        app.state.research_tasks = _RunningHere({investigation_id})
        base = f"/v1/agents/{researcher}/investigations/{investigation_id}"
        refused = own.post(f"{base}/resume")
        assert refused.status_code == 409, refused.text
        error = refused.json()["error"]
        assert error["code"] == "investigation_state_conflict" and "running" in error["message"]
        assert own.get(base).json()["investigation"]["status"] == "running"
        # Its runner gone (a stopped process), the same resume runs it again.
        app.state.research_tasks.alive.clear()
        resumed = own.post(f"{base}/resume")
        assert resumed.status_code == 200 and resumed.json()["status"] == "running"
        assert _until_stopped(own, researcher, investigation_id)["investigation"]["status"] == (
            "finished"
        )
