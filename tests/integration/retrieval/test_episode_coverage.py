"""The graph used for coverage (real Neo4j): episodes are linked on write to the names and topics
they mention (their speaker included), and the coverage half of the episode search follows those
edges back, so a question about a person gathers the turns that person said in every session,
which no index over the turns' words finds."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from app.config import Settings
from app.embeddings.embedder import shared_embedder
from app.embeddings.settings import EmbeddingSettings
from app.graph.client import GraphClient
from app.memory.episode_subjects import link_stored_episodes
from app.retrieval.models import ContextRequest
from tests.support.conversations import conversation_agent, episode_items

START = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
# Kate's hobbies are in two sessions, in turns she said, none of which says "Kate" or "hobby"
# and none next to a turn that does (the neighbour step would lift it); other turns say "hobbies".
SESSIONS = {
    "s1": [
        ("b1", "Bart", "My hobbies are boring, I mostly watch television."),
        ("b2", "Lisa", "Nice, you should find new hobbies."),
        ("a1", "Bart", "Anyway, the weather is grey."),
        ("a2", "Lisa", "Yes, grey all week."),
        ("k1", "Kate", "I took up pottery last month and made a bowl."),
        ("a3", "Bart", "That sounds lovely."),
    ],
    "s2": [(f"f{i}", "Bart", f"Filler number {i} about the weather today.") for i in range(6)],
    "s3": [
        ("l1", "Lisa", "Hobbies are expensive these days."),
        ("l2", "Bart", "Do you have other hobbies?"),
        ("c1", "Lisa", "Not really, work keeps me busy."),
        ("c2", "Bart", "Same here, sadly."),
        ("k2", "Kate", "Rock climbing at the gym is my new thing."),
        ("c3", "Lisa", "That sounds fun."),
    ],
}
QUESTION = "What are Kate's hobbies?"


async def _agent(graph: GraphClient, settings: Settings, name: str) -> str:
    embedder = shared_embedder(EmbeddingSettings(enabled=False))
    return await conversation_agent(graph, embedder, settings.retrieval, name, SESSIONS, START)


async def _found(graph: GraphClient, settings: Settings, agent: str, weight: float) -> list[str]:
    retrieval = settings.retrieval.model_copy(
        update={"coverage_weight": weight, "person_bonus": 0.0}
    )
    embedder = shared_embedder(EmbeddingSettings(enabled=False))
    request = ContextRequest(q=QUESTION, k=10, sections=["episodes"], mode="fulltext")
    items = await episode_items(graph, embedder, retrieval, agent, request)
    return [str(item["external_id"]) for item in items]


async def test_episodes_are_linked_to_their_speaker_names_and_topics(
    graph: GraphClient, test_graph: GraphClient, settings: Settings
) -> None:
    agent = await _agent(graph, settings, "Subjects")
    rows = {
        row["external_id"]: row
        for row in await test_graph.read("probe/episode_subjects", agent_id=agent)
    }

    assert {"name:kate", "topic:bowl", "topic:pottery"} <= set(rows["k1"]["keys"])
    assert not {"topic:took", "topic:made", "name:i"} & set(rows["k1"]["keys"])
    assert "topic:climb" in rows["k2"]["keys"] and "name:kate" in rows["k2"]["keys"]
    assert "topic:hobby" in rows["b1"]["keys"] and "name:bart" in rows["b1"]["keys"]
    counts = dict(map(tuple, rows["b1"]["counts"]))
    assert counts["topic:hobby"] == 4  # b1, b2, l1, l2: one count per episode
    assert counts["name:bart"] == 11  # b1, a1, a3, l2, c2 and the six fillers
    # Linking the stored episodes again finds nothing left to link and counts nothing twice.
    await link_stored_episodes(graph, agent)
    again = await test_graph.read("probe/episode_subjects", agent_id=agent)
    assert {row["external_id"]: row["counts"] for row in again} == {
        key: row["counts"] for key, row in rows.items()
    }


async def test_coverage_gathers_a_persons_turns_across_sessions(
    graph: GraphClient, settings: Settings
) -> None:
    agent = await _agent(graph, settings, "Coverage")

    flat = await _found(graph, settings, agent, weight=0.0)
    covered = await _found(graph, settings, agent, weight=0.5)

    # The words of the question find the turns that say "hobbies", not Kate's.
    assert "k1" not in flat and "k2" not in flat
    # Her turns mention her (she said them) and are gathered from both sessions.
    assert {"k1", "k2"} <= set(covered), covered


async def test_the_person_bonus_lifts_the_turns_that_mention_the_person_asked_about(
    graph: GraphClient, settings: Settings
) -> None:
    agent = await _agent(graph, settings, "Person bonus")

    plain = await _scores(graph, settings, agent, person=0.0)
    lifted = await _scores(graph, settings, agent, person=0.5)

    # Kate's turns (she said them: MENTIONS name:kate) gain half their score; the turns of the
    # others do not mention her and keep theirs.
    assert lifted["k1"] == pytest.approx(1.5 * plain["k1"])
    assert lifted["k2"] == pytest.approx(1.5 * plain["k2"])
    others = set(plain) & set(lifted) - {"k1", "k2"}
    assert others and all(lifted[key] == pytest.approx(plain[key]) for key in others)


async def _scores(
    graph: GraphClient, settings: Settings, agent: str, person: float
) -> dict[str, float]:
    retrieval = settings.retrieval.model_copy(
        update={"coverage_weight": 0.5, "person_bonus": person}
    )
    embedder = shared_embedder(EmbeddingSettings(enabled=False))
    request = ContextRequest(q=QUESTION, k=20, sections=["episodes"], mode="fulltext")
    items = await episode_items(graph, embedder, retrieval, agent, request)
    return {str(item["external_id"]): float(item["score"]) for item in items}
