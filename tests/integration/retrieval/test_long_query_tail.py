"""A long query's last lines in its vector (``long_query_tail_lines``): a whole dialogue as the
query, whose last turn says what is being asked now."""

from __future__ import annotations

import dataclasses
import math
from datetime import UTC, datetime
from typing import Any

import pytest

from app.config import Settings
from app.embeddings.embedder import shared_embedder
from app.graph.client import GraphClient
from app.retrieval.models import ContextRequest, Mode
from app.retrieval.searches import SectionSearch
from tests.support.conversations import conversation_agent, episode_items

START = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
SESSIONS = {
    "s1": [
        ("rain", "Ana", "The rain flooded the garden and the storm knocked the fence down."),
        ("traffic", "Ana", "The motorway was jammed for hours after the storm."),
        ("pottery", "Ana", "I made my first clay bowl at the pottery class on the wheel."),
        ("filler", "Ana", "We bought bread and milk at the corner shop."),
    ]
}
# Three lines about the storm, then the turn that asks about something else.
DIALOGUE = "\n".join(
    [
        "Ana: What a storm last night, the rain flooded everything in the garden.",
        "Ben: The wind knocked our fence over and the streets were full of water.",
        "Ana: The storm even closed the motorway for hours, the traffic was terrible.",
        "Ben: Anyway, how is your clay work going at the pottery class?",
    ]
)


@pytest.fixture
async def ana(graph: GraphClient, settings: Settings) -> str:
    embedder = shared_embedder(settings.embeddings)
    return await conversation_agent(
        graph, embedder, settings.retrieval, "Long query tail", SESSIONS, START
    )


async def _ranked(
    graph: GraphClient, settings: Settings, agent: str, mode: Mode, **update: Any
) -> list[str]:
    retrieval = settings.retrieval.model_copy(update=update)
    embedder = shared_embedder(settings.embeddings)
    request = ContextRequest(q=DIALOGUE, k=10, sections=["episodes"], mode=mode)
    items = await episode_items(graph, embedder, retrieval, agent, request)
    return [str(item["external_id"]) for item in items]


@pytest.mark.parametrize("mode", ["fused", "vector"])
async def test_the_last_lines_of_a_dialogue_move_what_it_finds_towards_them(
    graph: GraphClient, settings: Settings, ana: str, mode: Mode
) -> None:
    whole = await _ranked(graph, settings, ana, mode, long_query_tail_lines=0)
    tail = await _ranked(
        graph, settings, ana, mode, long_query_tail_lines=1, long_query_tail_weight=1.0
    )

    # The dialogue as a whole is about the storm; its last line asks about the pottery class.
    assert whole[0] != "pottery", whole
    assert tail.index("pottery") < whole.index("pottery"), (whole, tail)
    assert tail[0] == "pottery", tail


async def test_the_tail_is_the_last_lines_embedded_beside_the_query_and_added_to_its_vector(
    graph: GraphClient, settings: Settings, ana: str
) -> None:
    embedder = shared_embedder(settings.embeddings)
    embedded: list[str] = []

    async def embed(text: str) -> list[float] | None:
        embedded.append(text)
        return await embedder.embed_one(text)

    def search(text: str, mode: Mode = "fused", /, **update: float) -> SectionSearch:
        return SectionSearch(
            graph=graph,
            settings=settings.retrieval.model_copy(update=update),
            agent_id=ana,
            text=text,
            k=10,
            mode=mode,
            now=START,
            embedding=None,
            terms="x " * 20 if "\n" in text else "x",
            embedding_model=embedder.model_id,
            embed=embed,
        )

    on = {"long_query_tail_lines": 2, "long_query_tail_weight": 0.5}
    # Off, a question, a fulltext search, no episode section, no more lines than the tail: none.
    assert search(DIALOGUE, long_query_tail_lines=0).tail_ahead({"episodes"}) is None
    assert search("How is the pottery class?", **on).tail_ahead({"episodes"}) is None
    assert search(DIALOGUE, "fulltext", **on).tail_ahead({"episodes"}) is None
    assert search(DIALOGUE, **on).tail_ahead({"beliefs"}) is None
    assert search("one\n\ntwo\n", **on).tail_ahead({"episodes"}) is None
    assert embedded == []

    long = search(DIALOGUE + "\n\n", **on)
    tail = long.tail_ahead({"episodes", "beliefs"})
    assert tail is not None
    near = await tail
    assert embedded == ["\n".join(DIALOGUE.splitlines()[-2:])]

    whole = await embedder.embed_one(DIALOGUE)
    assert whole is not None and near is not None
    added = await dataclasses.replace(long, tail=tail)._with_tail(whole)
    assert added is not None
    expected = [w + 0.5 * t for w, t in zip(whole, near, strict=True)]
    norm = math.sqrt(sum(x * x for x in expected))
    assert added == pytest.approx([x / norm for x in expected])
    assert math.isclose(math.sqrt(sum(x * x for x in added)), 1.0)
