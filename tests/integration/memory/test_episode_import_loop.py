"""An import of long texts by many speakers leaves the event loop free (real Neo4j): the names,
topics and dates of every text are read once, in a worker thread, before the transaction
(app/memory/episodes.py ``read_texts``), and the names in time linear in the text
(app/memory/people/names.py). Before, each text was searched once per speaker of the batch on
the event loop, inside the transaction: 30 such episodes held ``/health`` 1.6 s, 150 held it
22 s (bench/episode_import_loop.py measures it; no test here times anything).

The test holds the import's name finding on an event it controls and asks the graph something
meanwhile: only a loop left free answers. The name finding run on the loop (the old code) is
seen on the loop's own thread, and the import ends before any request could be made."""

from __future__ import annotations

import asyncio
import random
import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.config import Settings
from app.embeddings.embedder import shared_embedder
from app.embeddings.settings import EmbeddingSettings
from app.graph.client import GraphClient
from app.memory.episodes import EpisodeBatch, EpisodeIn, import_episodes, list_episodes
from app.memory.people.models import Mention
from app.memory.people.names import KnownNames

OFFLINE = EmbeddingSettings(enabled=False)
EPISODES = 15
FIELD_CHARS = 20_000  # the most a text, user message or response may hold
# Safety only: how long the held name finding waits for the test before it goes on anyway (the
# test then fails on what it saw, never on the time).
HOLD_AT_MOST_S = 120.0
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


class HeldFinder:
    """Wraps the people finder: records the threads it runs on, and holds its first run off the
    event loop until :meth:`release` (telling the loop through ``started``)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.loop_thread = threading.get_ident()
        self.threads: set[int] = set()
        self.started: asyncio.Future[None] = loop.create_future()
        self.released = threading.Event()
        self.held_until_released = False
        self._mentions = KnownNames.mentions

    def mentions(self, finder: KnownNames, text: str) -> list[Mention]:
        thread = threading.get_ident()
        self.threads.add(thread)
        if thread != self.loop_thread and not self.started.done():
            self.loop.call_soon_threadsafe(self._start)
            self.held_until_released = self.released.wait(HOLD_AT_MOST_S)
        return self._mentions(finder, text)

    def _start(self) -> None:
        if not self.started.done():
            self.started.set_result(None)

    def release(self) -> None:
        self.released.set()


async def test_a_batch_of_long_texts_by_many_speakers_leaves_the_event_loop_free(
    graph: GraphClient, test_graph: GraphClient, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent = (await create_agent(graph, AgentCreate(name="Long texts"))).id
    batch = _batch()
    held = HeldFinder(asyncio.get_running_loop())

    def mentions(finder: KnownNames, text: str) -> list[Mention]:
        return held.mentions(finder, text)

    monkeypatch.setattr(KnownNames, "mentions", mentions)

    importing = asyncio.create_task(
        import_episodes(graph, shared_embedder(OFFLINE), settings.retrieval, agent, batch)
    )
    try:
        waiting: list[asyncio.Future[Any]] = [importing, held.started]
        await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        # The old import found the names on the loop: it ended before the test could ask.
        assert held.started.done() and not importing.done(), "names found on the event loop"
        # Asked while the import's name finding is held: a free loop answers it.
        assert await list_episodes(graph, agent) == []
    finally:
        held.release()
    report = await importing

    assert held.held_until_released
    assert held.loop_thread not in held.threads
    assert report.created == EPISODES
    # The work is still done: every episode names its speaker and others of the batch.
    mentioned = {
        row["external_id"]: set(row["keys"])
        for row in await test_graph.read("probe/episode_subjects", agent_id=agent)
    }
    assert f"name:{_speaker(0).lower()}" in mentioned["long-0"]
    assert all(len([k for k in keys if k.startswith("name:")]) > 10 for keys in mentioned.values())
