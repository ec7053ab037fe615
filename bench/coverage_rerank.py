"""Would re-ranking a longer list by what its turns are about put more of a several-things
question's evidence in the top ten? An offline probe (issue 22, sixth round), not a setting.

Every question of ``retrieval_tuning.py`` (LoCoMo's 3 development conversations, MADial) is
ranked once by ``build_context`` with the current defaults and ``k = --depth`` (30); each
listed episode's ``MENTIONS`` subjects (names, topics: ``app/memory/episode_subjects.py``) are
read from the graph. Then, for the questions ``asks_for_several`` reads as asking for several
things (short questions only, as the episode search does), the top ten are chosen again from
the list by a greedy selection:

- ``novelty λ``: each slot goes to the turn with the best ``score / top score + λ × the share of
  its subjects (those the question does not name) no chosen turn has``;
- ``quota q``: at most ``q`` turns per session in the ten before the rest, best first;
- ``fulltext β`` / ``own-turn β``: the list re-ordered by ``score / top score + β ×`` that
  score of the row;
- the ceiling: every evidence turn of the list first;

and the R@10 of every LoCoMo category and of MADial is printed for each, beside the list as it
is (its first ten), with leave-one-conversation-out over the grid as ``retrieval_tuning.py``
does it, and a description of ranks 11-30 (evidence turns against the others). Every other
question keeps its ten, so single-hop and adversarial move only where the
detector fires on them.

    PYTHONPATH=. .venv/bin/python bench/coverage_rerank.py
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from probe_lists import Row, probe_session
from retrieval_madial import recall_at
from retrieval_tuning import Query

from app.retrieval.coverage import question_subjects
from app.text.several_answers import asks_for_several

Rerank = Callable[[list[Row], set[str]], list[Row]]


def novelty(weight: float, session: bool = False) -> Rerank:
    def _keys(row: Row, asked: set[str]) -> set[str]:
        extra = {f"session:{row.get('session')}"} if session else set()
        return (set(row["keys"]) - asked) | extra

    def rerank(rows: list[Row], asked: set[str]) -> list[Row]:
        def _gain(row: Row, seen: frozenset[str]) -> float:
            keys = _keys(row, asked)
            new = len(keys - seen) / len(keys) if keys else 0.0
            return float(row["score"]) / top + weight * new

        top = max(float(rows[0]["score"]), 1e-9)
        left = list(rows)
        chosen: list[Row] = []
        covered: set[str] = set()
        while left and len(chosen) < 10:
            best = max(left, key=partial(_gain, seen=frozenset(covered)))
            left.remove(best)
            chosen.append(best)
            covered |= _keys(best, asked)
        return chosen

    return rerank


def lifted(field: str, weight: float) -> Rerank:
    """The list re-ordered by ``score / top score + weight × field`` (a score the row carries)."""

    def rerank(rows: list[Row], asked: set[str]) -> list[Row]:
        top = max(float(rows[0]["score"]), 1e-9)
        return sorted(
            rows, key=lambda r: -(float(r["score"]) / top + weight * float(r.get(field) or 0.0))
        )[:10]

    return rerank


def both(weight: float, per_session: int) -> Rerank:
    """The novelty selection over the list the session quota ordered."""
    first, second = quota(per_session), novelty(weight)

    def rerank(rows: list[Row], asked: set[str]) -> list[Row]:
        ordered = first(rows, asked)
        rest = [r for r in rows if r not in ordered]
        return second(ordered + rest, asked)

    return rerank


def quota(per_session: int) -> Rerank:
    def rerank(rows: list[Row], asked: set[str]) -> list[Row]:
        chosen: list[Row] = []
        skipped: list[Row] = []
        count: dict[Any, int] = {}
        for row in rows:
            session = row.get("session")
            if session is not None and count.get(session, 0) >= per_session:
                skipped.append(row)
                continue
            count[session] = count.get(session, 0) + 1
            chosen.append(row)
        return (chosen + skipped)[:10]

    return rerank


async def ranked_lists(depth: int) -> tuple[list[Query], list[list[Row]]]:
    async with probe_session() as session:
        lists: list[list[Row]] = []
        for query in session.queries:
            rows = await session.episode_list(query, depth)
            found = await session.probe.read(
                "probe/episode_subject_keys", ids=[r["id"] for r in rows]
            )
            keys = {str(r["id"]): list(r["keys"]) for r in found}
            for row in rows:
                row["keys"] = keys.get(str(row["id"]), [])
            lists.append(rows)
        return session.queries, lists


def main(args: argparse.Namespace) -> int:
    queries, lists = asyncio.run(ranked_lists(args.depth))
    grid: dict[str, Rerank | None] = {"as is": None}
    for w in (0.1, 0.2, 0.3, 0.5):
        grid[f"novelty {w:g}"] = novelty(w)
    for per_session in (2, 3, 4):
        grid[f"quota {per_session}"] = quota(per_session)
    for w in (0.1, 0.2, 0.4):
        grid[f"fulltext {w:g}"] = lifted("fulltext_score", w)
        grid[f"own-turn {w:g}"] = lifted("own_turn_score", w)
    for w in (0.2, 0.3):
        grid[f"novelty {w:g} + quota 4"] = both(w, 4)
        grid[f"novelty {w:g} + session"] = novelty(w, session=True)
    several = [
        q.dataset == "locomo" and len(q.text.split()) < 12 and asks_for_several(q.text, broad=True)
        for q in queries
    ]
    print(f"{sum(several)} of {len(queries)} questions read as asking for several things")
    results: dict[str, list[float]] = {}
    for name, rerank in grid.items():
        at10 = []
        for query, rows, fires in zip(queries, lists, several, strict=True):
            asked = _asked(query)
            top = rerank(rows, asked) if (rerank and fires and rows) else rows[:10]
            at10.append(recall_at(query.relevant, [str(r["external_id"]) for r in top], 10))
        results[name] = at10
        print(f"  {name:22s} " + summary(queries, at10))
    # The ceiling: every evidence turn of the list moved into the ten (several-things only).
    ceiling = [
        recall_at(q.relevant, _evidence_first(q, rows), 10)
        if fires
        else recall_at(q.relevant, [str(r["external_id"]) for r in rows[:10]], 10)
        for q, rows, fires in zip(queries, lists, several, strict=True)
    ]
    print(f"  {'ceiling (evidence first)':22s} " + summary(queries, ceiling))
    describe(queries, lists, several)
    print("\nleave one conversation out (chosen on the other two by LoCoMo R@10):")
    groups = sorted({q.group for q in queries if q.dataset == "locomo"})
    held: list[float] = [0.0] * len(queries)
    for g in groups:
        train = [i for i, q in enumerate(queries) if q.dataset == "locomo" and q.group != g]
        chosen = max(results, key=lambda n: statistics.fmean(results[n][i] for i in train))
        for i, q in enumerate(queries):
            if q.group == g:
                held[i] = results[chosen][i]
        print(f"  {g}: chose {chosen}")
    keep = [i for i, q in enumerate(queries) if q.dataset == "locomo"]
    sub = [queries[i] for i in keep]
    print("  held out: " + summary(sub, [held[i] for i in keep]))
    return 0


def describe(queries: Sequence[Query], lists: Sequence[list[Row]], several: Sequence[bool]) -> None:
    """How the turns at ranks 11-30 of the several-things questions differ, evidence or not:
    the share of their subjects (less the question's) that the first ten lack, how many have
    none, and their scores."""
    groups: dict[str, list[dict[str, float]]] = {"evidence": [], "other": []}
    for query, rows, fires in zip(queries, lists, several, strict=True):
        if not fires:
            continue
        asked = _asked(query)
        top = set().union(*(set(r["keys"]) - asked for r in rows[:10]))
        for row in rows[10:30]:
            keys = set(row["keys"]) - asked
            evidence = str(row["external_id"]) in query.relevant
            groups["evidence" if evidence else "other"].append(
                {
                    "novel share": len(keys - top) / len(keys) if keys else 0.0,
                    "no subject": float(not keys),
                    "score / top": float(row["score"]) / max(float(rows[0]["score"]), 1e-9),
                    "own-turn score": float(row.get("own_turn_score") or 0.0),
                    "vector score": float(row.get("vector_score") or 0.0),
                    "fulltext score": float(row.get("fulltext_score") or 0.0),
                }
            )
    print("ranks 11-30 of the several-things questions (means):")
    for name, values in groups.items():
        if values:
            parts = ", ".join(
                f"{k} {statistics.fmean(v[k] for v in values):.3f}" for k in values[0]
            )
            print(f"  {name} ({len(values)} turns): {parts}")


def _asked(query: Query) -> set[str]:
    return {f"name:{w.lower()}" for w in query.text.split()} | set(question_subjects(query.text))


def _evidence_first(query: Query, rows: list[Row]) -> list[str]:
    ids = [str(r["external_id"]) for r in rows]
    return sorted(ids, key=lambda i: i not in query.relevant)


def summary(queries: Sequence[Query], at10: Sequence[float]) -> str:
    by: dict[str, list[float]] = {}
    for query, value in zip(queries, at10, strict=True):
        key = "madial" if query.dataset == "madial" else query.category
        by.setdefault(key, []).append(value)
        if query.dataset == "locomo":
            by.setdefault("LoCoMo", []).append(value)
    return ", ".join(f"{k} {statistics.fmean(v):.3f}" for k, v in sorted(by.items()))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=30)
    raise SystemExit(main(parser.parse_args()))
