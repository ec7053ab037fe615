"""How the retrieval defaults were chosen: one grid of settings, scored on LoCoMo and MADial at
once, with leave-one-out so that the reported figures are not the ones the choice was made on.

Both data sets are imported through the real import (agents found again by name, so a second run
only scores): the 3 LoCoMo development conversations (``retrieval_locomo.py``: one agent each)
and MADial-Bench's 160 memories (``retrieval_madial.py``: one agent, queries = the whole dialogue
before the test turn). Every setting of the grid ranks every question through ``build_context``
(episodes section, k = 10; R@1, MRR@10, R@5 and R@10 printed, R@10 chooses). Then:

- **leave one conversation out**: for each LoCoMo conversation, the setting that is best on the
  other two conversations and MADial (objective: the mean of LoCoMo R@10 and MADial R@10) is
  scored on the held-out conversation; the held-out figures are what this reports;
- **leave MADial out**: the setting best on LoCoMo alone, scored on MADial;
- **leave a MADial fold out** (``--madial-folds``): MADial's dialogues in K interleaved folds,
  each scored with the setting best on LoCoMo and the other folds (for settings that move only
  long queries, which LoCoMo cannot choose);
- **the default**: the setting best on everything, with its figures, and the rank the current
  default holds in the grid.

Recency is measured from the clock each question is asked at (``--clock``): ``end`` (the default)
asks every question right after the last turn of its data (a LoCoMo conversation's last turn, the
latest MADial memory), so the turns of the last 7 and 30 days are those of the data's last weeks;
``wall`` asks them now, when no turn of the data is recent.

    .venv/bin/python bench/retrieval_tuning.py
    .venv/bin/python bench/retrieval_tuning.py \\
        --grid vector_share=0.4,0.5,0.6 --grid neighbour_weight=0,0.4
    .venv/bin/python bench/retrieval_tuning.py --try "" \\
        --try "recency_bonus_7d=0;recency_bonus_30d=0" --try "recency=additive;score_cap=1"
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import itertools
import json
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from retrieval_locomo import (
    CATEGORIES,
    Conversation,
    find_agent,
    import_turns,
    load_conversations,
)
from retrieval_locomo import DEFAULT_DATA as LOCOMO_DATA

# Re-exported (`as` the same name): retrieval_probes.py patches them in this module.
from retrieval_locomo import (
    agent_for as agent_for,
)
from retrieval_madial import DEFAULT_DATA as MADIAL_DATA
from retrieval_madial import (
    DIALOGUE_FILE,
    MEMORY_FILE,
    Dialogue,
    import_memories,
    load_dialogues,
    load_memories,
    query_text,
    recall_at,
    reciprocal_rank,
    speakers_of,
)

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.config import Settings, get_settings
from app.embeddings.embedder import Embedder, shared_embedder
from app.graph.client import GraphClient
from app.memory.episode_subjects import link_stored_episodes
from app.retrieval.context import build_context as build_context  # as agent_for
from app.retrieval.models import ContextRequest
from app.retrieval.settings import RetrievalSettings

MADIAL_AGENT = "madial-tuning"
DEFAULT_GRID = {
    "vector_share": [0.3, 0.4, 0.5, 0.6, 0.7],
    "neighbour_weight": [0.0, 0.2, 0.4, 0.6],
    "interference_penalty": [0.0, 0.5],
}


@dataclass(frozen=True)
class Query:
    """One question of either data set: where it is asked, what it asks, what is relevant."""

    dataset: str  # "locomo" or "madial"
    group: str  # the LoCoMo conversation, or "madial"
    category: str  # the LoCoMo category ("multi-hop" ...), or "madial"
    agent_id: str
    text: str
    relevant: frozenset[str]
    asked_at: datetime | None = None  # None: the wall clock


@dataclass
class Scores:
    """R@1, R@5, R@10 and the reciprocal rank (within the top 10) of each query under one
    setting."""

    at1: list[float]
    at5: list[float]
    at10: list[float]
    rr: list[float]

    def mean(self, keep: Sequence[int], k: int) -> float:
        """Mean R@k (k 1, 5 or 10; 0: the mean reciprocal rank) over the queries ``keep``."""
        values = {0: self.rr, 1: self.at1, 5: self.at5}.get(k, self.at10)
        return statistics.fmean(values[i] for i in keep) if keep else 0.0


async def locomo_queries(
    graph: GraphClient,
    settings: Settings,
    embedder: Embedder,
    retrieval: RetrievalSettings,
    clock: str,
) -> list[Query]:
    queries: list[Query] = []
    for conversation in load_conversations(LOCOMO_DATA):
        agent_id, _ = await agent_for(graph, settings, conversation, fresh=False)
        await import_turns(graph, embedder, retrieval, agent_id, conversation)
        # Agents imported before episodes were linked to their subjects get their edges once.
        await link_stored_episodes(graph, agent_id)
        queries += _conversation_queries(conversation, agent_id, clock)
    return queries


def _conversation_queries(conversation: Conversation, agent_id: str, clock: str) -> list[Query]:
    # Asked right after the conversation's last turn (``--clock end``).
    asked_at = max(t.occurred_at for t in conversation.turns) if clock == "end" else None
    return [
        Query(
            "locomo",
            conversation.sample_id,
            CATEGORIES[q.category],
            agent_id,
            q.text,
            q.relevant,
            asked_at,
        )
        for q in conversation.questions
    ]


async def madial_queries(
    graph: GraphClient,
    settings: Settings,
    embedder: Embedder,
    retrieval: RetrievalSettings,
    clock: str,
) -> list[Query]:
    memories = load_memories(MADIAL_DATA / MEMORY_FILE)
    dialogues: list[Dialogue] = load_dialogues(MADIAL_DATA / DIALOGUE_FILE)
    agent_id = await find_agent(settings, MADIAL_AGENT)
    if agent_id is None:
        agent_id = (await create_agent(graph, AgentCreate(name=MADIAL_AGENT))).id
        speakers = speakers_of(memories, dialogues)
        await import_memories(graph, embedder, retrieval, agent_id, memories, speakers)
    await link_stored_episodes(graph, agent_id)
    # Asked on the day of the latest memory (``--clock end``; the dialogues carry no date).
    last = max(memory.day for memory in memories)
    asked_at = datetime.combine(last, time(23, 59), tzinfo=UTC) if clock == "end" else None
    return [
        Query("madial", "madial", "madial", agent_id, query_text(d, "all"), d.relevant, asked_at)
        for d in dialogues
    ]


async def score_setting(
    graph: GraphClient,
    embedder: Embedder,
    retrieval: RetrievalSettings,
    queries: list[Query],
    concurrency: int = 1,
) -> Scores:
    """R@5 and R@10 of every query (``concurrency`` of them asked at once)."""
    gate = asyncio.Semaphore(concurrency)

    async def ranked(query: Query) -> list[str]:
        request = ContextRequest(q=query.text, k=10, sections=["episodes"])
        async with gate:
            context = await build_context(
                graph, embedder, retrieval, query.agent_id, request, now=query.asked_at
            )
        section = context.sections["episodes"]
        if section.error:
            raise SystemExit(f"episode section failed: {section.error}")
        return [str(item["external_id"]) for item in section.items]

    rankings = await asyncio.gather(*(ranked(query) for query in queries))
    pairs = list(zip(queries, rankings, strict=True))
    return Scores(
        [recall_at(q.relevant, r, 1) for q, r in pairs],
        [recall_at(q.relevant, r, 5) for q, r in pairs],
        [recall_at(q.relevant, r, 10) for q, r in pairs],
        [reciprocal_rank(q.relevant, r, 10) for q, r in pairs],
    )


def load_cache(path: str | None) -> dict[str, Any]:
    """Scores of settings measured before (``--cache``), keyed by setting and clock."""
    if path is None or not Path(path).exists():
        return {}
    loaded: dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))
    return loaded


def save_cache(path: str | None, cache: dict[str, Any]) -> None:
    if path is not None:
        Path(path).write_text(json.dumps(cache), encoding="utf-8")


def cache_key(setting: dict[str, Any], clock: str) -> str:
    return json.dumps({"setting": setting, "clock": clock}, sort_keys=True)


def objective(scores: Scores, locomo: Sequence[int], madial: Sequence[int]) -> float:
    """What a setting is chosen by: LoCoMo R@10 and MADial R@10, weighed alike."""
    parts = [scores.mean(keep, 10) for keep in (locomo, madial) if keep]
    return statistics.fmean(parts)


def per_category(scores: Scores, queries: Sequence[Query]) -> str:
    """R@10 of each LoCoMo category (all conversations) under one setting."""
    by: dict[str, list[int]] = {}
    for i, query in enumerate(queries):
        if query.dataset == "locomo":
            by.setdefault(query.category, []).append(i)
    return ", ".join(f"{name} {scores.mean(keep, 10):.3f}" for name, keep in sorted(by.items()))


def parse_grid(items: Sequence[str] | None) -> dict[str, list[Any]]:
    if not items:
        return DEFAULT_GRID
    grid: dict[str, list[Any]] = {}
    for item in items:
        name, _, values = item.partition("=")
        grid[_field(name, f"--grid {item}")] = [_value(v) for v in values.split(",")]
    return grid


def parse_tries(items: Sequence[str]) -> list[dict[str, Any]]:
    """``--try "a=1;b=x"``: one setting each (an empty one: the defaults)."""
    settings: list[dict[str, Any]] = []
    for item in items:
        setting: dict[str, Any] = {}
        for part in filter(None, item.split(";")):
            name, _, value = part.partition("=")
            setting[_field(name, f"--try {item}")] = _value(value)
        settings.append(setting)
    return settings


def _field(name: str, where: str) -> str:
    if name not in RetrievalSettings.model_fields:
        raise SystemExit(f"{where}: RetrievalSettings has no field {name!r}")
    return name


def _value(text: str) -> Any:
    """A JSON value (numbers, null, true), else the text itself ("additive")."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def label(setting: dict[str, Any]) -> str:
    return " ".join(
        f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in setting.items()
    )


