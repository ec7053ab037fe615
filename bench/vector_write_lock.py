"""What the agent's lock costs the vector writes in bulk: the belief vector write
(``embeddings/store/set_belief_embeddings``) and the reindex's replacements
(``embeddings/reindex/set_next_vectors``) as they are now (the ``agent lock`` block first, only the
agent's nodes) against the queries of ``--old-ref`` (no lock, matched by id alone).

A fresh agent gets ``--beliefs`` beliefs without a vector; each round writes a vector on every one
of them in batches of ``--batch``, once with each query of each kind, alternating which goes
first. Printed: per kind, the median and p95 of a batch's time and the vectors per second of each
query. The agent is deleted after.

    PYTHONPATH=. .venv/bin/python bench/vector_write_lock.py [--beliefs 5000] [--batch 256]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.agents.models import AgentCreate
from app.agents.store import create_agent, delete_agent
from app.config import get_settings
from app.graph.catalog import QueryCatalog
from app.graph.client import GraphClient
from app.graph.vectors import vector_param

ROOT = Path(__file__).resolve().parent.parent
BENCH_CYPHER = ROOT / "bench" / "cypher"
QUERIES = ("embeddings/store/set_belief_embeddings", "embeddings/reindex/set_next_vectors")


def _old_catalog(folder: Path, ref: str) -> QueryCatalog:
    """The queries as ``ref`` held them, under the same names."""
    for name in QUERIES:
        text = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{ref}:cypher/{name}.cypher"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        path = folder / f"{name}.cypher"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return QueryCatalog(folder)


def _params(name: str, agent: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    if name.endswith("set_next_vectors"):
        return {"label": "Belief", "agent_id": agent, "model": "bench-next", "rows": rows}
    return {"agent_id": agent, "rows": rows, "embedding_model": "bench-model"}


async def _pass(
    graph: GraphClient, name: str, agent: str, batches: list[list[dict[str, Any]]]
) -> tuple[list[float], int]:
    """Every batch written once: each batch's ms, and the vectors stored."""
    times, stored = [], 0
    for rows in batches:
        start = time.perf_counter()
        result = await graph.write(name, **_params(name, agent, rows))
        times.append((time.perf_counter() - start) * 1000)
        stored += int(result[0]["stored"])
    return times, stored


def _report(label: str, times: list[float], vectors: int) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    rate = vectors / (sum(times) / 1000)
    return f"{label}: batch p50 {statistics.median(times):.1f} ms, p95 {p95:.1f} ms, {rate:.0f}/s"


async def main(args: argparse.Namespace) -> int:
    settings = get_settings()
    graph = GraphClient.from_settings(settings.neo4j)
    bench = GraphClient.from_settings(settings.neo4j, QueryCatalog(BENCH_CYPHER))
    with tempfile.TemporaryDirectory() as folder:
        old = GraphClient.from_settings(settings.neo4j, _old_catalog(Path(folder), args.old_ref))
        agent = (await create_agent(graph, AgentCreate(name="bench vector write lock"))).id
        try:
            found = await bench.write(
                "probe/create_unembedded_beliefs", agent_id=agent, count=args.beliefs
            )
            rng = np.random.default_rng(5)
            rows = [
                {"id": row["id"], "embedding": vector_param(rng.standard_normal(384).tolist())}
                for row in found
            ]
            batches = [rows[i : i + args.batch] for i in range(0, len(rows), args.batch)]
            for name in QUERIES:
                times: dict[str, list[float]] = {"locked (now)": [], f"{args.old_ref}": []}
                clients = {"locked (now)": graph, f"{args.old_ref}": old}
                for round_ in range(args.rounds):
                    order = list(clients) if round_ % 2 == 0 else list(reversed(clients))
                    for label in order:
                        spent, stored = await _pass(clients[label], name, agent, batches)
                        assert stored == len(rows), (label, stored)
                        if round_ > 0:  # the first round warms the plans and caches
                            times[label] += spent
                print(name)
                for label, spent in times.items():
                    print("  " + _report(label, spent, len(rows) * (args.rounds - 1)))
        finally:
            await delete_agent(graph, agent, default_agent_name="")
            await old.close()
            await bench.close()
            await graph.close()
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--beliefs", type=int, default=5000)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--old-ref", default="1501ad2", help="the commit of the queries before")
    sys.exit(asyncio.run(main(parser.parse_args())))
