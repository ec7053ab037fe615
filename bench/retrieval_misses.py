"""Why the tuning bench's misses miss: every gold turn or memory not in the top 10, with where it
ranked in each half of the episode search and after fusion (issue 38's fifth batch of recall
ideas started from these).

Runs the tuning bench's questions (``retrieval_tuning.py``: LoCoMo's development conversations
and MADial's dialogues, already imported) through the real ``build_context`` with the settings
of ``--try`` (the first; "" the defaults), the episode query asked for every candidate
(k = 1000), and records for each gold item of a question that misses it:

- its fused rank (None: never a candidate) and how it became one (the vector pool, the lexical
  pool, the asked speakers' own turns, a neighbour's lift, the coverage half);
- its exact vector rank among all the agent's episodes (cosine to the query vector the search
  used) and its BM25 rank among all of them (the lexical half without the keep cut);
- whether its speaker is one the question asks about, whether the question names a date or asks
  "when", and whether a turn next to it in its session is in the top 10;
- MADial: which line of the dialogue is nearest the memory (each line embedded as a query, its
  place counted from the end) and the memory's rank against that line alone.

A miss is classified (first that applies): ``outside both pools`` (vector rank > candidates, not
in the lexical keep, not an own turn), ``neighbour of a hit`` (outside both pools, but next to
a top-10 hit), ``vector pool (or own turns) only``, ``lexical pool only``, ``both pools, lost in
fusion``; counted beside the classes (in parentheses): LoCoMo's gold turns said by another
speaker than the asked one and questions that name a date or ask "when", MADial's nearest line.
LoCoMo categories: ``--categories`` (default multi-hop; MADial always). Prints the counts and
writes every miss to ``--out`` (JSON; default the temporary folder's retrieval-misses.json).

    .venv/bin/python bench/retrieval_misses.py --try "" --out misses.json \\
        --categories multi-hop,open-domain,single-hop
"""

from __future__ import annotations

import asyncio
import collections
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import retrieval_tuning as tuning
from retrieval_madial import DEFAULT_DATA as MADIAL_DATA
from retrieval_madial import DIALOGUE_FILE, load_dialogues

import app.retrieval.searches as searches
from app.config import get_settings
from app.embeddings.embedder import shared_embedder
from app.graph.client import GraphClient
from app.retrieval.context import build_context
from app.retrieval.models import ContextRequest

EPISODES = """
MATCH (e:Episode {agent_id: $agent_id})
RETURN e.id AS id, e.external_id AS external_id, e.embedding AS embedding, e.text AS text,
       e.speaker_key AS speaker, e.session_key AS session, e.seq AS seq
"""


class Seen:
    """What the episode search of the current question read and returned."""

    def __init__(self) -> None:
        self.params: dict[str, Any] = {}
        self.rows: list[dict[str, Any]] = []
        self.lexical: list[str] = []


def hook(seen: Seen) -> None:
    """The episode query asked for every candidate; the lexical half's full ranking kept."""
    read = GraphClient.read_collected
    hits = searches.episode_hits  # type: ignore[attr-defined]  # patched below: not re-exported

    async def read_collected(self: GraphClient, name: str, **params: Any) -> Any:
        if name != "retrieval/search_episodes":
            return await read(self, name, **params)
        rows = await read(self, name, **{**params, "k": 1000})
        seen.params, seen.rows = params, rows
        return rows[: params["k"]]

    async def episode_hits(graph: GraphClient, agent_id: str, terms: str, **kw: Any) -> Any:
        full = await hits(graph, agent_id, terms, **{**kw, "pool": 100000, "keep": 100000})
        seen.lexical = [str(row["id"]) for row in full]
        return await hits(graph, agent_id, terms, **kw)

    GraphClient.read_collected = read_collected  # type: ignore[method-assign]
    searches.episode_hits = episode_hits  # type: ignore[attr-defined]  # monkeypatch, as above


