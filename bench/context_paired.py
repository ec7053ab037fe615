"""The context of a query (every section, as ``GET /context`` without ``section``), the code of
two checkouts side by side in one run.

Two worker processes, each importing ``app`` from its own checkout (``--old`` and ``--new``),
assemble the context of the same questions for one existing agent (``--agent``; default: the
demo agent, ``credence demo``) on the same Neo4j, in process (the server's work without HTTP),
alternating which goes first each pair, so both see the same load (``paired.py``). A question
is sent with a different number of trailing spaces each time, so no cache answers it. Reported:
p50 / p95 of each and the ratio new / old.

    .venv/bin/credence demo
    .venv/bin/python bench/context_paired.py --old /tmp/old-checkout --new . --runs 200
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

from paired import compare

from app.demo import DEMO_AGENT_NAME
from app.graph.client import GraphClient

QUESTIONS = [
    "Is the month-end close on track?",
    "Who approves journal entries above the limit?",
    "What do we know about the unexplained differences in the bank reconciliation?",
    "Can I trust the ledger tool's balances?",
    "What went wrong the last time we posted an accrual?",
    "When should a period be signed off?",
    "How careful should I be with estimates under uncertainty?",
    "What did the audit committee memo say?",
]


async def worker(agent: str | None) -> None:
    import app
    from app.clock import SystemClock
    from app.config import get_settings
    from app.embeddings.embedder import Embedder
    from app.retrieval.models import ContextRequest
    from app.retrieval.services import RetrievalServices

    settings = get_settings()
    graph = GraphClient.from_settings(settings.neo4j)
    embedder = Embedder(settings.embeddings.model_copy(update={"cache_path": None}))
    services = RetrievalServices(graph, embedder, settings.retrieval, SystemClock())
    agent_id = agent or await _demo_agent(graph)
    print(json.dumps({"ready": app.__file__}), flush=True)
    loop = asyncio.get_running_loop()
    asked = 0
    try:
        while (line := (await loop.run_in_executor(None, sys.stdin.readline)).strip()) != "":
            asked += 1
            started = time.perf_counter()
            await services.context(agent_id, ContextRequest(q=line + " " * asked, k=10))
            print(json.dumps({"ms": (time.perf_counter() - started) * 1000}), flush=True)
    finally:
        await graph.close()


async def _demo_agent(graph: GraphClient) -> str:
    rows = await graph.read("agents/store/find_agents_by_name", agent_name=DEMO_AGENT_NAME)
    if not rows:
        raise SystemExit(f"no agent named {DEMO_AGENT_NAME!r}: run `credence demo` or pass --agent")
    return str(rows[-1]["id"])


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--worker", action="store_true")
    parser.add_argument("--agent", help="the agent's id (default: the demo agent)")
    parser.add_argument("--old", type=Path, default=Path("/work/main"))
    parser.add_argument("--new", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=10)
    arguments = parser.parse_args()
    if arguments.worker:
        asyncio.run(worker(arguments.agent))
    else:
        compare(
            __file__,
            arguments.old,
            arguments.new,
            QUESTIONS,
            arguments.runs,
            arguments.warmup,
            what="contexts (every section, in process)",
            worker_args=["--agent", arguments.agent] if arguments.agent else [],
        )
