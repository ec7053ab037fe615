"""What finding the people a message names costs a chat turn of an agent with many people:
the index of their names built every turn (the code before, ``find_mentions``) against the
index kept between turns while the people stay the same (``app/memory/people/name_index.py``).

A fresh agent gets ``--people`` people (speakers of one short imported episode each, embeddings
off); then, ``--turns`` times, the turn's own read of its people (``read_people_and_history``,
timed for scale) is followed by both ways of finding the message's names on the pairs just
read, alternating which goes first. Printed: p50 / p95 of the read and of each way, and whether
both found the same mentions. The agent is deleted after.

    PYTHONPATH=. .venv/bin/python bench/turn_name_index.py [--people 2000] [--turns 200]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import string
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.agents.models import AgentCreate
from app.agents.store import create_agent, delete_agent
from app.config import get_settings
from app.embeddings.embedder import shared_embedder
from app.embeddings.settings import EmbeddingSettings
from app.graph.client import GraphClient
from app.loop.activation import read_people_and_history
from app.memory.episodes import MAX_BATCH, EpisodeBatch, EpisodeIn, import_episodes
from app.memory.people.models import Mention
from app.memory.people.name_index import known_names
from app.memory.people.names import find_mentions

FIRST = ["Maria", "Tomas", "Priya", "Omar", "Lena", "Ines", "Samir", "Joan", "Kofi", "Luca"]
MESSAGE = "Please ask {0} and {1} whether the invoice from Acme was paid before Friday"


def people_names(count: int) -> list[str]:
    """``count`` distinct names: a first name and a surname of syllables."""
    rng = random.Random(3)
    names: set[str] = set()
    while len(names) < count:
        surname = "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(4, 8)))
        names.add(f"{rng.choice(FIRST)} {surname.title()}")
    return sorted(names)


async def add_people(graph: GraphClient, agent: str, names: list[str]) -> None:
    """Each name the speaker of one short episode: micro-born as a person of the agent."""
    embedder = shared_embedder(EmbeddingSettings(enabled=False))
    settings = get_settings()
    start = datetime(2024, 5, 8, 9, tzinfo=UTC)
    for first in range(0, len(names), MAX_BATCH):
        batch = EpisodeBatch(
            episodes=[
                EpisodeIn(speaker=name, text="hello", occurred_at=start + timedelta(minutes=i))
                for i, name in enumerate(names[first : first + MAX_BATCH], start=first)
            ]
        )
        await import_episodes(graph, embedder, settings.retrieval, agent, batch)


WAYS = ("built every turn", "kept")


def find(way: str, agent: str, pairs: list[tuple[str, str]], message: str) -> list[Mention]:
    """The message's mentions, the index built now (the code before) or kept (now)."""
    if way == "kept":
        return known_names(agent, pairs).mentions(message)
    return find_mentions(message, pairs)


def quantiles(values: list[float]) -> str:
    p95 = statistics.quantiles(values, n=100)[94]
    return f"p50 {statistics.median(values):7.3f} ms  p95 {p95:7.3f} ms"


async def main(args: argparse.Namespace) -> int:
    settings = get_settings()
    graph = GraphClient.from_settings(settings.neo4j)
    agent = (await create_agent(graph, AgentCreate(name="bench-name-index"))).id
    times: dict[str, list[float]] = {"read": [], "built every turn": [], "kept": []}
    same = True
    try:
        names = people_names(args.people)
        await add_people(graph, agent, names)
        for turn in range(args.turns):
            message = MESSAGE.format(names[turn % len(names)], names[(7 * turn) % len(names)])
            started = time.perf_counter()
            people, _ = await read_people_and_history(graph, settings, agent, None)
            times["read"].append((time.perf_counter() - started) * 1000)
            pairs = people.names
            found = {}
            for way in WAYS if turn % 2 == 0 else WAYS[::-1]:
                started = time.perf_counter()
                found[way] = find(way, agent, pairs, message)
                times[way].append((time.perf_counter() - started) * 1000)
            same = same and found["built every turn"] == found["kept"]
        print(f"{len(pairs)} people, {args.turns} turns (the first builds the kept index)")
        for what, values in times.items():
            print(f"  {what:>16}: {quantiles(values)}")
        print(f"  same mentions both ways: {same}")
    finally:
        await delete_agent(graph, agent, default_agent_name="")
        await graph.close()
    return 0 if same else 1


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--people", type=int, default=2000)
    parser.add_argument("--turns", type=int, default=200)
    return parser.parse_args(argv)


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(parse_args())))