async def episodes_of(graph: GraphClient, agent_id: str) -> list[dict[str, Any]]:
    driver = graph._driver
    records, _, _ = await driver.execute_query(EPISODES, agent_id=agent_id)
    return [dict(record) for record in records]


def classify(item: dict[str, Any], candidates: int) -> str:
    """Why one gold item misses (first that applies)."""
    vector = item["vector_rank_all"] is not None and item["vector_rank_all"] <= candidates
    lexical = item["lexical_rank_all"] is not None and item["lexical_rank_all"] <= candidates
    own = item["own_turn"]
    if not (vector or lexical or own):
        return "neighbour of a hit" if item["next_to_hit"] else "outside both pools"
    if vector and lexical:
        return "both pools, lost in fusion"
    if vector or own:
        return "vector pool (or own turns) only"
    return "lexical pool only"


async def main() -> int:
    args, out = parse()
    settings = get_settings()
    retrieval = settings.retrieval.model_copy(update=tuning.parse_tries(args.tries or [""])[0])
    embedder = shared_embedder(settings.embeddings)
    graph = GraphClient.from_settings(settings.neo4j)
    seen = Seen()
    hook(seen)
    misses: list[dict[str, Any]] = []
    try:
        queries = await tuning.locomo_queries(graph, settings, embedder, retrieval, args.clock)
        queries += await tuning.madial_queries(graph, settings, embedder, retrieval, args.clock)
        dialogues = load_dialogues(MADIAL_DATA / DIALOGUE_FILE)
        stored: dict[str, list[dict[str, Any]]] = {}
        madial_n = 0
        for query in queries:
            if query.agent_id not in stored:
                stored[query.agent_id] = await episodes_of(graph, query.agent_id)
            request = ContextRequest(q=query.text, k=10, sections=["episodes"])
            await build_context(
                graph, embedder, retrieval, query.agent_id, request, now=query.asked_at
            )
            dialogue = dialogues[madial_n] if query.dataset == "madial" else None
            madial_n += query.dataset == "madial"
            if query.dataset == "locomo" and query.category not in args.categories:
                continue
            misses += await missed(query, stored[query.agent_id], seen, embedder, dialogue)
    finally:
        await graph.close()
    for item in misses:
        item["why"] = classify(item, retrieval.candidates)
    report(misses)
    text = json.dumps(misses, indent=1, default=str)
    await asyncio.to_thread(Path(out).write_text, text, encoding="utf-8")
    return 0


async def missed(
    query: tuning.Query,
    rows: list[dict[str, Any]],
    seen: Seen,
    embedder: Any,
    dialogue: Any,
) -> list[dict[str, Any]]:
    """Every gold item of ``query`` outside its top 10, as ``Seen`` read it."""
    fused = {str(row["external_id"]): i + 1 for i, row in enumerate(seen.rows)}
    by_external = {str(r["external_id"]): r for r in rows}
    top = {str(row["external_id"]) for row in seen.rows[:10]}
    gone = [g for g in sorted(query.relevant) if fused.get(g, 99999) > 10]
    if not gone:
        return []
    vector = seen.params.get("embedding")
    cosines: dict[str, float] = {}
    if vector is not None:
        q = np.asarray(vector.to_native(), np.float32)
        cosines = {
            str(r["external_id"]): float(np.asarray(r["embedding"], np.float32) @ q)
            for r in rows
            if r["embedding"]
        }
    order = sorted(cosines, key=lambda e: -cosines[e])
    vector_rank = {e: i + 1 for i, e in enumerate(order)}
    id_to_external = {str(r["id"]): str(r["external_id"]) for r in rows}
    lexical_rank = {id_to_external[i]: n + 1 for n, i in enumerate(seen.lexical)}
    by_row = {str(row["external_id"]): row for row in seen.rows}
    place = {(r["session"], r["seq"]): str(r["external_id"]) for r in rows}
    w = seen.params.get("w", {})
    lines = await nearest_line(embedder, dialogue, gone, by_external, rows) if dialogue else {}
    out = []
    for gold in gone:
        row = by_row.get(gold, {})
        episode = by_external.get(gold, {})
        near = [place.get((episode.get("session"), (episode.get("seq") or 0) + d)) for d in (-1, 1)]
        out.append(
            {
                "dataset": query.dataset,
                "category": query.category,
                "question": query.text if query.dataset == "locomo" else query.text[-300:],
                "gold": gold,
                "gold_text": episode.get("text"),
                "gold_speaker": episode.get("speaker"),
                "asked_speakers": w.get("asked_speakers", []),
                "fused_rank": fused.get(gold),
                "vector_rank_all": vector_rank.get(gold),
                "lexical_rank_all": lexical_rank.get(gold),
                "pool_vector_rank": row.get("vector_rank"),
                "pool_fulltext_rank": row.get("fulltext_rank"),
                "own_turn": row.get("own_turn_score") is not None,
                "neighbour_lift": row.get("neighbour_lift"),
                "next_to_hit": any(n in top for n in near if n),
                "asks_when": w.get("asks_when"),
                "query_dates": w.get("query_dates"),
                "top3": [str(r["text"])[:100] for r in seen.rows[:3]],
                **lines.get(gold, {}),
            }
        )
    return out


