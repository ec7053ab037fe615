"""A question naming a person by an alias (docs/memory.md §2: "Bob" after Bob was merged into Bob
Jones) asks about that person's turns: the look-up of the question's speakers maps the alias to
the speaker key the turns have now ("bob jones"), so the episode search gathers and lifts them as
it does a speaker named by their own name; a person who has the name wins over the alias."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from app.config import Settings
from app.embeddings.embedder import shared_embedder
from app.graph.client import GraphClient
from app.memory.people import store as people
from app.memory.people.models import PersonCreate
from app.memory.people.removal import merge_people
from app.retrieval.asked_people import asked_speakers
from app.retrieval.models import ContextRequest
from tests.support.conversations import conversation_agent, episode_items

START = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
SESSIONS = {
    "s1": [
        ("a1", "Ann", "Bob, how was the trip to Lisbon?"),
        ("b1", "Bob", "The trip was wonderful, we walked the hills every day."),
        ("a2", "Ann", "Bob, you should show me the photos."),
        ("b2", "Bob", "The trip cost less than I feared, the trams are cheap."),
        ("j1", "Bob Jones", "I will send the invoices on Monday."),
    ],
}
QUESTION = "What did Bob say about the trip?"


@pytest.fixture
async def merged(graph: GraphClient, settings: Settings) -> str:
    """The conversation's agent, with Bob merged into Bob Jones (one human)."""
    embedder = shared_embedder(settings.embeddings)
    agent = await conversation_agent(
        graph, embedder, settings.retrieval, "Alias speaker", SESSIONS, START
    )
    jones = await people.find_person(graph, agent, "Bob Jones")
    bob = await people.find_person(graph, agent, "Bob")
    assert jones is not None and bob is not None and jones.id != bob.id
    await merge_people(graph, agent, jones.id, bob.id)
    return agent


async def test_a_question_naming_an_alias_asks_about_its_holder(
    graph: GraphClient, merged: str
) -> None:
    found = await asked_speakers(graph, merged, QUESTION)
    assert (found.names, found.keys) == (["bob"], ["bob jones"])


async def test_the_alias_holders_turns_are_gathered_and_lifted(
    graph: GraphClient, settings: Settings, merged: str
) -> None:
    retrieval = settings.retrieval.model_copy(
        update={"person_bonus": 0.0, "named_own_turn_weight": 0.3, "named_speaker_bonus": 0.5}
    )
    embedder = shared_embedder(settings.embeddings)
    request = ContextRequest(q=QUESTION, k=10, sections=["episodes"], budget_tokens=20_000)
    items: dict[str, dict[str, Any]] = {
        str(item["external_id"]): item
        for item in await episode_items(graph, embedder, retrieval, merged, request)
    }

    own = {key for key, item in items.items() if item["own_turn_score"] is not None}
    assert own == {"b1", "b2", "j1"}


async def test_a_person_who_has_the_name_wins_over_the_alias(
    graph: GraphClient, merged: str
) -> None:
    await people.create_person(graph, merged, PersonCreate(name="Bob"))
    found = await asked_speakers(graph, merged, QUESTION)
    assert (found.names, found.keys) == ([], [])
