"""A question that names speakers of the agent matches the episodes' lexical half without their
names (``lexical_without_speakers``; real Neo4j, real embeddings): every turn says its speaker, so
the name matched all of that person's turns; it still counts in the scores of what the other
words match. A name that never speaks, a long query and the fulltext mode keep their words."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from app.config import Settings
from app.embeddings.embedder import shared_embedder
from app.graph.client import GraphClient
from app.retrieval.models import ContextRequest, Mode
from tests.support.conversations import conversation_agent, episode_items

START = datetime(2024, 5, 1, 9, 0, tzinfo=UTC)
# Kate's and Bart's turns; "Tom" is only ever named, never a speaker.
SESSIONS = {
    "s1": [
        ("k1", "Kate", "I took up pottery last month and made a bowl."),
        ("b1", "Bart", "Kate, how was your week? Tom says hi."),
        ("k2", "Kate", "The weather has been grey all week."),
        ("b2", "Bart", "The pottery fair was crowded this year."),
    ],
    "s2": [
        ("k3", "Kate", "My cat sleeps on the sofa all day."),
        ("b3", "Bart", "Traffic was slow on the bridge this morning."),
    ],
}


@pytest.fixture
async def kate(graph: GraphClient, settings: Settings) -> str:
    embedder = shared_embedder(settings.embeddings)
    return await conversation_agent(
        graph, embedder, settings.retrieval, "Lexical without speakers", SESSIONS, START
    )


async def _lexical_hits(
    graph: GraphClient,
    settings: Settings,
    agent: str,
    query: str,
    mode: Mode = "fused",
    **update: Any,
) -> dict[str, int]:
    """The episodes the lexical half found for ``query``: external id → lexical rank."""
    retrieval = settings.retrieval.model_copy(update=update)
    request = ContextRequest(q=query, k=30, sections=["episodes"], budget_tokens=20_000, mode=mode)
    items = await episode_items(
        graph, shared_embedder(settings.embeddings), retrieval, agent, request
    )
    return {
        str(item["external_id"]): int(item["fulltext_rank"])
        for item in items
        if item["fulltext_rank"] is not None
    }


async def test_the_names_of_the_asked_speakers_are_left_out(
    graph: GraphClient, settings: Settings, kate: str
) -> None:
    question = "What pottery did Kate make?"
    without = await _lexical_hits(graph, settings, kate, question, lexical_without_speakers=True)
    kept = await _lexical_hits(graph, settings, kate, question, lexical_without_speakers=False)

    assert set(without) == {"k1", "b2"}  # "pottery" (and "make" nowhere): not "Kate"
    assert set(kept) == {"k1", "b2", "b1", "k2", "k3"}  # every turn saying or said by Kate
    # The name still counts in the scores of what the other words match: Kate's pottery turn
    # (longer than Bart's) comes first.
    assert without["k1"] < without["b2"]
    assert kept["k1"] < kept["b2"]


async def test_a_name_that_never_speaks_is_kept(
    graph: GraphClient, settings: Settings, kate: str
) -> None:
    hits = await _lexical_hits(
        graph, settings, kate, "Did Kate hear from Tom?", lexical_without_speakers=True
    )

    assert set(hits) == {"b1"}  # "Tom" (and "hear" nowhere); "Kate" left out


async def test_a_question_that_is_only_a_speakers_name_keeps_it(
    graph: GraphClient, settings: Settings, kate: str
) -> None:
    hits = await _lexical_hits(graph, settings, kate, "Kate?", lexical_without_speakers=True)

    assert set(hits) == {"k1", "b1", "k2", "k3"}


async def test_fulltext_mode_keeps_the_names(
    graph: GraphClient, settings: Settings, kate: str
) -> None:
    # Without a vector no own turns of Kate's take the name's place.
    hits = await _lexical_hits(
        graph,
        settings,
        kate,
        "What pottery did Kate make?",
        "fulltext",
        lexical_without_speakers=True,
    )

    assert set(hits) == {"k1", "b2", "b1", "k2", "k3"}


async def test_a_long_query_keeps_the_names(
    graph: GraphClient, settings: Settings, kate: str
) -> None:
    dialogue = "\n".join(
        [
            "Kate: I want to start a new hobby this winter, maybe something with my hands.",
            "Friend: What about painting, knitting or baking bread on the weekends?",
            "Kate: I did enjoy pottery, the clay and the wheel, back in the spring.",
        ]
    )
    hits = await _lexical_hits(graph, settings, kate, dialogue, lexical_without_speakers=True)

    assert {"k2", "k3"} <= set(hits)  # Kate's turns that share no other word with it
