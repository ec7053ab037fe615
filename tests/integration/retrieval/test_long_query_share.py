"""A long query (a whole dialogue) searches the episodes with its own vector share (real Neo4j):
with ``long_query_vector_share`` 1.0 a query of at least ``long_query_terms`` terms is ranked by
the vector index alone, while a short question still uses both halves."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.config import Settings
from app.embeddings.embedder import shared_embedder
from app.graph.client import GraphClient
from app.memory.episodes import EpisodeBatch, EpisodeIn, import_episodes
from app.retrieval.context import build_context
from app.retrieval.models import ContextRequest

START = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
TURNS = [
    "We bought a kayak at the coast.",
    "The lantern on the porch broke again.",
    "Grandma sent a recipe for plum cake.",
    "The garden needs new tulip bulbs.",
]
SHORT = "Where did we buy the kayak?"
LONG = (
    "Yesterday I was telling my sister about the coast trip, the weather, the long drive, "
    "the little harbour shop, the kayak we bought, the lantern and the plum cake at Grandma's."
)


async def _fulltext_ranks(
    graph: GraphClient, settings: Settings, agent: str, query: str
) -> list[int | None]:
    retrieval = settings.retrieval.model_copy(
        update={"long_query_vector_share": 1.0, "long_query_terms": 12}
    )
    embedder = shared_embedder(settings.embeddings)
    request = ContextRequest(q=query, k=4, sections=["episodes"], mode="fused")
    context = await build_context(graph, embedder, retrieval, agent, request)
    section = context.sections["episodes"]
    assert section.error is None and section.items
    return [item["fulltext_rank"] for item in section.items]


async def test_a_long_query_uses_its_own_vector_share(
    graph: GraphClient, settings: Settings
) -> None:
    embedder = shared_embedder(settings.embeddings)
    agent = (await create_agent(graph, AgentCreate(name="Long queries"))).id
    batch = EpisodeBatch(
        episodes=[
            EpisodeIn(
                speaker="Bart", text=text, session="s", occurred_at=START + timedelta(minutes=i)
            )
            for i, text in enumerate(TURNS)
        ]
    )
    await import_episodes(graph, embedder, settings.retrieval, agent, batch)

    assert any(rank is not None for rank in await _fulltext_ranks(graph, settings, agent, SHORT))
    assert all(rank is None for rank in await _fulltext_ranks(graph, settings, agent, LONG))
