"""What the step for questions asking for several things costs ``/context``, paired in one process.

The LoCoMo development questions that ask for several things (``app/text/several_answers.py``:
54 of them, 36 multi-hop) are asked of their conversation's agent (imported and linked by
``bench/retrieval_tuning.py``; run it once first) through ``build_context`` (episodes section,
k = 10), each with the step on (the defaults: the asked speaker looked up, the question
embedded again without the name, that person's own turns ranked by cosine) and off
(``query_without_speakers`` "never", both ``several_*`` weights 0), in alternating order, for
``--rounds`` rounds after one warm-up round. The memory benchmark's paired run
(``bench/memory_performance.py --compare-repo``) does not reach the step: its episodes are
written by Cypher without ``MENTIONS`` edges, so no speaker is ever found.

    .venv/bin/python bench/several_answers_latency.py [--rounds 3]

``--sections`` measures ``/context`` itself instead (issue 38): every LoCoMo development question
(``--questions all``, the default with it) asked of its agent three ways, in rotating order, each
query embedded afresh by the model (no vector cache): the whole context as the API assembles it
(``RetrievalServices.context``: the frame, every section), the episodes section alone, and the
floor (the query embedded, then one search of the episode vector index scoped to the agent,
``bench/cypher/latency/episode_vector_floor.cypher``). It prints each one's p50 / p95 and their
ratios to the floor, measured in the one run.

    .venv/bin/python bench/several_answers_latency.py --sections [--rounds 2]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from retrieval_locomo import DEFAULT_DATA, find_agent, load_conversations

from app.clock import SystemClock
from app.config import get_settings
from app.embeddings.embedder import Embedder, shared_embedder
from app.graph.catalog import QueryCatalog
from app.graph.client import GraphClient
from app.retrieval.context import build_context
from app.retrieval.models import ALL_SECTIONS, ContextRequest
from app.retrieval.services import RetrievalServices
from app.retrieval.settings import RetrievalSettings
from app.text.several_answers import asks_for_several

OFF: dict[str, Any] = {"query_without_speakers": "never", "several_speaker_bonus": 0.0,
                       "several_own_turn_weight": 0.0, "named_speaker_bonus": 0.0,
                       "named_own_turn_weight": 0.0}  # fmt: skip
# The defaults before the broad reading and the named questions' own turns (2026-11-26).
NARROW: dict[str, Any] = {"query_without_speakers": "several", "several_questions": "narrow",
                          "named_speaker_bonus": 0.0, "named_own_turn_weight": 0.0,
                          "own_turn_scan": 0}  # fmt: skip
# The defaults with the own turns ranked over every turn the person said (the exact walk).
EXACT: dict[str, Any] = {"own_turn_scan": 0}
# The defaults with 100 own turns as candidates for every question that names a speaker (before
# named_own_turn_pool and own_turn_candidates, 2026-11-26).
WIDE: dict[str, Any] = {"named_own_turn_pool": 100, "own_turn_candidates": 100}
BENCH_CYPHER = Path(__file__).resolve().parent / "cypher"
# What --sections times: the whole context, the episodes section alone, the floor.
SHAPES = ("all", "episodes", "floor")


def _pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def questions_of(questions: str) -> list[tuple[str, str]]:
    """(agent id, question) of the LoCoMo development questions (``questions``: "all", or the
    "several" ones), the agents imported by ``bench/retrieval_tuning.py`` or
    ``bench/retrieval_locomo.py``."""
    settings = get_settings()
    asked: list[tuple[str, str]] = []
    for conversation in load_conversations(DEFAULT_DATA):
        agent_id = await find_agent(settings, f"locomo-{conversation.sample_id}")
        if agent_id is None:
            raise SystemExit("run bench/retrieval_locomo.py first (it imports the agents)")
        asked += [
            (agent_id, q.text)
            for q in conversation.questions
            if questions == "all" or asks_for_several(q.text)
        ]
    return asked


async def sections_latency(args: argparse.Namespace) -> int:
    """``--sections``: the whole context, the episodes section alone and the floor, in rotating
    order, each query embedded by the model (no vector cache)."""
    settings = get_settings()
    embedder = Embedder(settings.embeddings.model_copy(update={"cache_path": None}))
    graph = GraphClient.from_settings(settings.neo4j)
    floor = GraphClient.from_settings(settings.neo4j, QueryCatalog(BENCH_CYPHER))
    services = RetrievalServices(graph, embedder, settings.retrieval, SystemClock())
    asked = (await questions_of(args.questions or "all"))[:: args.every]

    async def once(shape: str, agent_id: str, text: str) -> None:
        if shape == "floor":
            embedding = await embedder.embed_one(text)
            await floor.read(
                "latency/episode_vector_floor", agent_id=agent_id, embedding=embedding, k=10
            )
            return
        wanted = list(ALL_SECTIONS) if shape == "all" else ["episodes"]
        await services.context(agent_id, ContextRequest(q=text, k=10, sections=wanted))

    times: dict[str, list[float]] = {shape: [] for shape in SHAPES}
    try:
        for round_ in range(args.rounds + 1):
            for i, (agent_id, text) in enumerate(asked):
                turn = (i + round_) % len(SHAPES)
                for shape in SHAPES[turn:] + SHAPES[:turn]:
                    begun = time.perf_counter()
                    await once(shape, agent_id, text)
                    if round_ > 0:  # round 0 warms the model, the plans and the caches
                        times[shape].append((time.perf_counter() - begun) * 1000)
    finally:
        await graph.close()
        await floor.close()
    print(f"/context, {len(asked)} questions x {args.rounds} rounds, rotating order (ms)")
    for shape in SHAPES:
        p50, p95 = statistics.median(times[shape]), _pct(times[shape], 0.95)
        ratio = (
            f"   {p50 / statistics.median(times['floor']):.2f}x / "
            f"{p95 / _pct(times['floor'], 0.95):.2f}x the floor"
            if shape != "floor"
            else ""
        )
        print(f"  {shape:8s} p50 {p50:6.1f} p95 {p95:6.1f}{ratio}")
    return 0


async def main(args: argparse.Namespace) -> int:
    if args.sections:
        return await sections_latency(args)
    settings = get_settings()
    on: RetrievalSettings = settings.retrieval
    off = on.model_copy(
        update={"off": OFF, "narrow": NARROW, "exact": EXACT, "wide": WIDE}[args.base]
    )
    embedder = shared_embedder(settings.embeddings)
    graph = GraphClient.from_settings(settings.neo4j)
    asked = await questions_of(args.questions or "several")
    times: dict[str, list[float]] = {"on": [], "off": []}
    sections: dict[str, list[float]] = {"on": [], "off": []}
    try:
        for round_ in range(args.rounds + 1):
            for i, (agent_id, text) in enumerate(asked):
                order = [("on", on), ("off", off)]
                for name, retrieval in order if (i + round_) % 2 else order[::-1]:
                    request = ContextRequest(q=text, k=10, sections=["episodes"])
                    begun = time.perf_counter()
                    context = await build_context(graph, embedder, retrieval, agent_id, request)
                    if round_ > 0:  # round 0 warms the model, the plans and the caches
                        times[name].append((time.perf_counter() - begun) * 1000)
                        sections[name].append(context.timings_ms["episodes"])
    finally:
        await graph.close()
    print(
        f"{len(asked)} questions x {args.rounds} rounds, the defaults (on) / {args.base} "
        "alternating (ms)"
    )
    for name in ("on", "off"):
        print(
            f"  {name:3s} p50 {statistics.median(times[name]):6.1f} p95 "
            f"{_pct(times[name], 0.95):6.1f}   episodes section p50 "
            f"{statistics.median(sections[name]):6.1f}"
        )
    p50 = statistics.median(times["on"]) / statistics.median(times["off"])
    p95 = _pct(times["on"], 0.95) / _pct(times["off"], 0.95)
    print(f"  ratio on / off: p50 {p50:.2f}x p95 {p95:.2f}x")
    return 0


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--questions",
        choices=["several", "all"],
        help="the questions the narrow reading says ask for several things (the default), or "
        "every question (the default with --sections)",
    )
    parser.add_argument(
        "--every", type=int, default=1, help="--sections: every Nth question only (1: all)"
    )
    parser.add_argument(
        "--sections",
        action="store_true",
        help="time /context: every section, the episodes section alone and the floor",
    )
    parser.add_argument(
        "--base",
        choices=["off", "narrow", "exact", "wide"],
        default="off",
        help="what the defaults are paired with: the step off; the defaults before the "
        "broad reading and the named questions' own turns; the defaults with own_turn_scan 0; "
        "the defaults with named_own_turn_pool and own_turn_candidates 100",
    )
    return parser.parse_args(argv)


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(parse_args())))
