"""Retrieval quality on MADial-Bench (English): Credence's real episode retrieval against BM25.

The 160 memories of the benchmark are imported as episodes of a fresh agent through the real
import path (``import_episodes``: batched embedding, interference on insert), then each of the
160 dialogues queries that agent through ``build_context`` (episodes section only) in the three
retrieval modes (``fulltext``, ``vector``, ``fused``). The ranked ``external_id``s are scored
against the gold ``relevant-id``s:

- Recall@k = |relevant ∩ top_k| / |relevant| for k in {1, 3, 5, 10}, averaged over dialogues;
- MRR = 1 / rank of the first relevant memory in the top 10 (0 when none), averaged.

Query variants (``--query``): ``all`` = every turn before ``test-turn[0]`` (the turns after
``<BOD>``, as SOURCE.md's BM25 baseline), ``last-N`` = only the last N turns before it. The
embedding model truncates its input (256 word pieces), so a long ``all`` query is embedded from
its beginning only; ``last-N`` keeps the turns next to the test turn.

A pure-Python BM25 (k1 = 1.2, b = 0.75, Lucene's idf, lower-cased ``\\w+`` tokens for memories
and queries alike) over the same 160 memories (all users pooled) is computed for every query
variant; with ``all`` it reproduces SOURCE.md's reference (Recall@1/3/5/10 = 0.171 / 0.289 /
0.347 / 0.421) to within 0.003, so the comparison is like for like.

``--sweep`` ranks the fused mode again over rrf_k in {10, 30, 60} and vector_weight /
fulltext_weight in {0.5, 1, 2} (a sensitivity table, not a tuning run: 160 queries are too few
to pick weights from).

    .venv/bin/python bench/retrieval_madial.py                       # all, last-1..3
    .venv/bin/python bench/retrieval_madial.py --query all --query last-2 --sweep
    .venv/bin/python bench/retrieval_madial.py --rrf-k 30 --vector-weight 2 --fulltext-weight 1
    .venv/bin/python bench/retrieval_madial.py --markdown madial.md --no-vector-cache
    .venv/bin/python bench/retrieval_madial.py --agent <id>          # reuse an agent of a run

Neo4j is the one the settings name (``CREDENCE_NEO4J_URI`` ...), migrated. Every run creates a
new agent (unless ``--agent``) and prints its id; its data is agent-scoped, so other agents are
not touched. By default (``--keep``) nothing is deleted; ``--no-keep`` deletes the agent this run
created with its episodes, people and sessions.

Reproducibility: the vector ranks are exact (the same top 10 as a brute-force cosine ranking) and
repeat to the last digit. The fulltext ranks come from one Lucene index shared by every agent,
whose BM25 statistics (document frequencies, average field length, deleted documents not yet
merged away) are index-wide: the ``fulltext`` and ``fused`` figures repeat while the database is
unchanged, but move by a few hundredths when other agents' episodes come or go (the run prints
how many episodes the database holds). Latencies depend on the machine's load.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import math
import os
import platform
import re
import statistics
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, Protocol

import neo4j

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.config import Settings, get_settings
from app.embeddings.embedder import Embedder, shared_embedder
from app.graph.client import GraphClient
from app.graph.migrations import MigrationRunner
from app.memory.episodes import EpisodeBatch, EpisodeIn, import_episodes, list_episodes
from app.retrieval.context import build_context
from app.retrieval.models import MAX_QUERY_CHARS, ContextRequest, Mode
from app.retrieval.settings import RetrievalSettings

DEFAULT_DATA = Path(
    os.environ.get(
        "MADIAL_BENCH_DIR",
        str(Path(__file__).resolve().parents[2] / "shared" / "eval-data" / "madial-bench"),
    )
).expanduser()
DIALOGUE_FILE = "MADial-Bench-en-dialogue.json"
MEMORY_FILE = "MADial-Bench-en-memory.json"
KS = (1, 3, 5, 10)
TOP = max(KS)
MODES: tuple[Mode, ...] = ("fulltext", "vector", "fused")
# SOURCE.md's plain BM25 baseline (query = all turns before test-turn[0], 160 memories pooled).
REFERENCE_BM25 = {1: 0.171, 3: 0.289, 5: 0.347, 10: 0.421}
REFERENCE_TOLERANCE = 0.01
SWEEP_RRF_K = (10.0, 30.0, 60.0)
SWEEP_RATIOS = (0.5, 1.0, 2.0)
_QUERY_VARIANT = re.compile(r"^(all|last-([1-9][0-9]*))$")
_BM25_TOKEN = re.compile(r"\w+")


# ---------------------------------------------------------------------------------------------
# The data set


@dataclass(frozen=True)
class Memory:
    id: str
    day: date
    event: str


@dataclass(frozen=True)
class Dialogue:
    index: int
    turns: tuple[str, ...]
    test_turn: int
    relevant: frozenset[str]
    user_id: int


def _json_lines(path: Path) -> list[Any]:
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def load_memories(path: Path) -> list[Memory]:
    memories: list[Memory] = []
    for row in _json_lines(path):
        ((memory_id, body),) = row.items()
        memories.append(
            Memory(id=str(memory_id), day=date.fromisoformat(body["time"]), event=body["event"])
        )
    return memories


def load_dialogues(path: Path) -> list[Dialogue]:
    return [
        Dialogue(
            index=index,
            turns=tuple(row["dialogue"]),
            test_turn=int(row["test-turn"][0]),
            relevant=frozenset(str(memory_id) for memory_id in row["relevant-id"]),
            user_id=int(row["user-id"]),
        )
        for index, row in enumerate(_json_lines(path))
    ]


def _speaker_tag(turn: str) -> str | None:
    match = re.match(r"^<([^>]+)>:", turn)
    return match.group(1) if match else None


def speakers_of(memories: Sequence[Memory], dialogues: Sequence[Dialogue]) -> dict[str, str]:
    """Each memory's speaker: the name of the user (Bart, Lisa) whose dialogues cite it as gold;
    for a memory no dialogue cites, the one user name its text mentions; else ``user``."""
    tags: dict[int, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for dialogue in dialogues:
        for turn in dialogue.turns:
            tag = _speaker_tag(turn)
            if tag is not None and tag.casefold() != "assistant":
                tags[dialogue.user_id][tag] += 1
    user_names = {user: counts.most_common(1)[0][0] for user, counts in tags.items()}
    cited_by: dict[str, set[int]] = collections.defaultdict(set)
    for dialogue in dialogues:
        for memory_id in dialogue.relevant:
            cited_by[memory_id].add(dialogue.user_id)
    speakers: dict[str, str] = {}
    for memory in memories:
        users = cited_by.get(memory.id, set())
        if len(users) == 1:
            speakers[memory.id] = user_names.get(next(iter(users)), "user")
            continue
        named = [name for name in user_names.values() if re.search(rf"\b{name}\b", memory.event)]
        speakers[memory.id] = named[0] if len(named) == 1 else "user"
    return speakers


def variant_turns(dialogue: Dialogue, variant: str) -> tuple[str, ...]:
    """The turns a query variant takes: all turns after ``<BOD>`` before the test turn, or the
    last N of them."""
    before = dialogue.turns[1 : dialogue.test_turn]
    if variant == "all":
        return before
    match = _QUERY_VARIANT.match(variant)
    assert match is not None and match.group(2) is not None
    return before[-int(match.group(2)) :]


def query_text(dialogue: Dialogue, variant: str) -> str:
    text = "\n".join(turn.strip() for turn in variant_turns(dialogue, variant))
    return text[:MAX_QUERY_CHARS]


# ---------------------------------------------------------------------------------------------
# Metrics and the BM25 reference


def recall_at(relevant: frozenset[str], ranked: Sequence[str], k: int) -> float:
    return len(relevant & set(ranked[:k])) / len(relevant)


def reciprocal_rank(relevant: frozenset[str], ranked: Sequence[str], k: int = TOP) -> float:
    for position, memory_id in enumerate(ranked[:k], start=1):
        if memory_id in relevant:
            return 1.0 / position
    return 0.0


def bm25_tokens(text: str) -> list[str]:
    return _BM25_TOKEN.findall(text.lower())


class Bm25:
    """Okapi BM25 over a fixed corpus; idf = ln(1 + (N − df + 0.5) / (df + 0.5)) (Lucene's)."""

    def __init__(
        self, ids: Sequence[str], texts: Sequence[str], k1: float = 1.2, b: float = 0.75
    ) -> None:
        self.ids = list(ids)
        self.k1, self.b = k1, b
        docs = [bm25_tokens(text) for text in texts]
        self.lengths = [len(doc) for doc in docs]
        self.average = sum(self.lengths) / len(docs)
        self.tf = [collections.Counter(doc) for doc in docs]
        df = collections.Counter(term for doc in docs for term in set(doc))
        n = len(docs)
        self.idf = {term: math.log(1.0 + (n - m + 0.5) / (m + 0.5)) for term, m in df.items()}

    def scores(self, query: str) -> list[float]:
        """Each document's BM25 score, in corpus order; query terms count with repetition."""
        terms = [term for term in bm25_tokens(query) if term in self.idf]
        scores: list[float] = []
        for tf, length in zip(self.tf, self.lengths, strict=True):
            norm = self.k1 * (1.0 - self.b + self.b * length / self.average)
            scores.append(
                sum(
                    self.idf[t] * tf[t] * (self.k1 + 1.0) / (tf[t] + norm) for t in terms if t in tf
                )
            )
        return scores

    def rank(self, query: str) -> list[str]:
        """All ids, best first (ties in corpus order)."""
        scores = self.scores(query)
        order = sorted(range(len(self.ids)), key=lambda i: -scores[i])
        return [self.ids[i] for i in order]


# ---------------------------------------------------------------------------------------------
# One evaluation pass


@dataclass
class Result:
    system: str  # "bm25" or a retrieval mode
    variant: str
    recall: dict[int, float]
    mrr: float
    latency_ms: list[float] = field(default_factory=list)
    embed_ms: list[float] = field(default_factory=list)
    search_ms: list[float] = field(default_factory=list)
    returned: list[int] = field(default_factory=list)
    dropped: int = 0
    errors: list[str] = field(default_factory=list)
    degraded: str | None = None

    @property
    def p50_ms(self) -> float | None:
        return statistics.median(self.latency_ms) if self.latency_ms else None

    @property
    def p50_embed_ms(self) -> float | None:
        return statistics.median(self.embed_ms) if self.embed_ms else None

    @property
    def p50_search_ms(self) -> float | None:
        return statistics.median(self.search_ms) if self.search_ms else None


class Judged(Protocol):
    """What ``score`` reads of a query: its gold ids (a MADial dialogue, a LoCoMo question)."""

    @property
    def relevant(self) -> frozenset[str]: ...


def score(
    system: str, variant: str, dialogues: Sequence[Judged], rankings: Sequence[Sequence[str]]
) -> Result:
    recall = {
        k: statistics.fmean(
            recall_at(d.relevant, r, k) for d, r in zip(dialogues, rankings, strict=True)
        )
        for k in KS
    }
    mrr = statistics.fmean(
        reciprocal_rank(d.relevant, r) for d, r in zip(dialogues, rankings, strict=True)
    )
    return Result(system=system, variant=variant, recall=recall, mrr=mrr)


def run_bm25(bm25: Bm25, dialogues: Sequence[Dialogue], variant: str) -> Result:
    rankings = [bm25.rank(query_text(d, variant)) for d in dialogues]
    return score("BM25", variant, dialogues, rankings)


async def run_credence(
    graph: GraphClient,
    embedder: Embedder,
    retrieval: RetrievalSettings,
    agent_id: str,
    dialogues: Sequence[Dialogue],
    variant: str,
    mode: Mode,
) -> Result:
    rankings: list[list[str]] = []
    latency: list[float] = []
    embed: list[float] = []
    search: list[float] = []
    returned: list[int] = []
    dropped = 0
    errors: list[str] = []
    degraded: str | None = None
    for dialogue in dialogues:
        request = ContextRequest(
            q=query_text(dialogue, variant), k=TOP, sections=["episodes"], mode=mode
        )
        started = time.perf_counter()
        context = await build_context(graph, embedder, retrieval, agent_id, request)
        latency.append((time.perf_counter() - started) * 1000)
        if mode != "fulltext":
            embed.append(context.timings_ms.get("embed", 0.0))
        search.append(context.timings_ms.get("episodes", 0.0))
        degraded = degraded or context.degraded_reason
        section = context.sections["episodes"]
        if section.error:
            errors.append(f"dialogue {dialogue.index}: {section.error}")
        dropped += section.dropped_for_budget
        ranked = [str(item["external_id"]) for item in section.items]
        returned.append(len(ranked))
        rankings.append(ranked)
    result = score(mode, variant, dialogues, rankings)
    result.latency_ms, result.embed_ms, result.search_ms = latency, embed, search
    result.returned = returned
    result.dropped, result.errors, result.degraded = dropped, errors, degraded
    return result


# ---------------------------------------------------------------------------------------------
# The agent


async def import_memories(
    graph: GraphClient,
    embedder: Embedder,
    retrieval: RetrievalSettings,
    agent_id: str,
    memories: Sequence[Memory],
    speakers: dict[str, str],
) -> str:
    batch = EpisodeBatch(
        episodes=[
            EpisodeIn(
                external_id=memory.id,
                speaker=speakers[memory.id],
                text=memory.event,
                occurred_at=datetime(memory.day.year, memory.day.month, memory.day.day, tzinfo=UTC),
                session=None,
            )
            for memory in memories
        ]
    )
    started = time.perf_counter()
    report = await import_episodes(graph, embedder, retrieval, agent_id, batch)
    seconds = time.perf_counter() - started
    if report.degraded:
        print(f"   WARNING: episodes stored without embeddings: {report.degraded}")
    stored = await list_episodes(graph, agent_id, limit=len(memories) + 10)
    interference = collections.Counter(int(e.get("interference") or 0) for e in stored)
    spread = ", ".join(f"{n}: {interference[n]}" for n in sorted(interference))
    return (
        f"{report.created} created, {report.existing} already there, embedded={report.embedded} "
        f"in {seconds:.1f} s; interference per episode (value: episodes) {spread}"
    )


EPISODE_COUNT = """
MATCH (e:Episode)
RETURN count(e) AS episodes, count(DISTINCT e.agent_id) AS agents
"""


async def episodes_in_database(settings: Settings) -> tuple[int, int]:
    """Episodes and agents holding them in the whole database: the fulltext index's BM25
    statistics (document frequencies, average field length) are index-wide, so the fulltext
    ranks of one agent depend on them."""
    driver = neo4j.AsyncGraphDatabase.driver(
        settings.neo4j_uri,
        auth=(settings.neo4j_user, settings.neo4j_password.get_secret_value()),
    )
    try:
        records, _, _ = await driver.execute_query(
            EPISODE_COUNT, database_=settings.neo4j_database, routing_=neo4j.RoutingControl.READ
        )
    finally:
        await driver.close()
    return int(records[0]["episodes"]), int(records[0]["agents"])


DELETE_AGENT = """
MATCH (n)
WHERE n.agent_id = $agent_id AND (n:Episode OR n:Person OR n:Session OR n:Agent)
DETACH DELETE n
"""


async def delete_agent(graph: GraphClient, agent_id: str) -> None:
    """Deletes what this bench wrote for its own agent: episodes, people, sessions, the agent."""
    await graph.run_autocommit(
        DELETE_AGENT, action=f"deleting the bench agent {agent_id}", agent_id=agent_id
    )


# ---------------------------------------------------------------------------------------------
# Output


def _fmt(value: float | None, digits: int = 3) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def results_rows(results: Iterable[Result]) -> list[list[str]]:
    rows = []
    for r in results:
        rows.append(
            [
                r.variant,
                r.system,
                *(_fmt(r.recall[k]) for k in KS),
                _fmt(r.mrr),
                _fmt(r.p50_ms, 1),
                _fmt(r.p50_embed_ms, 1),
                _fmt(r.p50_search_ms, 1),
            ]
        )
    return rows


RESULT_HEADER = [
    "query",
    "system",
    *(f"R@{k}" for k in KS),
    "MRR@10",
    "p50 ms",
    "embed p50",
    "search p50",
]
SWEEP_HEADER = ["query", "rrf_k", "vector_w", "fulltext_w", *(f"R@{k}" for k in KS), "MRR@10"]


def text_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(header)]
    lines = ["  ".join(h.rjust(w) for h, w in zip(header, widths, strict=True))]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)) for row in rows]
    return "\n".join(lines)


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def settings_line(retrieval: RetrievalSettings) -> str:
    fusion = (
        f"fusion=score vector_share={retrieval.vector_share:g}"
        if retrieval.fusion == "score"
        else f"fusion=rrf rrf_k={retrieval.rrf_k:g} vector_weight={retrieval.vector_weight:g} "
        f"fulltext_weight={retrieval.fulltext_weight:g}"
    )
    return (
        f"{fusion} neighbour_weight={retrieval.neighbour_weight:g} "
        f"candidates={retrieval.candidates} "
        f"interference_penalty={retrieval.interference_penalty:g}"
    )