async def nearest_line(
    embedder: Any,
    dialogue: Any,
    gone: list[str],
    by_external: dict[str, dict[str, Any]],
    rows: list[dict[str, Any]],
) -> dict[str, dict[str, Any]]:
    """For each missed memory: the dialogue line nearest it (counted from the end: -1 the last
    line before the test turn) and its rank among the memories against that line alone."""
    said = [t.strip() for t in dialogue.turns[1 : dialogue.test_turn]]
    vectors = [np.asarray(await embedder.embed_one(line, "query"), np.float32) for line in said]
    matrix = np.array([r["embedding"] for r in rows], np.float32)
    externals = [str(r["external_id"]) for r in rows]
    out: dict[str, dict[str, Any]] = {}
    for gold in gone:
        g = np.asarray(by_external[gold]["embedding"], np.float32)
        cos = [float(v @ g) for v in vectors]
        best = int(np.argmax(cos))
        ranks = np.argsort(-(matrix @ vectors[best]))
        rank = 1 + [externals[i] for i in ranks].index(gold)
        user = said[best].startswith("<Assistant>") is False
        out[gold] = {
            "nearest_line_from_end": best - len(said),
            "nearest_line_is_user": user,
            "nearest_line": said[best][:120],
            "rank_against_that_line": rank,
        }
    return out


def report(misses: list[dict[str, Any]]) -> None:
    by: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for item in misses:
        by[item["category"]][item["why"]] += 1
        if item["dataset"] == "locomo":
            speakers = item["asked_speakers"]
            if speakers and item["gold_speaker"] not in speakers:
                by[item["category"]]["(gold said by another speaker)"] += 1
            if item["query_dates"] or item["asks_when"]:
                by[item["category"]]["(question names a date or asks when)"] += 1
        else:
            by[item["category"]][f"(nearest line {item['nearest_line_from_end']})"] += 1
    for category, counts in sorted(by.items()):
        total = sum(v for k, v in counts.items() if not k.startswith("("))
        print(f"{category}: {total} missed gold items")
        for why, n in counts.most_common():
            print(f"  {why}: {n}")


def parse() -> tuple[Any, str]:
    argv = sys.argv[1:]
    out = str(Path(tempfile.gettempdir()) / "retrieval-misses.json")
    categories = ["multi-hop"]
    if "--out" in argv:
        i = argv.index("--out")
        out = argv[i + 1]
        del argv[i : i + 2]
    if "--categories" in argv:
        i = argv.index("--categories")
        categories = argv[i + 1].split(",")
        del argv[i : i + 2]
    args = tuning.parse_args(argv)
    args.categories = categories
    return args, out


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
