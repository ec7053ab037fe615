"""The lexical half of the episode search is scored on the agent's own statistics (real Neo4j):
another agent's episodes, written and then deleted, change neither an agent's fulltext ranking
nor its fused one, although they move Neo4j's index-wide fulltext scores; an agent whose
episodes predate the statistics gets them built from its stored episodes."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from app.agents.models import AgentCreate
from app.agents.store import create_agent, delete_agent
from app.config import Settings
from app.embeddings.embedder import shared_embedder
from app.embeddings.settings import EmbeddingSettings
from app.graph.client import GraphClient
from app.memory.episodes import EpisodeBatch, EpisodeIn, import_episodes
from app.memory.lexical_stats import episode_document
from app.retrieval.context import build_context
from app.retrieval.lexical import episode_hits
from app.retrieval.models import ContextRequest, Mode
from app.text.background import background_rate
from app.text.lexical import bm25_of_words, counted_terms, tokens
from app.text.lucene import lucene_terms
from tests.support.lucene import lucene_order

# Words of this test run alone, so that what earlier runs left in the index (deleted episodes
# count in Lucene's statistics until their segments merge) cannot change Lucene's order here.
RUN = uuid.uuid4().hex[:8]
KAYAK, LANTERN = f"kayak{RUN}", f"lantern{RUN}"
QUERY = f"Who went out in the {KAYAK} with the {LANTERN}?"
START = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
# Within the agent the kayak word is rarer than the lantern word, so the kayak turn ranks first;
# the other agent makes the kayak word common in the index as a whole.
OWN = [
    ("k1", "Bart", f"I took the {KAYAK} down to the lake on Sunday."),
    ("l1", "Lisa", f"The {LANTERN} on the porch broke again."),
    ("l2", "Bart", f"We hung a paper {LANTERN} in the garden."),
    ("l3", "Lisa", f"Grandma's {LANTERN} is in the attic with the {LANTERN} oil."),
    *(
        (f"f{i}", "Lisa" if i % 2 else "Bart", f"Filler turn number {i} about the weather.")
        for i in range(12)
    ),
]
OTHERS = 400


def _batch(rows: list[tuple[str, str, str]], session: str) -> EpisodeBatch:
    return EpisodeBatch(
        episodes=[
            EpisodeIn(
                external_id=external_id,
                speaker=speaker,
                text=text,
                session=session,
                occurred_at=START + timedelta(minutes=i),
            )
            for i, (external_id, speaker, text) in enumerate(rows)
        ]
    )


async def _crowd(graph: GraphClient, settings: Settings, other: str, word: str) -> None:
    """``OTHERS`` turns of ``other`` that all say ``word``, in batches of 200 (no vectors)."""
    offline = shared_embedder(EmbeddingSettings(enabled=False))
    crowd = [(f"o{i}", "Kim", f"The {word} trip number {i} went well.") for i in range(OTHERS)]
    for start in range(0, OTHERS, 200):
        batch = _batch(crowd[start : start + 200], f"crowd-{start}")
        await import_episodes(graph, offline, settings.retrieval, other, batch)


async def _rankings(graph: GraphClient, settings: Settings, agent: str) -> dict[str, list[str]]:
    embedder = shared_embedder(settings.embeddings)
    found: dict[str, list[str]] = {}
    modes: tuple[Mode, ...] = ("fulltext", "fused")
    for mode in modes:
        request = ContextRequest(q=QUERY, k=10, sections=["episodes"], mode=mode)
        context = await build_context(graph, embedder, settings.retrieval, agent, request)
        section = context.sections["episodes"]
        assert section.error is None
        found[mode] = [str(item["external_id"]) for item in section.items]
    return found


async def _lucene(test_graph: GraphClient, agent: str) -> list[str]:
    return await lucene_order(
        test_graph, "probe/search_episode_fulltext", QUERY, agent, key="external_id"
    )


async def test_another_agents_episodes_do_not_move_an_agents_ranking(
    graph: GraphClient, test_graph: GraphClient, settings: Settings
) -> None:
    embedder = shared_embedder(settings.embeddings)
    agent = (await create_agent(graph, AgentCreate(name="Lexical"))).id
    await import_episodes(graph, embedder, settings.retrieval, agent, _batch(OWN, "own"))
    before = await _rankings(graph, settings, agent)
    lucene_before = await _lucene(test_graph, agent)

    other = (await create_agent(graph, AgentCreate(name="Kayaker"))).id
    await _crowd(graph, settings, other, KAYAK)
    during = await _rankings(graph, settings, agent)
    lucene_during = await _lucene(test_graph, agent)
    await delete_agent(graph, other, default_agent_name="")
    after = await _rankings(graph, settings, agent)

    # The index-wide scores did move: the other agent's kayaks push the own kayak turn down.
    assert lucene_during.index("k1") > lucene_before.index("k1"), (lucene_before, lucene_during)
    # The agent's own ranking did not, in either mode, while the other agent was there or after.
    # (Which filler turns follow k1 depends on Lucene's candidate pool, which a fresh database
    # fills differently from a used one; the claim is that it does not change, below.)
    assert before["fulltext"][0] == "k1"
    assert during == before
    assert after == before


async def test_statistics_missing_for_stored_episodes_are_built_from_them(
    graph: GraphClient, test_graph: GraphClient, settings: Settings
) -> None:
    embedder = shared_embedder(EmbeddingSettings(enabled=False))
    agent = (await create_agent(graph, AgentCreate(name="Older"))).id
    await import_episodes(graph, embedder, settings.retrieval, agent, _batch(OWN[:8], "a"))
    await import_episodes(graph, embedder, settings.retrieval, agent, _batch(OWN[8:], "b"))
    kept = (await test_graph.read("probe/lexical_statistics", agent_id=agent))[0]
    ranked = await _rankings(graph, settings, agent)

    assert kept["docs"] == len(OWN)
    assert dict(map(tuple, kept["pairs"]))[LANTERN] == 3  # l3 says it twice: one document
    assert (await test_graph.write("probe/drop_lexical_statistics", agent_id=agent))[0]["deleted"]

    assert await _rankings(graph, settings, agent) == ranked
    rebuilt = (await test_graph.read("probe/lexical_statistics", agent_id=agent))[0]
    assert rebuilt["docs"] == kept["docs"] and rebuilt["length"] == kept["length"]
    assert sorted(map(tuple, rebuilt["pairs"])) == sorted(map(tuple, kept["pairs"]))


# An agent with more matching episodes than the pool of 100 the index once chose them from: 60
# say the canoe word, 90 the torch word (words of their own: the test above leaves deleted kayaks
# in Lucene's statistics). Within the agent the canoe word is the rarer, so its turns rank first;
# the other agent's canoes make it the commoner in the index as a whole, so that Lucene's own
# best 100 of the 150 change from every canoe turn to mostly torch turns.
CANOE, TORCH = f"canoe{RUN}", f"torch{RUN}"
CROWDED = [
    *((f"k{i}", "Bart", f"The {CANOE} went out on trip {i}.") for i in range(60)),
    *((f"l{i}", "Lisa", f"The {TORCH} number {i} was lit.") for i in range(90)),
]
CROWDED_QUERY = f"{CANOE} {TORCH}"
# The pool Lucene's index-wide scores once chose from (lexical_pool before episodes stored terms).
OLD_POOL = 100


async def _lexical(graph: GraphClient, settings: Settings, agent: str) -> list[str]:
    hits = await episode_hits(
        graph,
        agent,
        CROWDED_QUERY,
        pool=settings.retrieval.episode_lexical_pool,
        keep=settings.retrieval.candidates,
    )
    return [hit["id"] for hit in hits]


async def _crowded_lucene(test_graph: GraphClient, agent: str) -> list[str]:
    return await lucene_order(
        test_graph,
        "probe/search_episode_fulltext",
        CROWDED_QUERY,
        agent,
        "external_id",
        len(CROWDED),
    )


async def test_an_agent_with_more_matches_than_the_old_pool_is_ranked_as_if_alone(
    graph: GraphClient, test_graph: GraphClient, settings: Settings
) -> None:
    offline = shared_embedder(EmbeddingSettings(enabled=False))
    agent = (await create_agent(graph, AgentCreate(name="Crowded"))).id
    await import_episodes(graph, offline, settings.retrieval, agent, _batch(CROWDED, "own"))
    ids = {row["id"]: row["external_id"] for row in await _episodes(test_graph, agent)}
    before = await _lexical(graph, settings, agent)
    lucene_before = await _crowded_lucene(test_graph, agent)

    other = (await create_agent(graph, AgentCreate(name="Kayaker"))).id
    await _crowd(graph, settings, other, CANOE)
    during = await _lexical(graph, settings, agent)
    lucene_during = await _crowded_lucene(test_graph, agent)
    await delete_agent(graph, other, default_agent_name="")
    after = await _lexical(graph, settings, agent)

    assert len(CROWDED) > OLD_POOL
    # The index's own best 100 moved from the canoe turns to the torch turns ...
    assert sum(key.startswith("k") for key in lucene_before[:OLD_POOL]) == 60
    assert sum(key.startswith("k") for key in lucene_during[:OLD_POOL]) < 60
    # ... and the agent's ranking did not: every canoe turn first, the same order throughout.
    assert {ids[hit][0] for hit in before[:60]} == {"k"}
    assert during == before
    assert after == before


async def test_episodes_stored_without_their_terms_get_them_on_the_next_search(
    graph: GraphClient, test_graph: GraphClient, settings: Settings
) -> None:
    offline = shared_embedder(EmbeddingSettings(enabled=False))
    agent = (await create_agent(graph, AgentCreate(name="Older terms"))).id
    await import_episodes(graph, offline, settings.retrieval, agent, _batch(OWN, "a"))
    stored = await _episodes(test_graph, agent)
    ranked = await _rankings(graph, settings, agent)

    for row in stored:
        words = tokens(episode_document(row))
        assert row["lexical_terms"] == counted_terms(words)
        assert row["token_count"] == len(words)
    dropped = await test_graph.write("probe/drop_episode_terms", agent_id=agent)
    assert dropped[0]["dropped"] == len(OWN)

    assert await _rankings(graph, settings, agent) == ranked
    assert await _episodes(test_graph, agent) == stored


async def _episodes(test_graph: GraphClient, agent: str) -> list[dict[str, Any]]:
    return await test_graph.read("probe/episode_lexical_terms", agent_id=agent)


@pytest.mark.parametrize("background_docs", [0, 1000])
async def test_the_database_scores_episodes_as_bm25_of_words_does(
    graph: GraphClient, test_graph: GraphClient, settings: Settings, background_docs: int
) -> None:
    """The episodes' BM25 runs in the database (cypher/retrieval/lexical_episode_hits.cypher):
    the same ranking and scores as ``bm25_of_words`` over the stored words and statistics."""
    offline = shared_embedder(EmbeddingSettings(enabled=False))
    agent = (await create_agent(graph, AgentCreate(name="Scored in the database"))).id
    await import_episodes(graph, offline, settings.retrieval, agent, _batch(OWN, "a"))
    stored = await _episodes(test_graph, agent)
    terms = lucene_terms(f"{QUERY} Was the filler weather about the garden?")
    assert terms is not None
    words = {row["id"]: list(row["lexical_terms"]) for row in stored}
    scores = bm25_of_words(
        terms.split(),
        {doc: found for doc, found in words.items() if set(found) & set(terms.split())},
        docs=len(stored),
        length=sum(row["token_count"] for row in stored),
        df={term: sum(term in found for found in words.values()) for term in terms.split()},
        background=background_rate if background_docs else None,
        background_docs=background_docs,
        lengths={row["id"]: row["token_count"] for row in stored},
    )
    best = sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:10]
    lo, hi = best[-1][1], best[0][1]

    hits = await episode_hits(
        graph, agent, terms, pool=1000, keep=10, background_docs=background_docs
    )

    assert len(best) == 10 and hi > lo
    assert [hit["id"] for hit in hits] == [doc for doc, _ in best]
    assert [hit["score"] for hit in hits] == pytest.approx(
        [(score - lo) / (hi - lo) for _, score in best], abs=1e-12
    )
