"""Paging the belief and revision lists of a large agent (docs/performance.md §2).

``beliefs/store/list_beliefs`` sorts the matches, collects them as node references (their count
is the list's size) and projects only the page's rows; ``beliefs/revision/list_revisions``
counts the revisions in one subquery and sorts, skips and limits them in another (ORDER BY +
SKIP/LIMIT), joining and projecting only the page's rows. Before, they
projected every match into a list (a belief's map carries its statement, lexical terms and
reads its vector) and sliced the page out of it, so each page cost the whole set. This measures
the old queries (``bench/cypher/listing/*_collect_all.cypher``), the way each list does not
take (``*_alternative.cypher``: for beliefs the two subqueries, two filtered scans; for
revisions the collected references) and the app's queries on one agent, and checks that all
three give the same page and count:

    .venv/bin/python bench/belief_listing.py                    # 5,000 beliefs and revisions
    .venv/bin/python bench/belief_listing.py --beliefs 10000 --samples 50

Neo4j is the one the settings name (``CREDENCE_NEO4J_URI`` ...). The agent's id starts with
``bench-``; it is deleted at the end. The test suite never runs this.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from app.config import get_settings
from app.graph.catalog import QueryCatalog
from app.graph.client import GraphClient
from app.graph.vectors import vector_param
from app.text.lexical import scored_words

BENCH_CYPHER = Path(__file__).resolve().parent / "cypher"
BATCH = 500
WORDS = [
    "ledger",
    "invoice",
    "vendor",
    "payment",
    "approval",
    "audit",
    "reconciliation",
    "accrual",
    "journal",
    "entry",
    "purchase",
    "order",
    "receipt",
    "budget",
    "forecast",
    "variance",
    "control",
    "segregation",
    "duties",
    "treasury",
    "cash",
    "flow",
    "payroll",
    "tax",
    "filing",
    "compliance",
    "policy",
    "exception",
    "escalation",
    "review",
]
FILTERS: dict[str, Any] = {
    "category": None,
    "active": True,
    "min_tension": None,
    "text": None,
    "invalidated": None,
}


def belief_rows(count: int, rng: random.Random) -> list[dict[str, Any]]:
    rows = []
    for i in range(count):
        statement = " ".join(rng.choice(WORDS) for _ in range(18)) + f" (belief {i})."
        rows.append(
            {
                "id": str(uuid.uuid4()),
                "statement": statement,
                "category": ("contextual", "ethical", "relational", "aesthetic")[i % 4],
                "strength": rng.uniform(0.2, 0.9),
                "tension": rng.choice((0.0, 0.0, 0.1, 0.3, 0.6)),
                "importance": rng.uniform(0.2, 0.9),
                "embedding": vector_param([rng.uniform(-1, 1) for _ in range(384)]),
                "offset_s": i,
                **scored_words(statement),
            }
        )
    return rows


async def load(bench: GraphClient, agent_id: str, count: int, rng: random.Random) -> float:
    """Writes the agent, its beliefs and as many revisions; returns the seconds taken."""
    started = time.perf_counter()
    await bench.write("load/create_agents", agents=[{"id": agent_id, "name": "bench listing"}])
    beliefs = belief_rows(count, rng)
    for at in range(0, count, BATCH):
        await bench.write(
            "listing/create_beliefs", agent_id=agent_id, beliefs=beliefs[at : at + BATCH]
        )
    revisions = [
        {
            "id": str(uuid.uuid4()),
            "old_id": beliefs[i]["id"],
            "new_id": beliefs[(i + 1) % count]["id"],
            "offset_s": i,
        }
        for i in range(count)
    ]
    for at in range(0, count, BATCH):
        await bench.write(
            "listing/create_revisions", agent_id=agent_id, revisions=revisions[at : at + BATCH]
        )
    return time.perf_counter() - started


async def timed(
    variants: list[tuple[GraphClient, str]], params: dict[str, Any], samples: int
) -> list[tuple[float, float, Any]]:
    """For each variant (client, query): p50 and p95 in milliseconds over ``samples`` reads
    (after 3 warm-up reads; the variants take turns, so drift on a shared machine hits them
    alike), and its last rows."""
    results: list[Any] = [None] * len(variants)
    ms: list[list[float]] = [[] for _ in variants]
    for turn in range(samples + 3):
        for index, (client, query) in enumerate(variants):
            started = time.perf_counter()
            results[index] = await client.read(query, **params)
            if turn >= 3:
                ms[index].append((time.perf_counter() - started) * 1000.0)
    figures = []
    for index, taken in enumerate(ms):
        taken.sort()
        p95 = (
            statistics.quantiles(taken, n=100, method="inclusive")[94]
            if len(taken) > 1
            else taken[0]
        )
        figures.append((statistics.median(taken), p95, results[index]))
    return figures


def cases(count: int) -> list[tuple[str, str, dict[str, Any]]]:
    middle = count // 2
    beliefs = "beliefs/store/list_beliefs"
    revisions = "beliefs/revision/list_revisions"
    return [
        ("beliefs, newest, first page", beliefs, {**FILTERS, "sort": "newest", "skip": 0}),
        ("beliefs, newest, middle page", beliefs, {**FILTERS, "sort": "newest", "skip": middle}),
        ("beliefs, tension, first page", beliefs, {**FILTERS, "sort": "tension", "skip": 0}),
        (
            "beliefs, text 'ledger', first page",
            beliefs,
            {**FILTERS, "text": "ledger", "sort": "newest", "skip": 0},
        ),
        ("revisions, first page", revisions, {"skip": 0}),
        ("revisions, middle page", revisions, {"skip": middle}),
    ]


async def measure(
    graph: GraphClient, bench: GraphClient, agent_id: str, count: int, samples: int
) -> list[str]:
    """Before (every match projected, then sliced), the alternative not chosen and the app's
    query (module docstring)."""
    lines = []
    for label, query, params in cases(count):
        name = "listing/" + query.rsplit("/", 1)[1]
        variants = [
            (bench, f"{name}_collect_all"),
            (bench, f"{name}_alternative"),
            (graph, query),
        ]
        args = {"agent_id": agent_id, "limit": 50, **params}
        before, alternative, after = await timed(variants, args, samples)
        same = before[2] == alternative[2] == after[2]
        lines.append(
            f"{label:36} before {before[0]:6.1f} / {before[1]:6.1f} | alternative "
            f"{alternative[0]:6.1f} / {alternative[1]:6.1f} | now "
            f"{after[0]:6.1f} / {after[1]:6.1f} ms"
            f" (p50 / p95) | x{before[0] / after[0]:4.1f} | same: {same}"
        )
        if not same:
            raise SystemExit(f"{label}: the queries disagree")
    return lines


async def main(args: argparse.Namespace) -> None:
    settings = get_settings()
    graph = GraphClient.from_settings(settings.neo4j)
    bench = GraphClient.from_settings(settings.neo4j, QueryCatalog(BENCH_CYPHER))
    agent_id = f"bench-listing-{uuid.uuid4().hex[:8]}"
    try:
        info = await graph.server_info()
        print(f"Neo4j {info.version} {info.edition}; {os.cpu_count()} cores; agent {agent_id}")
        seconds = await load(bench, agent_id, args.beliefs, random.Random(args.seed))
        print(f"loaded {args.beliefs} beliefs and {args.beliefs} revisions in {seconds:.1f} s")
        for line in await measure(graph, bench, agent_id, args.beliefs, args.samples):
            print(line)
    finally:
        await bench.run_autocommit(
            bench.catalog.get("listing/delete_listing_agent").text,
            action=f"deleting bench agent {agent_id}",
            agent_id=agent_id,
        )
        await bench.close()
        await graph.close()


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--beliefs", type=int, default=5000, help="beliefs (and revisions)")
    parser.add_argument("--samples", type=int, default=20, help="timed calls per case")
    parser.add_argument("--seed", type=int, default=7)
    return parser.parse_args(argv)


if __name__ == "__main__":
    asyncio.run(main(parse_args()))