def figures(scores: Scores, locomo: Sequence[int], madial: Sequence[int]) -> str:
    return (
        f"LoCoMo R@1 {scores.mean(locomo, 1):.3f} MRR {scores.mean(locomo, 0):.3f} "
        f"R@5 {scores.mean(locomo, 5):.3f} R@10 {scores.mean(locomo, 10):.3f}   "
        f"MADial R@1 {scores.mean(madial, 1):.3f} MRR {scores.mean(madial, 0):.3f} "
        f"R@5 {scores.mean(madial, 5):.3f} R@10 {scores.mean(madial, 10):.3f}"
    )


async def main(args: argparse.Namespace) -> int:
    settings = get_settings()
    base = settings.retrieval
    embedder = shared_embedder(settings.embeddings)
    graph = GraphClient.from_settings(settings.neo4j)
    try:
        queries = await locomo_queries(graph, settings, embedder, base, args.clock)
        queries += await madial_queries(graph, settings, embedder, base, args.clock)
        groups: dict[str, list[int]] = {}
        for i, query in enumerate(queries):
            groups.setdefault(query.group, []).append(i)
        conversations = sorted(g for g in groups if g != "madial")
        locomo_all = [i for g in conversations for i in groups[g]]
        if args.tries:
            settings_grid = parse_tries(args.tries)
        else:
            grid = parse_grid(args.grid)
            settings_grid = [
                dict(zip(grid, values, strict=True)) for values in itertools.product(*grid.values())
            ]
        print(
            f"{len(settings_grid)} settings x {len(queries)} queries "
            f"(LoCoMo {len(locomo_all)}, MADial {len(groups['madial'])})"
        )
        results: list[tuple[dict[str, Any], Scores]] = []
        cache = load_cache(args.cache)
        for setting in settings_grid:
            key = cache_key(setting, args.clock)
            cached = cache.get(key, {})
            if "at1" in cached and len(cached["at10"]) == len(queries):
                scores = Scores(cached["at1"], cached["at5"], cached["at10"], cached["rr"])
            else:
                retrieval = base.model_copy(update=setting)
                scores = await score_setting(graph, embedder, retrieval, queries, args.concurrency)
                cache[key] = dataclasses.asdict(scores)
                save_cache(args.cache, cache)
            results.append((setting, scores))
            print(f"  {label(setting):60s} {figures(scores, locomo_all, groups['madial'])}")
            print(f"  {'':60s} R@10 {per_category(scores, queries)}")
        report(results, queries, base, args.madial_folds)
    finally:
        await graph.close()
    return 0


