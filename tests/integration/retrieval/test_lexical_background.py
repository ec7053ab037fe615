"""General English in the lexical half (real Neo4j): a small agent's own document frequencies
make a chatty word as rare as a topical one, so a turn that repeats the chatter outranks the one
about the topic; with general English counted in the idf (``lexical_background_docs``), or the
query's common words left out (``lexical_common_frequency``), the topical turn comes first."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.config import Settings
from app.embeddings.embedder import shared_embedder
from app.embeddings.settings import EmbeddingSettings
from app.graph.client import GraphClient
from app.memory.episodes import EpisodeBatch, EpisodeIn, import_episodes
from app.retrieval.context import build_context
from app.retrieval.models import ContextRequest

START = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
# "really" appears in one turn of the agent (twice), as "kayak" does: to the agent alone the two
# words are equally rare.
TURNS = [
    ("chat", "Really, the drive was really long."),
    *((f"f{i}", f"Filler turn number {i} about the weather.") for i in range(8)),
    ("kayak", "We bought a kayak at the coast."),
]
QUERY = "I really want to hear about the kayak"


async def _top(graph: GraphClient, settings: Settings, agent: str, **setting: float) -> str:
    retrieval = settings.retrieval.model_copy(update=setting)
    embedder = shared_embedder(EmbeddingSettings(enabled=False))
    request = ContextRequest(q=QUERY, k=5, sections=["episodes"], mode="fulltext")
    context = await build_context(graph, embedder, retrieval, agent, request)
    section = context.sections["episodes"]
    assert section.error is None
    return str(section.items[0]["external_id"])


async def test_background_vocabulary_lifts_the_topical_turn_over_chatter(
    graph: GraphClient, settings: Settings
) -> None:
    embedder = shared_embedder(EmbeddingSettings(enabled=False))
    agent = (await create_agent(graph, AgentCreate(name="Background"))).id
    batch = EpisodeBatch(
        episodes=[
            EpisodeIn(
                external_id=external_id,
                speaker="Bart",
                text=text,
                session="s",
                occurred_at=START + timedelta(minutes=i),
            )
            for i, (external_id, text) in enumerate(TURNS)
        ]
    )
    await import_episodes(graph, embedder, settings.retrieval, agent, batch)

    assert await _top(graph, settings, agent) == "chat"
    assert await _top(graph, settings, agent, lexical_background_docs=1000) == "kayak"
    assert await _top(graph, settings, agent, lexical_common_frequency=3e-4) == "kayak"
