"""When each part of a context request runs: the reads and the embedding on one time line.

Asks the questions of the LoCoMo development conversations of the agents imported by
``bench/peer_latency.py`` (``peer-bench-conv-26`` ...; ``--prefix locomo-`` for those of
``bench/retrieval_locomo.py``) in process (the server's work without HTTP), on uvloop as the
server runs, without the vector cache (so every question is embedded). Each Cypher query of the
catalog (``GraphClient``) and each model run (``Embedder.embed_sync``, on its worker thread) is
marked when it starts and ends, relative to the start of the request. Printed: the median start,
end and duration of each; which of the embedding and the episodes' lexical read ended last
before the episode query was sent (the request's critical path) and by how much; and the
slowest tenth's medians. The first ``--skip`` questions warm the process and are not counted;
``--gap-ms`` leaves the process idle before each question, as the peer bench's interleaving does.

    .venv/bin/python bench/context_timeline.py
    .venv/bin/python bench/context_timeline.py --section episodes --section beliefs
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from retrieval_locomo import DEFAULT_DATA, load_conversations

from app.clock import SystemClock
from app.config import get_settings
from app.embeddings.embedder import Embedder
from app.graph.client import GraphClient
from app.retrieval.models import ContextRequest
from app.retrieval.services import RetrievalServices

EMBED = "embedding"
EPISODES = "search_episodes"
LEXICAL = "lexical_episode_hits"


@dataclass
class Timeline:
    """The marks of the request being asked: (name, start ms, end ms) since it began."""

    began: float = 0.0
    spans: list[tuple[str, float, float]] = field(default_factory=list)

    def ms(self) -> float:
        return (time.perf_counter() - self.began) * 1000

    def first(self, name: str) -> tuple[float, float] | None:
        return next(((s, e) for n, s, e in self.spans if n == name), None)

    def last_end(self, name: str) -> float | None:
        ends = [e for n, _, e in self.spans if n == name]
        return max(ends) if ends else None


NOW = Timeline()


def _begin() -> None:
    """A new time line for the request about to be asked (the marks write to ``NOW``)."""
    global NOW
    NOW = Timeline(began=time.perf_counter())


def _mark_reads() -> None:
    """Marks every catalog query and every model run (the originals are called as they are)."""
    run_alone = GraphClient._run_alone
    embed_sync = Embedder.embed_sync

    async def marked_run(self: GraphClient, name: str, params: dict[str, Any], access: str) -> Any:
        start = NOW.ms()
        try:
            return await run_alone(self, name, params, access)
        finally:
            NOW.spans.append((name.rsplit("/", 1)[-1], start, NOW.ms()))

    def marked_embed(self: Embedder, texts: Sequence[str], kind: Any = "passage") -> Any:
        start = NOW.ms()
        try:
            return embed_sync(self, texts, kind)
        finally:
            NOW.spans.append((EMBED, start, NOW.ms()))

    GraphClient._run_alone = marked_run  # type: ignore[method-assign]
    Embedder.embed_sync = marked_embed  # type: ignore[method-assign]


def _report(timelines: list[tuple[float, str, Timeline]]) -> None:
    totals = [total for total, _, _ in timelines]
    print(
        f"{len(timelines)} requests: total p50 {statistics.median(totals):.2f} ms, "
        f"p95 {sorted(totals)[int(0.95 * len(totals))]:.2f} ms"
    )
    _spans("every request", [t for _, _, t in timelines])
    waited: Counter[str] = Counter()
    slack: list[float] = []
    for _, _, line in timelines:
        sent = line.first(EPISODES)
        embedded, lexical = line.last_end(EMBED), line.last_end(LEXICAL)
        if sent is None or embedded is None or lexical is None:
            continue
        waited["the embedding" if embedded >= lexical else "the lexical read"] += 1
        slack.append(abs(embedded - lexical))
    if slack:
        print(
            "the episode query waited last for: "
            + ", ".join(f"{what} {n}" for what, n in waited.most_common())
            + f" (the other ended a median {statistics.median(slack):.2f} ms earlier)"
        )
    slowest = sorted(timelines, key=lambda row: -row[0])[: max(len(timelines) // 10, 1)]
    _spans(
        f"the slowest tenth (total p50 {statistics.median(t for t, _, _ in slowest):.2f} ms)",
        [t for _, _, t in slowest],
    )
    for total, question, _ in slowest[:5]:
        print(f"  {total:6.1f} ms  {question[:80]}")


def _spans(title: str, lines: list[Timeline]) -> None:
    by_name: dict[str, list[tuple[float, float]]] = {}
    for line in lines:
        for name, start, end in line.spans:
            by_name.setdefault(name, []).append((start, end))
    print(f"{title}: median start / end / duration (ms)")
    for name, spans in sorted(
        by_name.items(), key=lambda kv: statistics.median(s for s, _ in kv[1])
    ):
        print(
            f"  {name:32} n={len(spans):4}  {statistics.median(s for s, _ in spans):6.2f}"
            f"  {statistics.median(e for _, e in spans):6.2f}"
            f"  {statistics.median(e - s for s, e in spans):6.2f}"
        )


async def main(args: argparse.Namespace) -> int:
    settings = get_settings()
    graph = GraphClient.from_settings(settings.neo4j)
    embedder = Embedder(settings.embeddings.model_copy(update={"cache_path": None}))
    services = RetrievalServices(graph, embedder, settings.retrieval, SystemClock())
    timelines: list[tuple[float, str, Timeline]] = []
    try:
        asked = [
            (await _agent(graph, args.prefix + c.sample_id), q.text)
            for c in load_conversations(args.data)
            for q in c.questions
        ]
        _mark_reads()
        for number, (agent_id, question) in enumerate(asked):
            if args.gap_ms:
                await asyncio.sleep(args.gap_ms / 1000)
            _begin()
            await services.context(
                agent_id, ContextRequest(q=question, k=10, sections=args.section)
            )
            if number >= args.skip:
                timelines.append((NOW.ms(), question, NOW))
    finally:
        await graph.close()
    _report(timelines)
    return 0


async def _agent(graph: GraphClient, name: str) -> str:
    rows = await graph.read("agents/store/find_agents_by_name", agent_name=name)
    if not rows:
        raise SystemExit(
            f"no agent {name!r}: import it with bench/peer_latency.py or bench/retrieval_locomo.py"
        )
    return str(rows[-1]["id"])


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="locomo_dev.json")
    parser.add_argument("--prefix", default="peer-bench-", help="the agents' names before the id")
    parser.add_argument("--section", action="append", help="default: episodes")
    parser.add_argument("--skip", type=int, default=20, help="warm-up questions not counted")
    parser.add_argument(
        "--gap-ms",
        type=float,
        default=0.0,
        help="idle time before each question (the peer bench's interleaving leaves the server "
        "idle while the peer answers)",
    )
    args = parser.parse_args()
    args.section = args.section or ["episodes"]
    return args


if __name__ == "__main__":
    import uvloop

    uvloop.install()
    raise SystemExit(asyncio.run(main(parse_args())))
