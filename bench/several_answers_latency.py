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
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from retrieval_locomo import DEFAULT_DATA, find_agent, load_conversations

from app.config import get_settings
from app.embeddings.embedder import shared_embedder
from app.graph.client import GraphClient
from app.retrieval.context import build_context
from app.retrieval.models import ContextRequest
from app.retrieval.settings import RetrievalSettings
from app.text.several_answers import asks_for_several

OFF = {"query_without_speakers": "never", "several_speaker_bonus": 0.0,
       "several_own_turn_weight": 0.0, "named_speaker_bonus": 0.0,
       "named_own_turn_weight": 0.0}  # fmt: skip
# The defaults before the broad reading and the named questions' own turns (2026-11-26).
NARROW = {"query_without_speakers": "several", "several_questions": "narrow",
          "named_speaker_bonus": 0.0, "named_own_turn_weight": 0.0,
          "own_turn_scan": 0}  # fmt: skip
# The defaults with the own turns ranked over every turn the person said (the exact walk).
EXACT = {"own_turn_scan": 0}
# The defaults with 100 own turns as candidates for every question that names a speaker (before
# named_own_turn_pool and own_turn_candidates, 2026-11-26).
WIDE = {"named_own_turn_pool": 100, "own_turn_candidates": 100}


def _pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def main(args: argparse.Namespace) -> int:
    settings = get_settings()
    on: RetrievalSettings = settings.retrieval
    off = on.model_copy(
        update={"off": OFF, "narrow": NARROW, "exact": EXACT, "wide": WIDE}[args.base]
    )
    embedder = shared_embedder(settings.embeddings)
    graph = GraphClient.from_settings(settings.neo4j)
    asked: list[tuple[str, str]] = []
    for conversation in load_conversations(DEFAULT_DATA):
        agent_id = await find_agent(settings, f"locomo-{conversation.sample_id}")
        if agent_id is None:
            raise SystemExit("run bench/retrieval_tuning.py first (it imports the agents)")
        asked += [
            (agent_id, q.text)
            for q in conversation.questions
            if args.questions == "all" or asks_for_several(q.text)
        ]
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
        default="several",
        help="the questions the narrow reading says ask for several things, or every question",
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
