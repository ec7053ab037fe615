"""What linking episodes to their subjects costs the import, paired in one process.

The 1,451 turns of LoCoMo's 3 development conversations (real chat text) are imported in batches
into two fresh agents, alternately: one through the real import (subjects extracted and linked,
``app/memory/episode_subjects.py``), one with the linking step replaced by a no-op (everything
else identical). Embeddings are off by default so that the ratio is that of the write path alone
(the model dominates a real import: ``--embeddings`` keeps it). The agents are deleted after.

    .venv/bin/python bench/episode_subjects_import.py [--batch 250] [--rounds 2] [--embeddings]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from retrieval_locomo import DEFAULT_DATA, load_conversations

import app.memory.episodes as episodes_module
from app.agents.models import AgentCreate
from app.agents.store import create_agent, delete_agent
from app.config import get_settings
from app.embeddings.embedder import shared_embedder
from app.embeddings.settings import EmbeddingSettings
from app.graph.client import GraphClient, Transaction
from app.memory.episode_subjects import link_subjects_in
from app.memory.episodes import EpisodeBatch, EpisodeIn, import_episodes


async def _no_links(tx: Transaction, agent_id: str, rows: Any, found: Any = None) -> None:
    return None


async def main(args: argparse.Namespace) -> int:
    settings = get_settings()
    embedder = shared_embedder(
        settings.embeddings if args.embeddings else EmbeddingSettings(enabled=False)
    )
    turns = [t for c in load_conversations(DEFAULT_DATA) for t in c.turns]
    batches = [turns[i : i + args.batch] for i in range(0, len(turns), args.batch)]
    linked_step = link_subjects_in
    graph = GraphClient.from_settings(settings.neo4j)
    seconds = {"with subjects": 0.0, "without": 0.0}
    created: list[str] = []
    try:
        for round_ in range(args.rounds):
            agents = {}
            for name in seconds:
                agent = (await create_agent(graph, AgentCreate(name=f"subjects-{name}"))).id
                agents[name] = agent
                created.append(agent)
            for i, batch in enumerate(batches):
                order = list(seconds) if (i + round_) % 2 == 0 else list(reversed(seconds))
                for name in order:
                    # monkeypatch: import_episodes looks the name up in its module, which does
                    # not re-export it
                    episodes_module.link_subjects_in = (  # type: ignore[attr-defined]
                        linked_step if name == "with subjects" else _no_links
                    )
                    items = EpisodeBatch(
                        episodes=[
                            EpisodeIn(
                                external_id=t.dia_id,
                                speaker=t.speaker,
                                text=t.text,
                                occurred_at=t.occurred_at,
                                session=t.session,
                            )
                            for t in batch
                        ]
                    )
                    started = time.perf_counter()
                    await import_episodes(graph, embedder, settings.retrieval, agents[name], items)
                    seconds[name] += time.perf_counter() - started
        episodes_module.link_subjects_in = linked_step  # type: ignore[attr-defined]  # as above
        total = len(turns) * args.rounds
        rate = {name: total / s for name, s in seconds.items()}
        for name, per_s in rate.items():
            print(f"{name:15s} {total} episodes in {seconds[name]:.1f} s: {per_s:.0f} episodes/s")
        print(f"ratio with / without: {rate['with subjects'] / rate['without']:.3f}")
    finally:
        episodes_module.link_subjects_in = linked_step  # type: ignore[attr-defined]  # as above
        for agent in created:
            await delete_agent(graph, agent, default_agent_name="")
        await graph.close()
    return 0


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=250)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--embeddings", action="store_true")
    return parser.parse_args(argv)


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(parse_args())))
