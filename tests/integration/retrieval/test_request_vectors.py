"""A question naming someone who is not a speaker of the agent (a place, a third person) is
embedded twice: without every name it says, and without the speakers' names only. The second
embedding starts as soon as the graph says who the speakers are, beside the first, not after it
(app/retrieval/request_vectors.py); real Neo4j, real embeddings."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from app.config import Settings
from app.embeddings.bundled import Pair
from app.embeddings.embedder import Embedder, Vector, shared_embedder
from app.graph.client import GraphClient
from app.retrieval.context import build_context
from app.retrieval.models import ContextRequest
from tests.support.conversations import conversation_agent

START = datetime(2024, 6, 10, 8, 0, tzinfo=UTC)
SESSIONS = {
    "trip": [
        ("i1", "Ines", "I booked the night train to Lisbon for the conference."),
        ("t1", "Theo", "Ines, will you present the harbour study there?"),
        ("i2", "Ines", "Yes, and I will visit the tile museum on the last day."),
    ],
}
QUESTION = "What did Ines plan in Lisbon?"


@pytest.fixture
def embedder(settings: Settings) -> Embedder:
    return shared_embedder(settings.embeddings)


@pytest.fixture
async def agent(
    graph: GraphClient, settings: Settings, embedder: Embedder, request: pytest.FixtureRequest
) -> str:
    """A new agent of the conversation (none of its speakers known to this process yet)."""
    return await conversation_agent(
        graph, embedder, settings.retrieval, request.node.name, SESSIONS, START
    )


async def test_the_episodes_vector_is_embedded_beside_the_first_one(
    graph: GraphClient,
    settings: Settings,
    embedder: Embedder,
    agent: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    embed_one = Embedder.embed_one
    texts: list[str] = []
    second_started = asyncio.Event()

    async def held(self: Embedder, text: str, kind: Pair = "query") -> Vector | None:
        # The first text waits until another starts: it never would if the second embedding
        # only started once the first was done.
        texts.append(text)
        if len(texts) == 1:
            await second_started.wait()
        else:
            second_started.set()
        return await embed_one(self, text, kind)

    monkeypatch.setattr(Embedder, "embed_one", held)

    context = await asyncio.wait_for(
        build_context(
            graph,
            embedder,
            settings.retrieval,
            agent,
            ContextRequest(q=QUESTION, sections=["episodes"]),
            now=START,
        ),
        timeout=60,
    )

    assert texts == ["What did plan in ?", "What did plan in Lisbon?"]
    assert context.sections["episodes"].items[0]["external_id"] in {"i1", "i2"}


async def test_after_its_first_question_every_speaker_of_the_agent_is_presumed_one(
    graph: GraphClient,
    settings: Settings,
    embedder: Embedder,
    agent: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The first question names only Ines; the agent's first look-up also reads who speaks in
    # its episodes (asked_people.asked_speakers), so a question about Theo, never asked about
    # before, is embedded once: without his name, which he speaks, and with Lisbon's, which
    # does not. (Knowing only Ines, it was embedded with "Theo", then again without it.)
    embed_one = Embedder.embed_one
    texts: list[str] = []

    async def counted(self: Embedder, text: str, kind: Pair = "query") -> Vector | None:
        texts.append(text)
        return await embed_one(self, text, kind)

    monkeypatch.setattr(Embedder, "embed_one", counted)

    async def ask(question: str) -> None:
        request = ContextRequest(q=question, sections=["episodes"])
        await build_context(graph, embedder, settings.retrieval, agent, request, now=START)

    await ask("What did Ines book?")
    texts.clear()
    await ask("What did Theo ask about Lisbon?")

    assert texts == ["What did ask about Lisbon?"]
