"""The context's largest queries (its searches and their lexical halves) take no list as a
parameter of its own (real Neo4j, real embeddings): by default Neo4j plans a query again for
each new length class of a top-level list or string parameter (~0.3-1 s for the episode query,
bench/README.md "eighth" and "ninth round"), not for a value inside a map, so their lists travel
in one map, ``$lists``. (The servers Credence starts ignore lengths altogether:
tests/integration/graph/test_plan_cache.py.)"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from app.config import Settings
from app.embeddings.embedder import shared_embedder
from app.graph.client import GraphClient
from app.retrieval.context import build_context
from app.retrieval.models import ContextRequest
from tests.support.conversations import conversation_agent
from tests.support.recorded_reads import record_reads

START = datetime(2024, 5, 1, 9, 0, tzinfo=UTC)
SESSIONS = {
    "s1": [
        ("k1", "Kate", "I took up pottery last month and made a bowl."),
        ("b1", "Bart", "Kate, how was your week? The pottery fair was crowded."),
        ("k2", "Kate", "The weather has been grey all week."),
    ],
}
PLANNED_ONCE = (
    "retrieval/search_episodes",
    "retrieval/search_beliefs",
    "retrieval/search_rules",
    "retrieval/lexical_episode_hits",
    "retrieval/lexical_short_text_candidates",
)


async def test_the_largest_context_queries_take_their_lists_in_one_map(
    graph: GraphClient, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    embedder = shared_embedder(settings.embeddings)
    agent = await conversation_agent(
        graph, embedder, settings.retrieval, "Planned once", SESSIONS, START
    )
    reads = record_reads(monkeypatch)
    for question in ("What did Kate make?", "pottery", "Did Kate and Bart talk about the fair?"):
        await build_context(
            graph, embedder, settings.retrieval, agent, ContextRequest(q=question), now=START
        )

    sent = {name: [params for read, params in reads if read == name] for name in PLANNED_ONCE}
    for name, calls in sent.items():
        assert calls, name
        for params in calls:
            assert not [key for key, value in params.items() if isinstance(value, list)], name
            assert isinstance(params["lists"], dict), name
    lexical = [params["lists"]["lexical"] for params in sent["retrieval/search_episodes"]]
    assert any(lexical), lexical