def report(
    results: Sequence[tuple[dict[str, Any], Scores]],
    queries: Sequence[Query],
    base: RetrievalSettings,
    folds: int,
) -> None:
    """The held-out figures of choosing among ``results`` (leave one conversation out, leave
    MADial out, MADial by folds) and the setting best on everything."""
    groups: dict[str, list[int]] = {}
    for i, query in enumerate(queries):
        groups.setdefault(query.group, []).append(i)
    conversations = sorted(g for g in groups if g != "madial")
    locomo_all = [i for g in conversations for i in groups[g]]
    print("\nleave one conversation out (chosen on the other two + MADial, scored held out):")
    held1: list[float] = []
    held_rr: list[float] = []
    held5: list[float] = []
    held10: list[float] = []
    for held in conversations:
        train = [i for g in conversations if g != held for i in groups[g]]
        chosen, scores = max(results, key=lambda r: objective(r[1], train, groups["madial"]))
        r5, r10 = scores.mean(groups[held], 5), scores.mean(groups[held], 10)
        held1 += [scores.at1[i] for i in groups[held]]
        held_rr += [scores.rr[i] for i in groups[held]]
        held5 += [scores.at5[i] for i in groups[held]]
        held10 += [scores.at10[i] for i in groups[held]]
        print(f"  {held}: chose {label(chosen)} -> held-out R@5 {r5:.3f} R@10 {r10:.3f}")
    print(
        f"  all held-out questions: R@1 {statistics.fmean(held1):.3f} "
        f"MRR {statistics.fmean(held_rr):.3f} R@5 {statistics.fmean(held5):.3f} "
        f"R@10 {statistics.fmean(held10):.3f}"
    )
    held_by_category: dict[str, list[float]] = {}
    for held in conversations:
        train = [i for g in conversations if g != held for i in groups[g]]
        _, scores = max(results, key=lambda r: objective(r[1], train, groups["madial"]))
        for i in groups[held]:
            held_by_category.setdefault(queries[i].category, []).append(scores.at10[i])
    print(
        "  held-out R@10 per category: "
        + ", ".join(
            f"{name} {statistics.fmean(values):.3f} ({len(values)})"
            for name, values in sorted(held_by_category.items())
        )
    )
    chosen, scores = max(results, key=lambda r: objective(r[1], locomo_all, []))
    print(
        f"leave MADial out: chose {label(chosen)} on LoCoMo -> MADial R@5 "
        f"{scores.mean(groups['madial'], 5):.3f} R@10 {scores.mean(groups['madial'], 10):.3f}"
    )
    if folds > 1:
        madial_folds(results, locomo_all, groups["madial"], folds)
    ranked = sorted(results, key=lambda r: -objective(r[1], locomo_all, groups["madial"]))
    best, scores = ranked[0]
    print(f"best on everything: {label(best)}: {figures(scores, locomo_all, groups['madial'])}")
    position = next(
        (
            i
            for i, (s, _) in enumerate(ranked)
            if all(getattr(base, k, None) == v for k, v in s.items())
        ),
        None,
    )
    if position is not None:
        current = label(ranked[position][0]) or "the defaults"
        print(f"the current default ({current}) ranks {position + 1} of {len(ranked)}")


