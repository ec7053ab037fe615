"""The start-up warm-up of the context's query plans (app/retrieval/warm_up.py) on a real Neo4j
with real embeddings: it sends every query that contexts of other shapes send, each with the
same parameter types (what Neo4j's plan cache keys on, once the server ignores parameter sizes:
tools/neo4j/neo4j-local), and the API starts it."""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.api.app import create_app
from app.clock import clock_starting_at
from app.config import Settings
from app.embeddings.embedder import shared_embedder
from app.graph.client import GraphClient
from app.retrieval.models import ContextRequest
from app.retrieval.services import RetrievalServices
from app.retrieval.settings import RetrievalSettings
from app.retrieval.warm_up import warm_context_plans
from tests.support.conversations import conversation_agent
from tests.support.recorded_reads import Read, record_reads

START = datetime(2024, 3, 4, 18, 0, tzinfo=UTC)
SESSIONS = {
    "evening": [
        ("n1", "Nadia", "I repaired the old bicycle and rode it to the lake."),
        ("o1", "Omar", "Nadia, the lake path was flooded on Sunday, wasn't it?"),
        ("n2", "Nadia", "Only near the bridge; I carried the bicycle across."),
    ],
}
# Questions of the shapes users ask: a speaker named, two named, someone the agent does not
# know, no name at all, one word, "when", and a long multi-line query.
QUESTIONS = (
    "What did Nadia repair?",
    "Did Nadia and Omar both go to the lake?",
    "What did Zoe say about the bridge?",
    "what happened near the bridge",
    "bicycle",
    "When was the lake path flooded?",
    "Nadia: I might ride to the lake again.\nOmar: The path could still be wet.\n"
    "Nadia: Then I will take the road past the bridge and the old mill instead.",
)


def neo4j_type(value: Any) -> str:
    """The type Neo4j sees of a parameter value (what its plan cache keys on, with its size
    when the server uses parameter sizes)."""
    if value is None:
        return "null"
    if isinstance(value, list):
        return "list of " + ("|".join(sorted({neo4j_type(item) for item in value})) or "nothing")
    return {bool: "boolean", int: "integer", float: "float", str: "string", dict: "map"}.get(
        type(value), type(value).__name__
    )


def signatures(reads: list[Read]) -> set[tuple[str, tuple[tuple[str, str], ...]]]:
    """Each read's query and its parameters' types."""
    return {
        (name, tuple(sorted((key, neo4j_type(value)) for key, value in params.items())))
        for name, params in reads
    }


async def test_the_warm_up_sends_each_query_of_other_contexts_with_their_parameter_types(
    graph: GraphClient, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    embedder = shared_embedder(settings.embeddings)
    agent = await conversation_agent(
        graph, embedder, settings.retrieval, "Warm-up", SESSIONS, START
    )
    retrieval = RetrievalServices(graph, embedder, settings.retrieval, clock_starting_at(START))
    reads = record_reads(monkeypatch)

    done = await warm_context_plans(retrieval, agent)

    assert done.agent_id == agent
    warmed = {read for read in signatures(reads) if read[0] != "retrieval/warm_up_subject"}
    reads.clear()
    for question in QUESTIONS:
        await retrieval.context(agent, ContextRequest(q=question))
    sent = signatures(reads)
    names = {name for name, _ in sent}
    assert {"retrieval/search_episodes", "retrieval/question_speakers"} <= names
    assert sent - warmed == set()


async def test_the_warm_up_asks_about_the_agents_most_frequent_speakers(
    graph: GraphClient, settings: Settings
) -> None:
    embedder = shared_embedder(settings.embeddings)
    agent = await conversation_agent(
        graph, embedder, settings.retrieval, "Warm-up speakers", SESSIONS, START
    )

    rows = await graph.read("retrieval/warm_up_subject", agent_id=agent)

    assert rows == [{"agent_id": agent, "speakers": ["Nadia", "Omar"]}]


async def test_without_an_agent_named_the_warm_up_chooses_one_that_exists(
    graph: GraphClient, settings: Settings
) -> None:
    embedder = shared_embedder(settings.embeddings)
    await conversation_agent(graph, embedder, settings.retrieval, "Warm-up any", SESSIONS, START)

    [row] = await graph.read("retrieval/warm_up_subject", agent_id=None)

    assert row["agent_id"] is not None
    assert await graph.read("agents/store/get_agent", agent_id=row["agent_id"])
    assert len(row["speakers"]) <= 2


def test_the_api_warms_the_plans_up_when_it_starts(
    settings: Settings, client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    # An agent exists whatever ran before (the warm-up asks an existing agent).
    assert client.post("/v1/agents", json={"name": "Warm-up at start", "packs": []}).is_success
    warming = settings.model_copy(
        update={"retrieval": RetrievalSettings(warm_up_on_start=True), "migrate_on_start": False}
    )
    caplog.set_level(logging.INFO, logger="app.retrieval.warm_up")

    with TestClient(create_app(warming)):
        deadline = time.monotonic() + 120  # a bound on the wait, not a measurement
        while not any("plans warmed up" in r.getMessage() for r in caplog.records):
            assert time.monotonic() < deadline, "no warm-up logged"
            time.sleep(0.1)
