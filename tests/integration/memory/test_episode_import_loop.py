"""An import of long texts by many speakers leaves the event loop free (real Neo4j): the names,
topics and dates of every text are read once, in a worker thread, before the transaction
(app/memory/episodes.py ``read_texts``), and the names in time linear in the text
(app/memory/people/names.py). Before, each text was searched once per speaker of the batch on
the event loop, inside the transaction: 30 such episodes held ``/health`` 1.6 s, 150 held it
22 s."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.config import Settings
from app.embeddings.embedder import shared_embedder
from app.embeddings.settings import EmbeddingSettings
from app.graph.client import GraphClient
from app.memory.episodes import EpisodeBatch, EpisodeIn, import_episodes
from tests.support.event_loop import ticking

OFFLINE = EmbeddingSettings(enabled=False)
EPISODES = 60
FIELD_CHARS = 20_000  # the most a text, user message or response may hold
NAMES = """
    Maria Tomas Priya Omar Lena Ines Samir Joan Kofi Yuki Chen Rajan Noor Evald Luca
    | Lopez Park Haddad Raman Souza Okafor Tanaka Novak Berg Silva Costa Reyes Khan
"""
PROSE = """
    the report went to the meeting and we said that it was good about the garden plan
    yesterday last week in June since 2021 two days ago coffee invoice project budget
"""
FIRST, LAST = (part.split() for part in NAMES.split("|"))
WORDS = PROSE.split()


def _speaker(index: int) -> str:
    return f"{FIRST[index % len(FIRST)]} {LAST[index % len(LAST)]} {index}"


def _text(rng: random.Random) -> str:
    """Chat-like prose full of names (the batch's speakers' among them), sentences and dates."""
    words: list[str] = []
    size = 0
    while size < FIELD_CHARS:
        roll = rng.random()
        if roll < 0.06:
            word = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        elif roll < 0.08:
            word = _speaker(rng.randrange(EPISODES))
        elif roll < 0.12:
            word = rng.choice(WORDS) + "."
        else:
            word = rng.choice(WORDS)
        words.append(word)
        size += len(word) + 1
    return " ".join(words)[:FIELD_CHARS].strip()


def _batch() -> EpisodeBatch:
    rng = random.Random(7)
    start = datetime(2024, 5, 8, 9, tzinfo=UTC)
    return EpisodeBatch(
        episodes=[
            EpisodeIn(
                external_id=f"long-{index}",
                speaker=_speaker(index),
                text=_text(rng),
                user_message=_text(rng),
                response=_text(rng),
                occurred_at=start + timedelta(minutes=index),
                session="long-texts",
            )
            for index in range(EPISODES)
        ]
    )


async def test_a_batch_of_long_texts_by_many_speakers_leaves_the_event_loop_free(
    graph: GraphClient, test_graph: GraphClient, settings: Settings
) -> None:
    agent = (await create_agent(graph, AgentCreate(name="Long texts"))).id
    batch = _batch()

    async with ticking(0.01) as ticks:
        report = await import_episodes(
            graph, shared_embedder(OFFLINE), settings.retrieval, agent, batch
        )

    assert report.created == EPISODES
    # The old import held the loop for seconds at a time here (the whole name search of the
    # batch in one go); now no step of it holds the loop for long.
    assert ticks.longest_gap_s < 1.0, ticks
    # The work is still done: every episode names its speaker and others of the batch.
    mentioned = {
        row["external_id"]: set(row["keys"])
        for row in await test_graph.read("probe/episode_subjects", agent_id=agent)
    }
    assert f"name:{_speaker(0).lower()}" in mentioned["long-0"]
    assert all(len([k for k in keys if k.startswith("name:")]) > 10 for keys in mentioned.values())
