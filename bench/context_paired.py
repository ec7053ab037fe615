"""The context of a query (every section, as ``GET /context`` without ``section``), the code of
two checkouts side by side in one run.

Two worker processes, each importing ``app`` from its own checkout (``--old`` and ``--new``),
assemble the context of the same questions for one existing agent (``--agent``; default: the
demo agent, ``credence demo``) on the same Neo4j, in process (the server's work without HTTP),
alternating which goes first each pair, so both see the same load (``paired.py``). A question
is sent with a different number of trailing spaces each time, so no cache answers it. Reported:
p50 / p95 of each and the ratio new / old. ``--locomo SAMPLE_ID`` asks that LoCoMo development
conversation's questions of its agent instead (imported by ``bench/retrieval_locomo.py``, found
by name); ``--section`` keeps some sections only (as ``GET /context?section=``).

    .venv/bin/credence demo
    .venv/bin/python bench/context_paired.py --old /tmp/old-checkout --new . --runs 200
    .venv/bin/python bench/context_paired.py --old /tmp/old-checkout --locomo conv-26 \\
        --section episodes --runs 300
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


async def worker(agent: str | None, sections: list[str]) -> None:
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
            request = ContextRequest(q=line + " " * asked, k=10, **_sections(sections))
            await services.context(agent_id, request)
            print(json.dumps({"ms": (time.perf_counter() - started) * 1000}), flush=True)
    finally:
        await graph.close()


def _sections(sections: list[str]) -> dict[str, list[str]]:
    return {"sections": sections} if sections else {}


async def _demo_agent(graph: GraphClient) -> str:
    return await _agent_named(graph, DEMO_AGENT_NAME, "run `credence demo` or pass --agent")


async def _agent_named(graph: GraphClient, name: str, hint: str) -> str:
    rows = await graph.read("agents/store/find_agents_by_name", agent_name=name)
    if not rows:
        raise SystemExit(f"no agent named {name!r}: {hint}")
    return str(rows[-1]["id"])


def _locomo(sample_id: str, prefix: str) -> tuple[str, list[str]]:
    """The agent of LoCoMo conversation ``sample_id`` (named ``prefix`` + it) and its
    questions."""
    from retrieval_locomo import DEFAULT_DATA, load_conversations

    from app.config import get_settings

    found = [c for c in load_conversations(DEFAULT_DATA) if c.sample_id == sample_id]
    if not found:
        raise SystemExit(f"no LoCoMo development conversation {sample_id!r}")

    async def agent() -> str:
        graph = GraphClient.from_settings(get_settings().neo4j)
        try:
            hint = "import it with bench/retrieval_locomo.py"
            return await _agent_named(graph, f"{prefix}{sample_id}", hint)
        finally:
            await graph.close()

    return asyncio.run(agent()), [q.text for q in found[0].questions]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--worker", action="store_true")
    parser.add_argument("--agent", help="the agent's id (default: the demo agent)")
    parser.add_argument("--old", type=Path, default=Path("/work/main"))
    parser.add_argument("--new", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--locomo", metavar="SAMPLE_ID", help="that conversation's questions")
    parser.add_argument(
        "--locomo-prefix",
        default="locomo-",
        help="what the conversation's agent is named before its id (bench/retrieval_locomo.py's "
        "locomo-; bench/peer_latency.py's peer-bench-)",
    )
    parser.add_argument("--section", action="append", default=[], help="default: every one")
    arguments = parser.parse_args()
    if arguments.worker:
        asyncio.run(worker(arguments.agent, arguments.section))
    else:
        agent, questions = arguments.agent, QUESTIONS
        if arguments.locomo:
            agent, questions = _locomo(arguments.locomo, arguments.locomo_prefix)
        sections = [arg for name in arguments.section for arg in ("--section", name)]
        compare(
            __file__,
            arguments.old,
            arguments.new,
            questions,
            arguments.runs,
            arguments.warmup,
            what=f"contexts ({', '.join(arguments.section) or 'every section'}, in process)",
            worker_args=[*(["--agent", agent] if agent else []), *sections],
        )
