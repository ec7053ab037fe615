"""What scoring the corpus search on the agent's own passages costs, paired in one process.

An agent gets ``--passages`` corpus passages (embedded) and another agent as many (not
embedded), of words drawn from a Zipf-like vocabulary with a fixed seed. Each of ``--queries``
three-word queries is searched ``--rounds`` times by the code before and by the code now, in
alternating order, after one warm-up round:

- ``query``: the database part with the query's vector at hand (before: the one query of
  ``--old-query``, which ranked the fulltext half by Lucene's index-wide scores; now: the lexical
  read of ``app/retrieval/lexical.py`` and then the fused query);
- ``search``: ``CorpusSource.search`` as an investigation calls it, the query embedded (before:
  embedded, then the old query; now: the lexical read runs while the query is embedded). Each
  call gets a query of its own, drawn afresh (unseeded), so that no embedding comes from the
  embedder's caches.

The old query is the file of the code before, e.g.
``git show 26729a3:cypher/research/search_corpus_passages.cypher > /tmp/old.cypher``. Both
agents are deleted at the end. ALWAYS point ``CREDENCE_NEO4J_URI`` at your own database.

    .venv/bin/python bench/corpus_search_latency.py --old-query /tmp/old.cypher
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

from app.agents.models import AgentCreate
from app.agents.store import create_agent, delete_agent
from app.config import get_settings
from app.embeddings.embedder import Embedder, UnavailableEmbedder, shared_embedder
from app.graph.catalog import QueryCatalog
from app.graph.client import GraphClient
from app.research.sources.corpus import CorpusSource, load_corpus_files
from app.research.sources.documents import CorpusFile
from app.retrieval.lexical import CORPUS_PASSAGES
from app.retrieval.searches import SectionSearch
from app.retrieval.settings import RetrievalSettings
from app.text.lucene import agent_clause, lucene_terms

VOCABULARY = [f"{stem}{i}" for i, stem in enumerate(["tide", "reef", "gale", "kelp"] * 500)]
WEIGHTS = [1.0 / (rank + 1) for rank in range(len(VOCABULARY))]
PER_DOCUMENT = 20  # passages (paragraphs) per document


def _corpus(rng: random.Random, passages: int, name: str) -> list[CorpusFile]:
    """Documents of ``PER_DOCUMENT`` paragraphs of 40–90 words each."""
    files = []
    for d in range(0, passages, PER_DOCUMENT):
        paragraphs = [
            " ".join(rng.choices(VOCABULARY, WEIGHTS, k=rng.randint(40, 90))) + "."
            for _ in range(min(PER_DOCUMENT, passages - d))
        ]
        content = f"{name} {d}\n\n" + "\n\n".join(paragraphs)
        files.append(CorpusFile(name=f"{name}{d}.txt", format="txt", content=content))
    return files


def _old_catalog(folder: str, old_query: str) -> QueryCatalog:
    """A catalog holding the old query alone, as ``old``."""
    (Path(folder) / "old.cypher").write_text(Path(old_query).read_text())
    return QueryCatalog(Path(folder))


def _pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def _timed(call: Callable[[], Awaitable[Any]], into: list[float]) -> Any:
    start = time.perf_counter()
    result = await call()
    into.append((time.perf_counter() - start) * 1000)
    return result


async def main(args: argparse.Namespace) -> int:
    settings = get_settings()
    retrieval: RetrievalSettings = settings.retrieval
    embedder: Embedder = shared_embedder(settings.embeddings)
    graph = GraphClient.from_settings(settings.neo4j)
    with tempfile.TemporaryDirectory() as folder:
        old_graph = GraphClient.from_settings(settings.neo4j, _old_catalog(folder, args.old_query))
        rng = random.Random(7)
        agent = (await create_agent(graph, AgentCreate(name="bench corpus latency"))).id
        other = (await create_agent(graph, AgentCreate(name="bench corpus other"))).id
        try:
            started = time.perf_counter()
            await load_corpus_files(graph, embedder, agent, _corpus(rng, args.passages, "own"))
            await load_corpus_files(
                graph, UnavailableEmbedder(), other, _corpus(rng, args.passages, "other")
            )
            print(f"loaded 2 × {args.passages} passages in {time.perf_counter() - started:.0f} s")
            queries = [
                " ".join(rng.sample(VOCABULARY[: args.query_ranks], 3)) for _ in range(args.queries)
            ]
            await _compare(args, retrieval, embedder, graph, old_graph, agent, queries)
        finally:
            for agent_id in (agent, other):
                await delete_agent(graph, agent_id, default_agent_name="")
            await old_graph.close()
            await graph.close()
    return 0


async def _compare(
    args: argparse.Namespace,
    retrieval: RetrievalSettings,
    embedder: Embedder,
    graph: GraphClient,
    old_graph: GraphClient,
    agent: str,
    queries: list[str],
) -> None:
    vectors = {q: await embedder.embed_one(q) for q in queries}
    source = CorpusSource(graph, embedder, retrieval)
    times: dict[str, list[float]] = {
        f"{part} {code}": [] for part in ("query", "search") for code in ("before", "now")
    }
    overlap: list[float] = []

    def search_of(query: str, embedding: list[float] | None) -> SectionSearch:
        return SectionSearch(graph=graph, settings=retrieval, agent_id=agent, text=query, k=10,
                             mode="fused", now=datetime.now(UTC), embedding=embedding,
                             terms=lucene_terms(query),
                             embedding_model=embedder.model_id)  # fmt: skip

    async def old_query(query: str, embedding: list[float] | None) -> list[dict[str, Any]]:
        search = search_of(query, embedding)
        return await old_graph.read(
            "old", w=search.weights(), agent_clause=agent_clause(agent), terms=search.terms,
            **search.common(),
        )  # fmt: skip

    async def new_query(query: str, embedding: list[float] | None) -> list[dict[str, Any]]:
        search = search_of(query, embedding)
        w = search.weights()
        lexical = await search.short_lexical(CORPUS_PASSAGES, w["fulltext_on"])
        return await graph.read(
            "research/search_corpus_passages", w=w, lexical=lexical, **search.common()
        )

    async def old_search(query: str) -> list[dict[str, Any]]:
        return await old_query(query, await embedder.embed_one(query))

    fresh = random.Random()
    for round_ in range(args.rounds + 1):
        warm = round_ > 0
        for i, query in enumerate(queries):
            one, two = (" ".join(fresh.sample(VOCABULARY[: args.query_ranks], 3)) for _ in "12")
            pairs: list[tuple[str, Callable[[], Awaitable[Any]]]] = [
                ("query before", partial(old_query, query, vectors[query])),
                ("query now", partial(new_query, query, vectors[query])),
                ("search before", partial(old_search, one)),
                ("search now", partial(source.search, agent, two, limit=10)),
            ]
            if (i + round_) % 2:
                pairs = [pairs[1], pairs[0], pairs[3], pairs[2]]
            found = {}
            for name, call in pairs:
                found[name] = await _timed(call, times[name] if warm else [])
            if warm:
                before_ids = {row["id"] for row in found["query before"]}
                overlap.append(len(before_ids & {row["id"] for row in found["query now"]}) / 10)
    for part in ("query", "search"):
        before, now = times[f"{part} before"], times[f"{part} now"]
        b50, n50 = statistics.median(before), statistics.median(now)
        b95, n95 = _pct(before, 0.95), _pct(now, 0.95)
        print(f"{part:7} p50 now / before {n50:6.1f} / {b50:6.1f} ms ({n50 / b50:.2f}×)   "
              f"p95 {n95:6.1f} / {b95:6.1f} ms ({n95 / b95:.2f}×)   n = {len(now)}")  # fmt: skip
    print(f"top-10 overlap before / now: {statistics.mean(overlap):.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--old-query", required=True, help="the corpus search query before")
    parser.add_argument("--passages", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--query-ranks", type=int, default=400, help="words drawn from the top N")
    raise SystemExit(asyncio.run(main(parser.parse_args())))
