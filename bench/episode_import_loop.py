"""How long an episode import holds the event loop (the review's finding: a batch of long texts
by many speakers held ``/health`` 1.6 s at 30 episodes, 22 s at 150).

For each size, a fresh agent imports one batch through ``import_episodes`` (embeddings off, so
that what is measured is the write path): every episode by a speaker of its own, its text, user
message and response each ``--chars`` characters of chat-like prose full of names (the batch's
speakers' among them), sentence ends and dates. A task on the same loop ticks every 10 ms
meanwhile; printed are the longest wait between two ticks (what a ``/health`` asked meanwhile
would have waited at most) and the import's duration. The agents are deleted after.

    PYTHONPATH=. .venv/bin/python bench/episode_import_loop.py [--sizes 30 60 150] [--chars 20000]

Run from a checkout with ``PYTHONPATH=.`` (else the installed package is measured); the old code
is measured by running this file from a checkout of the old commit.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sys
import time
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.agents.models import AgentCreate
from app.agents.store import create_agent, delete_agent
from app.config import get_settings
from app.embeddings.embedder import shared_embedder
from app.embeddings.settings import EmbeddingSettings
from app.graph.client import GraphClient
from app.memory.episodes import EpisodeBatch, EpisodeIn, import_episodes

NAMES = """
    Maria Tomas Priya Omar Lena Ines Samir Joan Kofi Yuki Chen Rajan Noor Evald Luca
    | Lopez Park Haddad Raman Souza Okafor Tanaka Novak Berg Silva Costa Reyes Khan
"""
PROSE = """
    the report went to the meeting and we said that it was good about the garden plan
    yesterday last week in June since 2021 two days ago coffee invoice project budget
"""
FIRST, LAST = (part.split() for part in NAMES.split("|"))
# docs/performance.md §2: no import holds the event loop longer than this at a time.
LOOP_HELD_TARGET_S = 0.5
WORDS = PROSE.split()


def speaker(index: int) -> str:
    return f"{FIRST[index % len(FIRST)]} {LAST[index % len(LAST)]} {index}"


def prose(rng: random.Random, chars: int, speakers: int) -> str:
    words: list[str] = []
    size = 0
    while size < chars:
        roll = rng.random()
        if roll < 0.06:
            word = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        elif roll < 0.08:
            word = speaker(rng.randrange(speakers))
        elif roll < 0.12:
            word = rng.choice(WORDS) + "."
        else:
            word = rng.choice(WORDS)
        words.append(word)
        size += len(word) + 1
    return " ".join(words)[:chars].strip()


def batch(size: int, chars: int) -> EpisodeBatch:
    rng = random.Random(7)
    start = datetime(2024, 5, 8, 9, tzinfo=UTC)
    return EpisodeBatch(
        episodes=[
            EpisodeIn(
                external_id=f"long-{index}",
                speaker=speaker(index),
                text=prose(rng, chars, size),
                user_message=prose(rng, chars, size),
                response=prose(rng, chars, size),
                occurred_at=start + timedelta(minutes=index),
                session="long-texts",
            )
            for index in range(size)
        ]
    )


@contextlib.asynccontextmanager
async def longest_gap() -> AsyncIterator[list[float]]:
    """The longest wait between two ticks of a 10 ms ticker, as its one element."""
    gap = [0.0]
    last = time.monotonic()

    def measure() -> None:
        nonlocal last
        now = time.monotonic()
        gap[0] = max(gap[0], now - last)
        last = now

    async def tick() -> None:
        while True:
            measure()
            await asyncio.sleep(0.01)

    task = asyncio.create_task(tick())
    try:
        yield gap
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        measure()


async def main(args: argparse.Namespace) -> int:
    settings = get_settings()
    embedder = shared_embedder(EmbeddingSettings(enabled=False))
    graph = GraphClient.from_settings(settings.neo4j)
    created: list[str] = []
    longest = 0.0
    try:
        for size in args.sizes:
            items = batch(size, args.chars)
            agent = (await create_agent(graph, AgentCreate(name=f"bench-loop-{size}"))).id
            created.append(agent)
            started = time.perf_counter()
            async with longest_gap() as gap:
                await import_episodes(graph, embedder, settings.retrieval, agent, items)
            seconds = time.perf_counter() - started
            longest = max(longest, gap[0])
            print(
                f"{size:5d} episodes x 3 x {args.chars} chars: loop held at most "
                f"{gap[0]:.3f} s, import {seconds:.2f} s"
            )
        verdict = "met" if longest <= LOOP_HELD_TARGET_S else "missed"
        print(f"target: the loop held at most {LOOP_HELD_TARGET_S} s at a time: {verdict}")
    finally:
        for agent in created:
            await delete_agent(graph, agent, default_agent_name="")
        await graph.close()
    return 0


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[30, 60, 150])
    parser.add_argument("--chars", type=int, default=20_000)
    return parser.parse_args(argv)


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(parse_args())))
