"""Belief-update latency against graph size (belief-engine issue; docs/performance.md §2).

On a generated SUPPORTS hierarchy (6 levels, fan-in 1-10, leaves at the bottom) in one agent,
with other agents' hierarchies in the same database, this measures through the real services:

- one outcome on a random leaf (``apply_outcome``: moral-asymmetry update + cascade 5 levels up);
- one contradicting piece of evidence on a random leaf (``apply_evidence``: tension + propagation
  3 hops up) and one reinforcing piece (strength + cascade 5 levels up);
- dissatisfaction (``compute_dissatisfaction``) over the whole agent;
- a batch of 1,000 contradictions on distinct leaves (where there are that many) in one
  ``apply_evidence`` call;

and, for the same hierarchy, the source design's per-turn cost: the whole belief graph as
NetworkX node-link JSON, loaded, updated (outcome + cascade with ``app.beliefs.formulas``) and
dumped again per update. It prints its figures; the test suite never runs it.

    .venv/bin/python bench/belief_updates.py                      # 1k, 10k, 100k
    .venv/bin/python bench/belief_updates.py --sizes 1000 --samples 50
    .venv/bin/python bench/belief_updates.py --keep               # leave the data in Neo4j
    .venv/bin/python bench/belief_updates.py --clean              # delete every bench- agent

Neo4j is the one the settings name (``CREDENCE_NEO4J_URI`` ..., default the local launcher's).
Every agent it creates has an id starting with ``bench-``; all of them are deleted at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import json
import os
import platform
import random
import statistics
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

import networkx as nx

from app.beliefs import formulas
from app.beliefs.dissatisfaction import compute_dissatisfaction
from app.beliefs.mechanics import Mechanics
from app.beliefs.models import EvidenceForBelief, OutcomeIn
from app.beliefs.updates import apply_evidence, apply_outcome
from app.config import get_settings
from app.graph.catalog import QueryCatalog
from app.graph.client import GraphClient
from app.graph.migrations import MigrationRunner

BENCH_CYPHER = Path(__file__).resolve().parent / "cypher"
DEPTH = 6
MAX_FAN_IN = 10
# Level sizes grow by the mean of a uniform 1..10 fan-in, so one belief has the same
# neighbourhood (and one update the same work) at every graph size.
GROWTH = 5.5
CATEGORIES = ("aesthetic", "contextual", "relational", "ethical")
BELIEF_BATCH = 5_000
EDGE_BATCH = 10_000
TARGET_UPDATE_P95_MS = 15.0
TARGET_BATCH_MS = 300.0
TARGET_DISSATISFACTION_MS = 50.0


# ---------------------------------------------------------------------------------------------
# The generated hierarchy


@dataclass
class Hierarchy:
    """Beliefs by index; ``parent[i]`` is the belief ``i`` SUPPORTS (-1 at the top level)."""

    ids: list[str]
    level: list[int]
    parent: list[int]
    weight: list[float]
    category: list[str]
    strength: list[float]
    importance: list[float]
    level_sizes: list[int]
    fan_in: list[int] = field(default_factory=list)

    @property
    def size(self) -> int:
        return len(self.ids)

    def leaves(self) -> list[int]:
        return [i for i, lvl in enumerate(self.level) if lvl == DEPTH - 1]

    def edges(self) -> list[tuple[int, int, float]]:
        return [(i, p, self.weight[i]) for i, p in enumerate(self.parent) if p >= 0]


def level_sizes(n: int) -> list[int]:
    """Sizes of the 6 levels (top first), growing by GROWTH, summing to ``n``."""
    total = sum(GROWTH**k for k in range(DEPTH))
    sizes = [max(1, round(n * GROWTH**k / total)) for k in range(DEPTH - 1)]
    sizes.append(n - sum(sizes))
    for upper, lower in itertools.pairwise(sizes):
        if not upper <= lower <= MAX_FAN_IN * upper:
            raise ValueError(f"{n} beliefs cannot make {DEPTH} levels with fan-in 1..{MAX_FAN_IN}")
    return sizes


def fan_ins(parents: int, children: int, rng: random.Random) -> list[int]:
    """How many children each parent gets: at least 1, at most MAX_FAN_IN, ``children`` in all."""
    counts = [1] * parents
    open_parents = list(range(parents))
    for _ in range(children - parents):
        slot = rng.randrange(len(open_parents))
        p = open_parents[slot]
        counts[p] += 1
        if counts[p] == MAX_FAN_IN:
            open_parents[slot] = open_parents[-1]
            open_parents.pop()
    return counts


def generate(n: int, rng: random.Random) -> Hierarchy:
    """A hierarchy of ``n`` beliefs; derived strengths are consistent with the cascade rule."""
    sizes = level_sizes(n)
    h = Hierarchy([], [], [], [], [], [], [], sizes)
    starts: list[int] = []
    for lvl, size in enumerate(sizes):
        starts.append(h.size)
        for _ in range(size):
            h.ids.append(str(uuid.uuid4()))
            h.level.append(lvl)
            h.parent.append(-1)
            h.weight.append(0.0)
            h.category.append(rng.choice(CATEGORIES))
            h.strength.append(rng.uniform(0.3, 0.95))
            h.importance.append(round(rng.uniform(0.2, 1.0), 3))
    for lvl in range(1, DEPTH):
        counts = fan_ins(sizes[lvl - 1], sizes[lvl], rng)
        h.fan_in.extend(counts)
        slots = [starts[lvl - 1] + p for p, count in enumerate(counts) for _ in range(count)]
        rng.shuffle(slots)
        for offset, parent in enumerate(slots):
            child = starts[lvl] + offset
            h.parent[child] = parent
            h.weight[child] = round(rng.uniform(0.1, 1.0), 3)
    # Bottom-up: every non-leaf holds Σ w·strength / Σ w of its supporters.
    sums: dict[int, list[float]] = {}
    for i in range(h.size - 1, -1, -1):
        if i in sums:
            weighted, total = sums.pop(i)
            h.strength[i] = weighted / total
        p = h.parent[i]
        if p >= 0:
            acc = sums.setdefault(p, [0.0, 0.0])
            acc[0] += h.weight[i] * h.strength[i]
            acc[1] += h.weight[i]
    return h


def belief_rows(h: Hierarchy, agent_id: str, m: Mechanics) -> list[dict[str, Any]]:
    return [
        {
            "id": h.ids[i],
            "statement": f"{agent_id} belief {i} at level {h.level[i]}: "
            f"{h.category[i]} practice {i % 97} holds for {i % 13} of the teams",
            "category": h.category[i],
            "strength": h.strength[i],
            "importance": h.importance[i],
            "is_core": h.level[i] == 0,
            "is_invalidated": formulas.is_invalidated(h.strength[i], h.category[i], m),
        }
        for i in range(h.size)
    ]


async def load(
    bench: GraphClient, agent_id: str, h: Hierarchy, m: Mechanics
) -> tuple[float, float]:
    """Writes the hierarchy; returns (seconds for beliefs, seconds for edges)."""
    rows = belief_rows(h, agent_id, m)
    started = time.perf_counter()
    for at in range(0, len(rows), BELIEF_BATCH):
        await bench.write(
            "load/create_beliefs", agent_id=agent_id, beliefs=rows[at : at + BELIEF_BATCH]
        )
    beliefs_s = time.perf_counter() - started
    edges = [{"source_id": h.ids[s], "target_id": h.ids[t], "weight": w} for s, t, w in h.edges()]
    started = time.perf_counter()
    for at in range(0, len(edges), EDGE_BATCH):
        await bench.write(
            "load/create_supports", agent_id=agent_id, edges=edges[at : at + EDGE_BATCH]
        )
    return beliefs_s, time.perf_counter() - started


# ---------------------------------------------------------------------------------------------
# Figures


@dataclass(frozen=True)
class Figures:
    samples: int
    p50: float
    p95: float
    max: float

    @classmethod
    def of(cls, ms: Sequence[float]) -> Figures:
        ordered = sorted(ms)
        p95 = statistics.quantiles(ordered, n=100, method="inclusive")[94] if len(ms) > 1 else ms[0]
        return cls(len(ms), statistics.median(ordered), p95, ordered[-1])

    def line(self) -> str:
        return (
            f"p50 {self.p50:8.2f}  p95 {self.p95:8.2f}  max {self.max:8.2f} ms  (n={self.samples})"
        )


async def timed_ms(call: Callable[[], Awaitable[Any]]) -> float:
    started = time.perf_counter()
    await call()
    return (time.perf_counter() - started) * 1000.0


@dataclass
class Ours:
    size: int
    load_beliefs_s: float
    load_edges_s: float
    outcome: Figures
    contradiction: Figures
    reinforcement: Figures
    dissatisfaction: Figures
    batch_ms: list[float]
    cascade_moves: float
    propagated: float


@dataclass
class Baseline:
    size: int
    json_mb: float
    update: Figures


class LeafPicker:
    """Random leaves, with a local copy of their strengths so each outcome really moves one."""

    def __init__(self, h: Hierarchy, rng: random.Random) -> None:
        self.h = h
        self.rng = rng
        self.leaves = h.leaves()
        self.strength = {i: h.strength[i] for i in self.leaves}

    def pick(self) -> int:
        return self.rng.choice(self.leaves)

    def outcome_for(self, leaf: int) -> str:
        return "success" if self.strength[leaf] < 0.8 else "failure"

    def batch(self, count: int) -> list[int]:
        """``count`` leaves, all different when there are enough of them."""
        if count <= len(self.leaves):
            return self.rng.sample(self.leaves, count)
        return self.rng.choices(self.leaves, k=count)


def contradiction(belief_id: str) -> EvidenceForBelief:
    return EvidenceForBelief(
        belief_id=belief_id, text="bench: the opposite was observed", stance="contradicting"
    )


def reinforcement(belief_id: str) -> EvidenceForBelief:
    return EvidenceForBelief(
        belief_id=belief_id, text="bench: it held again", stance="reinforcing", confidence=0.8
    )


async def reset_tension(graph: GraphClient, bench: GraphClient, agent_id: str) -> None:
    """Sets every tension back to 0 (not measured) and re-derives the dissatisfaction sums."""
    await bench.write("load/reset_tension", agent_id=agent_id)
    await graph.write("beliefs/dissatisfaction/recompute_sums", agent_id=agent_id)


async def measure_ours(
    graph: GraphClient,
    bench: GraphClient,
    m: Mechanics,
    agent_id: str,
    h: Hierarchy,
    load_s: tuple[float, float],
    samples: int,
    batch_size: int,
    batch_repeats: int,
    rng: random.Random,
) -> Ours:
    picker = LeafPicker(h, rng)
    moves: list[int] = []
    propagated: list[int] = []

    async def outcome() -> None:
        leaf = picker.pick()
        result = await apply_outcome(
            graph, m, agent_id, h.ids[leaf], OutcomeIn(outcome=picker.outcome_for(leaf))
        )
        picker.strength[leaf] = result.new_strength
        moves.append(len(result.cascade))

    async def contradict() -> None:
        applied = await apply_evidence(graph, m, agent_id, [contradiction(h.ids[picker.pick()])])
        propagated.append(len(applied.propagated))

    async def reinforce() -> None:
        applied = await apply_evidence(graph, m, agent_id, [reinforcement(h.ids[picker.pick()])])
        moves.append(len(applied.cascade))

    async def dissatisfaction() -> None:
        await compute_dissatisfaction(graph, m, agent_id)

    # Warm-up: plans cached and the server's hot paths compiled before anything is measured.
    for call in (outcome, contradict, reinforce):
        for _ in range(max(50, samples // 4)):
            await call()
    for _ in range(10):
        await dissatisfaction()
    warm_batch = [contradiction(h.ids[i]) for i in picker.batch(batch_size)]
    await apply_evidence(graph, m, agent_id, warm_batch)
    await reset_tension(graph, bench, agent_id)
    moves.clear()
    propagated.clear()
    gc.collect()
    figures: dict[str, Figures] = {}
    for name, call in (
        ("outcome", outcome),
        ("contradiction", contradict),
        ("reinforcement", reinforce),
        ("dissatisfaction", dissatisfaction),
    ):
        figures[name] = Figures.of([await timed_ms(call) for _ in range(samples)])

    batch_ms: list[float] = []
    for _ in range(batch_repeats):
        await reset_tension(graph, bench, agent_id)
        items = [contradiction(h.ids[i]) for i in picker.batch(batch_size)]
        batch_ms.append(await timed_ms(partial(apply_evidence, graph, m, agent_id, items)))
    return Ours(
        size=h.size,
        load_beliefs_s=load_s[0],
        load_edges_s=load_s[1],
        outcome=figures["outcome"],
        contradiction=figures["contradiction"],
        reinforcement=figures["reinforcement"],
        dissatisfaction=figures["dissatisfaction"],
        batch_ms=batch_ms,
        cascade_moves=statistics.mean(moves) if moves else 0.0,
        propagated=statistics.mean(propagated) if propagated else 0.0,
    )


# ---------------------------------------------------------------------------------------------
# The source design's way: the whole graph through JSON and NetworkX every update


def networkx_graph(h: Hierarchy, agent_id: str, m: Mechanics) -> nx.DiGraph:
    g = nx.DiGraph()
    created = datetime.now(UTC).isoformat()
    for row in belief_rows(h, agent_id, m):
        g.add_node(
            row["id"],
            statement=row["statement"],
            category=row["category"],
            strength=row["strength"],
            tension=0.0,
            importance=row["importance"],
            is_core=row["is_core"],
            is_immutable=False,
            is_active=True,
            is_distrusted=False,
            is_invalidated=row["is_invalidated"],
            reinforcement_count=0,
            source="pack",
            created_at=created,
        )
    for s, t, w in h.edges():
        g.add_edge(h.ids[s], h.ids[t], type="SUPPORTS", weight=w)
    return g


def baseline_update(text: str, belief_id: str, outcome: str, m: Mechanics) -> str:
    """One turn of the source design: JSON -> graph, outcome + cascade, graph -> JSON."""
    g = nx.node_link_graph(json.loads(text), directed=True, edges="edges")
    node = g.nodes[belief_id]
    node["strength"] = formulas.outcome_update(node["strength"], outcome, "neutral", 0.5, m)
    node["is_invalidated"] = formulas.is_invalidated(node["strength"], node["category"], m)
    # Cascade in dependency order (longest distance from the changed belief).
    distance: dict[str, int] = {}
    frontier, depth = [belief_id], 0
    while frontier:
        depth += 1
        frontier = [t for s in frontier for t in g.successors(s)]
        for t in frontier:
            distance[t] = max(distance.get(t, 0), depth)
    for above in sorted(distance, key=lambda b: (distance[b], b)):
        derived = formulas.derived_strength(
            (g.edges[s, above]["weight"], g.nodes[s]["strength"])
            for s in g.predecessors(above)
            if g.nodes[s]["is_active"]
        )
        if derived is not None:
            g.nodes[above]["strength"] = derived
            g.nodes[above]["is_invalidated"] = formulas.is_invalidated(
                derived, g.nodes[above]["category"], m
            )
    return json.dumps(nx.node_link_data(g, edges="edges"))


def measure_baseline(
    h: Hierarchy, agent_id: str, m: Mechanics, samples: int, rng: random.Random
) -> Baseline:
    text = json.dumps(nx.node_link_data(networkx_graph(h, agent_id, m), edges="edges"))
    picker = LeafPicker(h, rng)
    text = baseline_update(text, h.ids[picker.pick()], "success", m)  # warm-up
    ms: list[float] = []
    for _ in range(samples):
        leaf = picker.pick()
        started = time.perf_counter()
        text = baseline_update(text, h.ids[leaf], picker.outcome_for(leaf), m)
        ms.append((time.perf_counter() - started) * 1000.0)
    return Baseline(h.size, len(text.encode()) / 1e6, Figures.of(ms))


# ---------------------------------------------------------------------------------------------
# Set-up and clean-up


async def delete_agent(bench: GraphClient, agent_id: str) -> None:
    await bench.run_autocommit(
        bench.catalog.get("cleanup/delete_agent").text,
        action=f"deleting bench agent {agent_id}",
        agent_id=agent_id,
    )


async def delete_all_bench_agents(bench: GraphClient) -> list[str]:
    ids = [row["id"] for row in await bench.read("cleanup/list_bench_agents")]
    for agent_id in ids:
        await delete_agent(bench, agent_id)
    return ids


async def create_other_agents(
    bench: GraphClient, run: str, count: int, beliefs: int, m: Mechanics, rng: random.Random
) -> list[str]:
    ids = [f"bench-{run}-other-{k:02d}" for k in range(count)]
    if not ids:
        return ids
    await bench.write(
        "load/create_agents", agents=[{"id": a, "name": f"bench other {a}"} for a in ids]
    )
    for agent_id in ids:
        await load(bench, agent_id, generate(beliefs, rng), m)
    return ids


def ratio(slow: float, fast: float) -> str:
    value = slow / fast
    return f"{value:,.1f}" if value < 10 else f"{value:,.0f}"


def verdict(value: float, target: float) -> str:
    return "met" if value <= target else "MISSED"


def report(ours: list[Ours], baselines: list[Baseline], args: argparse.Namespace) -> None:
    print()
    print("== Ours (Neo4j, real services), per operation on a random leaf ==")
    for o in ours:
        total = o.load_beliefs_s + o.load_edges_s
        print(
            f"-- {o.size:,} beliefs  (load: beliefs {o.load_beliefs_s:.1f} s, edges "
            f"{o.load_edges_s:.1f} s = {o.size / total:,.0f} beliefs/s with their edges)"
        )
        print(f"   outcome + cascade        {o.outcome.line()}")
        print(f"   contradiction + propag.  {o.contradiction.line()}")
        print(f"   reinforcement + cascade  {o.reinforcement.line()}")
        print(f"   dissatisfaction          {o.dissatisfaction.line()}")
        batch = ", ".join(f"{ms:.0f}" for ms in o.batch_ms)
        print(
            f"   {args.batch:,} contradictions in one batch: {batch} ms "
            f"(median {statistics.median(o.batch_ms):.0f})"
        )
        print(
            f"   mean cascade moves per strength update {o.cascade_moves:.1f}, "
            f"mean beliefs reached by propagation {o.propagated:.1f}"
        )
    print()
    print("== Source design (NetworkX node-link JSON loaded and dumped per update) ==")
    for b in baselines:
        print(f"-- {b.size:,} beliefs  (JSON {b.json_mb:.1f} MB)  {b.update.line()}")
    print()
    print("== Ratio per update (source design / ours, outcome + cascade) ==")
    by_size = {o.size: o for o in ours}
    for b in baselines:
        same_size = by_size.get(b.size)
        if same_size is not None:
            print(
                f"   {b.size:>7,} beliefs: ours p50 {same_size.outcome.p50:.2f} ms, source p50 "
                f"{b.update.p50:.1f} ms -> x{ratio(b.update.p50, same_size.outcome.p50)} (p50), "
                f"x{ratio(b.update.p95, same_size.outcome.p95)} (p95)"
            )
    if ours:
        big = max(ours, key=lambda o: o.size)
        worst_update = max(big.outcome.p95, big.contradiction.p95, big.reinforcement.p95)
        batch_median = statistics.median(big.batch_ms)
        print()
        print(f"== Targets at {big.size:,} beliefs (docs/performance.md §2) ==")
        print(
            f"   update p95 <= {TARGET_UPDATE_P95_MS:.0f} ms: worst of the three "
            f"{worst_update:.2f} ms -> {verdict(worst_update, TARGET_UPDATE_P95_MS)}"
        )
        print(
            f"   {args.batch:,} contradictions <= {TARGET_BATCH_MS:.0f} ms: median "
            f"{batch_median:.0f} ms -> {verdict(batch_median, TARGET_BATCH_MS)}"
        )
        print(
            f"   dissatisfaction <= {TARGET_DISSATISFACTION_MS:.0f} ms (p95): "
            f"{big.dissatisfaction.p95:.1f} ms -> "
            f"{verdict(big.dissatisfaction.p95, TARGET_DISSATISFACTION_MS)}"
        )


async def main(args: argparse.Namespace) -> None:
    settings = get_settings()
    m = settings.mechanics
    graph = GraphClient.from_settings(settings.neo4j)
    bench = GraphClient.from_settings(settings.neo4j, QueryCatalog(BENCH_CYPHER))
    try:
        info = await graph.server_info()
        if args.clean:
            deleted = await delete_all_bench_agents(bench)
            print(f"deleted {len(deleted)} bench agents: {', '.join(deleted) or '-'}")
            return
        pending = [s for s in await MigrationRunner(graph).status() if s.state != "applied"]
        if pending:
            raise SystemExit(
                f"migrations not applied ({pending[0].file}): run `credence db migrate`"
            )
        rng = random.Random(args.seed)
        run = uuid.uuid4().hex[:8]
        print(
            f"Neo4j {info.version} {info.edition} at {info.address}; {os.cpu_count()} cores; "
            f"Python {platform.python_version()}, networkx {nx.__version__}; run bench-{run}"
        )
        print(
            f"hierarchy: {DEPTH} levels, fan-in 1..{MAX_FAN_IN} (mean ~{GROWTH}), leaves at the "
            f"bottom; {args.other_agents} other agents with {args.other_beliefs:,} beliefs each"
        )
        agents: list[str] = []
        try:
            started = time.perf_counter()
            agents += await create_other_agents(
                bench, run, args.other_agents, args.other_beliefs, m, rng
            )
            print(
                f"loaded {len(agents)} other agents x {args.other_beliefs:,} beliefs in "
                f"{time.perf_counter() - started:.1f} s"
            )
            ours: list[Ours] = []
            baselines: list[Baseline] = []
            for size in args.sizes:
                agent_id = f"bench-{run}-main-{size}"
                h = generate(size, rng)
                print(
                    f"[{size:,}] levels {h.level_sizes}, fan-in max {max(h.fan_in)} mean "
                    f"{statistics.mean(h.fan_in):.1f}; loading ...",
                    flush=True,
                )
                await bench.write(
                    "load/create_agents", agents=[{"id": agent_id, "name": "bench main"}]
                )
                agents.append(agent_id)
                load_s = await load(bench, agent_id, h, m)
                # The bulk load bypasses the services: give the agent its degrees and
                # dissatisfaction sums the way a bulk loader must.
                await graph.write("beliefs/dissatisfaction/recompute_sums", agent_id=agent_id)
                print(f"[{size:,}] loaded in {sum(load_s):.1f} s; measuring ...", flush=True)
                result = await measure_ours(
                    graph,
                    bench,
                    m,
                    agent_id,
                    h,
                    load_s,
                    args.samples,
                    args.batch,
                    args.batch_repeats,
                    rng,
                )
                ours.append(result)
                print(f"[{size:,}] ours: outcome {result.outcome.line()}", flush=True)
                if not args.keep:
                    await delete_agent(bench, agent_id)
                    agents.remove(agent_id)
                if args.baseline_samples > 0:
                    baseline = measure_baseline(h, agent_id, m, args.baseline_samples, rng)
                    baselines.append(baseline)
                    print(f"[{size:,}] source design: {baseline.update.line()}", flush=True)
                del h
                gc.collect()
            report(ours, baselines, args)
        finally:
            if args.keep:
                print(f"\n--keep: left {len(agents)} bench agents (delete with --clean)")
            else:
                started = time.perf_counter()
                for agent_id in agents:
                    await delete_agent(bench, agent_id)
                print(f"\ndeleted the bench data in {time.perf_counter() - started:.1f} s")
    finally:
        await bench.close()
        await graph.close()


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes",
        type=lambda text: [int(part) for part in text.split(",") if part],
        default=[1_000, 10_000, 100_000],
        help="beliefs in the measured agent, comma-separated (default 1000,10000,100000)",
    )
    parser.add_argument("--samples", type=int, default=200, help="measured calls per operation")
    parser.add_argument("--other-agents", type=int, default=10, help="agents present besides")
    parser.add_argument("--other-beliefs", type=int, default=10_000, help="beliefs each")
    parser.add_argument("--batch", type=int, default=1_000, help="contradictions in one batch")
    parser.add_argument("--batch-repeats", type=int, default=5, help="batches measured")
    parser.add_argument(
        "--baseline-samples",
        type=int,
        default=20,
        help="updates measured per size for the source design (0: skip it)",
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", action="store_true", help="skip the clean-up")
    parser.add_argument(
        "--clean", action="store_true", help="only delete every bench- agent, then exit"
    )
    return parser.parse_args(argv)


if __name__ == "__main__":
    asyncio.run(main(parse_args()))
