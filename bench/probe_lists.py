"""What the offline retrieval probes share (``coverage_rerank.py``, ``sentence_probe.py``,
``prototype_probe.py``): the questions of ``retrieval_tuning.py`` with the clients that rank
them, and each question's episode list as ``build_context`` gives it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from retrieval_tuning import Query, locomo_queries, madial_queries

from app.config import Settings, get_settings
from app.embeddings.embedder import Embedder, shared_embedder
from app.graph.catalog import QueryCatalog
from app.graph.client import GraphClient
from app.retrieval.context import build_context
from app.retrieval.models import ContextRequest

BENCH_CYPHER = Path(__file__).resolve().parent / "cypher"

Row = dict[str, Any]


@dataclass(frozen=True)
class ProbeSession:
    """The settings, the embedder, the graph (the app's queries), the probe's own read-only
    queries (``bench/cypher/probe``) and the questions (LoCoMo's development conversations,
    then MADial)."""

    settings: Settings
    embedder: Embedder
    graph: GraphClient
    probe: GraphClient
    queries: list[Query]

    async def episode_list(self, query: Query, depth: int) -> list[Row]:
        """The question's episode section with the defaults and ``k = depth``, best first."""
        request = ContextRequest(
            q=query.text, k=depth, sections=["episodes"], budget_tokens=200_000
        )
        context = await build_context(
            self.graph, self.embedder, self.settings.retrieval, query.agent_id, request
        )
        section = context.sections["episodes"]
        if section.error:
            raise SystemExit(f"episode section failed: {section.error}")
        return [dict(item) for item in section.items]


@asynccontextmanager
async def probe_session() -> AsyncIterator[ProbeSession]:
    """The clients, open for the block, and the questions (agents imported only when missing,
    as ``retrieval_tuning.py`` does)."""
    settings = get_settings()
    base = settings.retrieval
    embedder = shared_embedder(settings.embeddings)
    graph = GraphClient.from_settings(settings.neo4j)
    probe = GraphClient.from_settings(settings.neo4j, QueryCatalog(BENCH_CYPHER))
    try:
        # Asked now (``retrieval_tuning.py --clock wall``), as the probes' recorded figures were
        # (bench/README.md, 2026-11-27: before the tuning bench's clock, which made it required).
        queries = await locomo_queries(graph, settings, embedder, base, "wall")
        queries += await madial_queries(graph, settings, embedder, base, "wall")
        yield ProbeSession(settings, embedder, graph, probe, queries)
    finally:
        await graph.close()
        await probe.close()
