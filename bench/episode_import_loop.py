"""How long an episode import holds the event loop (the review's finding: a batch of long texts
by many speakers held ``/health`` 1.6 s at 30 episodes, 22 s at 150), and how much CPU reading
one request's texts may take (what ``MAX_BATCH_CHARS`` bounds).

For each size, a fresh agent imports one batch through ``import_episodes`` (embeddings off, so
that what is measured is the write path): every episode by a speaker of its own, its text, user
message and response each ``--chars`` characters of chat-like prose full of names (the batch's
speakers' among them), sentence ends and dates. A task on the same loop ticks every 10 ms
meanwhile; printed are the longest wait between two ticks (what a ``/health`` asked meanwhile
would have waited at most) and the import's duration. The agents are deleted after. A batch over
``MAX_BATCH_CHARS`` is refused (413), so the sizes stop there.

Then the CPU time of ``read_texts`` (what the import's worker thread does with the texts: names,
topics, dates, scored words), per 1,000 characters, for batches of ``--cap-chars`` characters
of several kinds of text: the prose above, and the costliest kinds found (random capitalised
words: each a new name and a topic looked up in the word list; random lowercase words; words of
accented letters). Printed: the thread's CPU per 1,000 characters of each (the least of
``--repeats``), and the worst case of a batch at the cap (the costliest kind's rate times
``MAX_BATCH_CHARS``) against the target.

    PYTHONPATH=. .venv/bin/python bench/episode_import_loop.py [--sizes 5 10 16] [--chars 20000]

Run from a checkout with ``PYTHONPATH=.`` (else the installed package is measured); the old code
is measured by running this file from a checkout of the old commit.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import string
import sys
import time
from collections.abc import AsyncIterator, Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.agents.models import AgentCreate
from app.agents.store import create_agent, delete_agent
from app.config import get_settings
from app.embeddings.embedder import shared_embedder
from app.embeddings.settings import EmbeddingSettings
from app.graph.client import GraphClient
from app.memory.episodes import (
    MAX_BATCH_CHARS,
    EpisodeBatch,
    EpisodeIn,
    import_episodes,
    read_texts,
)

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
# docs/performance.md §2: reading one import request's texts takes at most this much CPU.
TEXT_CPU_TARGET_S = 2.0
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


def words_of(word: Callable[[random.Random], str]) -> Callable[[random.Random, int, int], str]:
    """Text of ``chars`` characters of words drawn by ``word``."""

    def text(rng: random.Random, chars: int, speakers: int) -> str:
        words: list[str] = []
        size = 0
        while size < chars:
            words.append(word(rng))
            size += len(words[-1]) + 1
        return " ".join(words)[:chars].strip()

    return text


def _letters(rng: random.Random, alphabet: str, shortest: int, longest: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(shortest, longest)))


KINDS: dict[str, Callable[[random.Random, int, int], str]] = {
    "chat-like prose": prose,
    "capitalised words": words_of(lambda rng: _letters(rng, string.ascii_lowercase, 3, 5).title()),
    "lowercase words": words_of(lambda rng: _letters(rng, string.ascii_lowercase, 3, 9)),
    "accented words": words_of(lambda rng: _letters(rng, "àéîõüçñøåæß", 3, 7).title()),
}


def text_rows(
    kind: Callable[[random.Random, int, int], str], chars: int, seed: int
) -> list[dict[str, Any]]:
    """The rows ``read_texts`` reads for a batch of ``chars`` characters of ``kind``: episodes of
    three fields of 20,000 characters by speakers of their own."""
    rng = random.Random(seed)
    episodes = max(1, chars // 60_000)
    start = datetime(2024, 5, 8, 9, tzinfo=UTC)
    return [
        {
            "id": f"episode-{index}",
            "speaker": speaker(index),
            "text": kind(rng, 20_000, episodes),
            "user_message": kind(rng, 20_000, episodes),
            "response": kind(rng, 20_000, episodes),
            "occurred_at": start + timedelta(minutes=index),
        }
        for index in range(episodes)
    ]


def text_cpu(chars: int, repeats: int) -> None:
    """Prints the CPU ``read_texts`` takes per 1,000 characters of each kind, and the worst case
    of a batch at ``MAX_BATCH_CHARS``."""
    worst = 0.0
    for name, kind in KINDS.items():
        rates = []  # seconds of CPU per 1,000 characters
        fields = ("speaker", "text", "user_message", "response")
        for repeat in range(repeats):
            # Words not read before each time (wordfreq keeps the frequencies it looked up).
            rows = text_rows(kind, chars, seed=repeat)
            size = sum(len(row[field]) for row in rows for field in fields)
            started = time.thread_time()
            read_texts(rows)
            rates.append((time.thread_time() - started) / size * 1000)
        per_thousand = min(rates)
        worst = max(worst, per_thousand)
        print(f"{name:>18}: {per_thousand * 1000:.2f} ms of CPU per 1,000 characters")
    at_cap = worst * MAX_BATCH_CHARS / 1000
    verdict = "met" if at_cap <= TEXT_CPU_TARGET_S else "missed"
    print(
        f"worst case at the cap ({MAX_BATCH_CHARS} characters): {at_cap:.2f} s of CPU; "
        f"target {TEXT_CPU_TARGET_S} s: {verdict}"
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
        text_cpu(args.cap_chars, args.repeats)
    finally:
        for agent in created:
            await delete_agent(graph, agent, default_agent_name="")
        await graph.close()
    return 0


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[5, 10, 16])
    parser.add_argument("--chars", type=int, default=20_000)
    parser.add_argument("--cap-chars", type=int, default=MAX_BATCH_CHARS)
    parser.add_argument("--repeats", type=int, default=3)
    return parser.parse_args(argv)


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(parse_args())))
