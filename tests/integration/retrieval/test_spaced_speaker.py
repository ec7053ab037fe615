"""A speaker written with runs of white space ("Kate  Moss") is the speaker a question names with
single spaces: the question's look-up and the episode search compare the episodes' speaker keys
(white space collapsed, migration V0034), not their speakers as written."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from app.config import Settings
from app.embeddings.embedder import shared_embedder
from app.graph.client import GraphClient
from app.retrieval.asked_people import asked_speakers
from app.retrieval.models import ContextRequest
from tests.support.conversations import conversation_agent, episode_items

START = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
SESSIONS = {
    "s1": [
        ("b1", "Bart", "Kate Moss, how was your week?"),
        ("k1", "Kate  Moss", "I took up pottery last month and made a bowl."),
        ("b2", "Bart", "Kate Moss, you should come over sometime."),
        ("k2", "Kate  Moss", "Rock climbing at the gym is my new thing."),
    ],
}
QUESTION = "What hobbies does Kate Moss have?"


@pytest.fixture
async def kate(graph: GraphClient, settings: Settings) -> str:
    embedder = shared_embedder(settings.embeddings)
    return await conversation_agent(
        graph, embedder, settings.retrieval, "Spaced speaker", SESSIONS, START
    )


async def test_the_question_names_the_spaced_speaker(graph: GraphClient, kate: str) -> None:
    assert (await asked_speakers(graph, kate, QUESTION)).names == ["kate moss"]


async def test_her_own_turns_are_gathered_and_lifted(
    graph: GraphClient, settings: Settings, kate: str
) -> None:
    retrieval = settings.retrieval.model_copy(
        update={"person_bonus": 0.0, "several_own_turn_weight": 0.3, "several_speaker_bonus": 0.5}
    )
    embedder = shared_embedder(settings.embeddings)
    request = ContextRequest(q=QUESTION, k=10, sections=["episodes"], budget_tokens=20_000)
    items: dict[str, dict[str, Any]] = {
        str(item["external_id"]): item
        for item in await episode_items(graph, embedder, retrieval, kate, request)
    }

    own = {key for key, item in items.items() if item["own_turn_score"] is not None}
    assert own == {"k1", "k2"}