# ---------------------------------------------------------------------------------------------
# Main


def overridden(base: RetrievalSettings, args: argparse.Namespace) -> RetrievalSettings:
    values = base.model_dump()
    for name in ("rrf_k", "vector_weight", "fulltext_weight", "candidates", "interference_penalty"):
        value = getattr(args, name)
        if value is not None:
            values[name] = value
    for assignment in args.set or []:
        name, _, raw = assignment.partition("=")
        if name not in values:
            raise SystemExit(f"--set {assignment}: RetrievalSettings has no field {name!r}")
        values[name] = json.loads(raw)
    return RetrievalSettings.model_validate(values)


def variants_of(args: argparse.Namespace) -> list[str]:
    raw = args.query or ["all,last-1,last-2,last-3"]
    variants = [v.strip() for item in raw for v in item.split(",") if v.strip()]
    for variant in variants:
        if not _QUERY_VARIANT.match(variant):
            raise SystemExit(f"--query {variant!r}: expected 'all' or 'last-N' (N ≥ 1)")
    return list(dict.fromkeys(variants))


async def main(args: argparse.Namespace) -> int:
    settings = get_settings()
    retrieval = overridden(settings.retrieval, args)
    embedding_settings = settings.embeddings
    if args.no_vector_cache:
        embedding_settings = embedding_settings.model_copy(update={"cache_path": ""})
    embedder = shared_embedder(embedding_settings)
    variants = variants_of(args)
    wanted = {m.strip() for m in args.modes.split(",") if m.strip()}
    if not wanted or wanted - set(MODES):
        raise SystemExit(f"--modes {args.modes!r}: choose among {', '.join(MODES)}")
    modes = [m for m in MODES if m in wanted]
    memories = load_memories(args.data / MEMORY_FILE)
    dialogues = load_dialogues(args.data / DIALOGUE_FILE)
    if args.limit:
        dialogues = dialogues[: args.limit]
    speakers = speakers_of(memories, dialogues)
    bm25 = Bm25([m.id for m in memories], [m.event for m in memories])

    graph = GraphClient.from_settings(settings.neo4j)
    agent_id: str | None = None
    created_here = False
    try:
        info = await graph.server_info()
        pending = [s for s in await MigrationRunner(graph).status() if s.state != "applied"]
        if pending:
            raise SystemExit(
                f"migrations not applied ({pending[0].file}): run `credence db migrate`"
            )
        machine = (
            f"Neo4j {info.version} {info.edition} at {info.address}; {os.cpu_count()} cores "
            f"(load average {os.getloadavg()[0]:.1f} at start); Python "
            f"{platform.python_version()}; embeddings {embedding_settings.model} on "
            f"{embedding_settings.device} (vector cache "
            f"{'off' if not embedding_settings.cache_path else 'on'})"
        )
        print(machine)
        owners = collections.Counter(speakers.values())
        print(
            f"MADial-Bench en: {len(memories)} memories "
            f"({', '.join(f'{n}: {c}' for n, c in owners.items())}), "
            f"{len(dialogues)} dialogues; retrieval settings: {settings_line(retrieval)}"
        )
        if args.agent:
            agent_id = args.agent
        else:
            agent = await create_agent(graph, AgentCreate(name=args.agent_name))
            agent_id, created_here = agent.id, True
        print(f"agent {agent_id} ({'created' if created_here else 'given'})")
        print(
            "   import: "
            + await import_memories(graph, embedder, retrieval, agent_id, memories, speakers)
        )
        episodes, agents = await episodes_in_database(settings)
        database = f"the database holds {episodes:,} episodes of {agents} agents"
        print(f"   {database} (fulltext statistics are index-wide)")

        results: list[Result] = []
        for variant in variants:
            results.append(run_bm25(bm25, dialogues, variant))
            for mode in modes:
                result = await run_credence(
                    graph, embedder, retrieval, agent_id, dialogues, variant, mode
                )
                results.append(result)
                for problem in result.errors[:3]:
                    print(f"   ERROR {variant}/{mode}: {problem}")
                if result.degraded:
                    print(f"   DEGRADED {variant}/{mode}: {result.degraded}")
                if result.dropped:
                    print(f"   {variant}/{mode}: {result.dropped} items dropped for the budget")
        print()
        print(f"== Recall over {len(dialogues)} dialogues (160 memories pooled, k = {TOP}) ==")
        print(text_table(RESULT_HEADER, results_rows(results)))
        for r in results:
            if r.returned and min(r.returned) < TOP:
                short = sum(1 for n in r.returned if n < TOP)
                print(f"   {r.variant}/{r.system}: fewer than {TOP} items for {short} dialogues")

        check = next((r for r in results if r.system == "BM25" and r.variant == "all"), None)
        check_line = ""
        if check is not None and len(dialogues) == 160:
            worst = max(abs(check.recall[k] - REFERENCE_BM25[k]) for k in KS)
            verdict = "reproduced" if worst <= REFERENCE_TOLERANCE else "NOT reproduced"
            check_line = (
                "BM25 check (query all): "
                + " / ".join(_fmt(check.recall[k]) for k in KS)
                + " vs SOURCE.md "
                + " / ".join(f"{REFERENCE_BM25[k]:.3f}" for k in KS)
                + f": largest difference {worst:.3f} -> {verdict}"
            )
            print(check_line)

        sweep_rows: list[list[str]] = []
        if args.sweep:
            # The sweep re-embeds the same queries nine times: it uses the configured vector
            # cache even under --no-vector-cache (same model, same vectors).
            sweep_embedder = shared_embedder(settings.embeddings)
            for variant in variants:
                for rrf_k in SWEEP_RRF_K:
                    for ratio in SWEEP_RATIOS:
                        trial = retrieval.model_copy(
                            update={"rrf_k": rrf_k, "vector_weight": ratio, "fulltext_weight": 1.0}
                        )
                        r = await run_credence(
                            graph, sweep_embedder, trial, agent_id, dialogues, variant, "fused"
                        )
                        sweep_rows.append(
                            [
                                variant,
                                f"{rrf_k:g}",
                                f"{ratio:g}",
                                "1",
                                *(_fmt(r.recall[k]) for k in KS),
                                _fmt(r.mrr),
                            ]
                        )
            print()
            print("== Fused mode: sensitivity to rrf_k and vector_weight / fulltext_weight ==")
            print(text_table(SWEEP_HEADER, sweep_rows))

        if args.markdown:
            parts = [
                f"{datetime.now(UTC):%Y-%m-%d}: {machine}.",
                "",
                f"Retrieval settings: `{settings_line(retrieval)}`; {len(dialogues)} dialogues, "
                f"160 memories pooled, k = {TOP}; {database}.",
                "",
                markdown_table(RESULT_HEADER, results_rows(results)),
            ]
            if check_line:
                parts += ["", check_line]
            if sweep_rows:
                parts += [
                    "",
                    "Fused mode, sensitivity:",
                    "",
                    markdown_table(SWEEP_HEADER, sweep_rows),
                ]
            args.markdown.write_text("\n".join(parts) + "\n", encoding="utf-8")
            print(f"\nmarkdown written to {args.markdown}")
    finally:
        if agent_id is not None and created_here and not args.keep:
            await delete_agent(graph, agent_id)
            print(f"\ndeleted the bench agent {agent_id} (--no-keep)")
        elif agent_id is not None:
            print(f"\nagent kept: {agent_id} (reuse with --agent {agent_id})")
        await graph.close()
    return 0


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Credence's episode retrieval (fulltext / vector / fused) on MADial-Bench "
        "(English), with a BM25 reference.",
    )
    parser.add_argument(
        "--data",
        type=Path,
        default=DEFAULT_DATA,
        help=f"folder holding {DIALOGUE_FILE} and {MEMORY_FILE} (default %(default)s, "
        "or $MADIAL_BENCH_DIR)",
    )
    parser.add_argument(
        "--query",
        action="append",
        metavar="VARIANT",
        help="query variant(s), repeatable or comma-separated: 'all' (every turn before the "
        "test turn) or 'last-N' (the last N turns); default all,last-1,last-2,last-3",
    )
    parser.add_argument(
        "--modes", default="fulltext,vector,fused", help="retrieval modes (default %(default)s)"
    )
    parser.add_argument("--rrf-k", type=float, help="override RetrievalSettings.rrf_k")
    parser.add_argument("--vector-weight", type=float, help="override vector_weight")
    parser.add_argument("--fulltext-weight", type=float, help="override fulltext_weight")
    parser.add_argument("--candidates", type=int, help="override candidates (per index)")
    parser.add_argument("--interference-penalty", type=float, help="override interference_penalty")
    parser.add_argument(
        "--set",
        action="append",
        metavar="FIELD=JSON",
        help="override any RetrievalSettings field, e.g. --set recency_bonus_7d=0",
    )
    parser.add_argument(
        "--sweep",
        action="store_true",
        help="also rank the fused mode over rrf_k in {10,30,60} x vector/fulltext weight ratio "
        "in {0.5,1,2}",
    )
    parser.add_argument("--markdown", type=Path, help="write the tables as markdown to this file")
    parser.add_argument(
        "--no-vector-cache",
        action="store_true",
        help="embed every text with the model (no sqlite vector cache), so query latency "
        "includes the model",
    )
    parser.add_argument(
        "--agent", help="reuse this agent (its imported memories) instead of a new one"
    )
    parser.add_argument(
        "--agent-name", default="madial-bench", help="name of the new agent (default %(default)s)"
    )
    parser.add_argument(
        "--keep",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="keep the agent this run created (default); --no-keep deletes it and its episodes",
    )
    parser.add_argument("--limit", type=int, default=0, help="only the first N dialogues (smoke)")
    return parser.parse_args(argv)


if __name__ == "__main__":
    sys.exit(asyncio.run(main(parse_args())))