def madial_folds(
    results: Sequence[tuple[dict[str, Any], Scores]],
    locomo: Sequence[int],
    madial: Sequence[int],
    folds: int,
) -> None:
    """Leave part of MADial out: its dialogues in ``folds`` interleaved folds; for each, the
    setting best on LoCoMo and the other folds, scored on the held-out fold. What a setting that
    moves only long queries (LoCoMo's questions are short) is honestly worth on MADial."""
    print(f"leave a MADial fold out ({folds} folds; chosen on LoCoMo + the other folds):")
    held5: list[float] = []
    held10: list[float] = []
    for fold in range(folds):
        held = [i for n, i in enumerate(madial) if n % folds == fold]
        train = [i for n, i in enumerate(madial) if n % folds != fold]
        chosen, scores = max(results, key=lambda r: objective(r[1], locomo, train))
        held5 += [scores.at5[i] for i in held]
        held10 += [scores.at10[i] for i in held]
        print(f"  fold {fold}: chose {label(chosen) or 'the defaults'}")
    print(
        f"  all held-out dialogues: R@5 {statistics.fmean(held5):.3f} "
        f"R@10 {statistics.fmean(held10):.3f}"
    )


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--grid",
        action="append",
        metavar="FIELD=V1,V2,...",
        help="a RetrievalSettings field and its values (JSON each); repeatable; replaces the "
        "default grid",
    )
    parser.add_argument(
        "--try",
        dest="tries",
        action="append",
        metavar="FIELD=V;FIELD=V",
        help="one setting to score (fields separated by ';'; \"\": the defaults); repeatable; "
        "replaces --grid",
    )
    parser.add_argument(
        "--concurrency", type=int, default=1, help="questions asked at once (default 1)"
    )
    parser.add_argument(
        "--cache",
        metavar="PATH",
        help="a JSON file of the scores of settings measured before (same data, same code, same "
        "environment): read, and written after each new setting",
    )
    parser.add_argument(
        "--madial-folds",
        type=int,
        default=5,
        metavar="K",
        help="also leave each of K interleaved folds of MADial out (default 5; 1: not)",
    )
    parser.add_argument(
        "--clock",
        choices=("end", "wall"),
        default="end",
        help="when the questions are asked: right after the data's last turn (end) or now (wall)",
    )
    return parser.parse_args(argv)


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(parse_args())))
