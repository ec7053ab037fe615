"""The episode query alone, two ways on the same parameters, interleaved (issue 38).

Every LoCoMo development question (``--every``: every Nth) is asked of its agent once through
``build_context`` (episodes section, k = 10) to record the parameters the app sends to
``cypher/retrieval/search_episodes.cypher``; then the query is run with those parameters two
ways, alternating which goes first, for ``--rounds`` rounds after a warm-up round, straight on
the driver (no Python around it): **A**, the parameters as sent, and **B**, either the same
query with settings overridden (``--set FIELD=JSON``, any key of the query's ``$w`` map or a
top-level parameter) or another checkout's query file (``--cypher DIR``: its
``retrieval/search_episodes.cypher``, e.g. a worktree of the commit before). It prints both
p50 / p95 and B / A. The agents are those ``bench/retrieval_locomo.py`` imports (run it first).

    .venv/bin/python bench/episode_query_variants.py --set neighbour_sources=10000
    git worktree add /tmp/before HEAD~1 && \\
        .venv/bin/python bench/episode_query_variants.py --cypher /tmp/before/cypher
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from neo4j import AsyncGraphDatabase

sys.path.insert(0, str(Path(__file__).resolve().parent))

from several_answers_latency import questions_of

from app.config import get_settings
from app.embeddings.embedder import Embedder
from app.graph.client import GraphClient
from app.retrieval.context import build_context
from app.retrieval.models import ContextRequest

QUERY = "retrieval/search_episodes"
ROOT = Path(__file__).resolve().parents[1]


def query_text(cypher_dir: Path) -> str:
    """The episode query's Cypher without its comment lines."""
    text = (cypher_dir / f"{QUERY}.cypher").read_text(encoding="utf-8")
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))


async def captured_parameters(every: int) -> list[dict[str, Any]]:
    """The parameters the app sends to the episode query for every ``every``-th question."""
    settings = get_settings()
    embedder = Embedder(settings.embeddings.model_copy(update={"cache_path": None}))
    graph = GraphClient.from_settings(settings.neo4j)
    captured: list[dict[str, Any]] = []
    read = graph.read

    async def recording(name: str, **params: Any) -> Any:
        if name == QUERY:
            captured.append(params)
        return await read(name, **params)

    graph.read = recording  # type: ignore[method-assign]
    try:
        for agent_id, text in (await questions_of("all"))[::every]:
            request = ContextRequest(q=text, k=10, sections=["episodes"])
            await build_context(graph, embedder, settings.retrieval, agent_id, request)
    finally:
        await graph.close()
    return captured


def overridden(params: dict[str, Any], assignments: Sequence[str]) -> dict[str, Any]:
    """``params`` with each ``FIELD=JSON`` set in its ``$w`` map, or at the top when not there."""
    changed = copy.deepcopy(params)
    for assignment in assignments:
        field, _, value = assignment.partition("=")
        target = changed["w"] if field in changed["w"] else changed
        target[field] = json.loads(value)
    return changed


def _pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def main(args: argparse.Namespace) -> int:
    captured = await captured_parameters(args.every)
    a_query = query_text(ROOT / "cypher")
    b_query = query_text(Path(args.cypher)) if args.cypher else a_query
    runs = {
        "A": [(a_query, params) for params in captured],
        "B": [(b_query, overridden(params, args.set)) for params in captured],
    }
    settings = get_settings()
    driver = AsyncGraphDatabase.driver(
        settings.neo4j_uri,
        auth=(settings.neo4j_user, settings.neo4j_password.get_secret_value()),
        notifications_min_severity="OFF",
    )
    times: dict[str, list[float]] = {"A": [], "B": []}
    try:
        async with driver.session() as session:
            for round_ in range(args.rounds + 1):
                for i in range(len(captured)):
                    for name in ("A", "B") if (i + round_) % 2 else ("B", "A"):
                        query, params = runs[name][i]
                        begun = time.perf_counter()
                        await (await session.run(query, params)).consume()
                        if round_ > 0:  # round 0 warms the plans and the caches
                            times[name].append((time.perf_counter() - begun) * 1000)
    finally:
        await driver.close()
    b_is = f"--cypher {args.cypher}" if args.cypher else f"--set {' '.join(args.set)}"
    print(f"{QUERY}: {len(captured)} questions x {args.rounds} rounds; A as sent, B {b_is} (ms)")
    for name in ("A", "B"):
        p50, p95 = statistics.median(times[name]), _pct(times[name], 0.95)
        print(f"  {name} p50 {p50:6.1f} p95 {p95:6.1f}")
    p50 = statistics.median(times["B"]) / statistics.median(times["A"])
    print(f"  B / A: p50 {p50:.3f}x p95 {_pct(times['B'], 0.95) / _pct(times['A'], 0.95):.3f}x")
    return 0


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--every", type=int, default=3, help="every Nth question (1: all)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--set", action="append", default=[], metavar="FIELD=JSON")
    parser.add_argument("--cypher", help="another checkout's cypher/ folder for B")
    args = parser.parse_args(argv)
    if not args.set and not args.cypher:
        parser.error("B needs --set FIELD=JSON or --cypher DIR")
    return args


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(parse_args())))
