"""Would scoring a turn by its best sentence, not only by its whole-turn vector, find the evidence
a several-things question misses? An offline probe (issue 22, seventh round), not a setting.

A turn that says the answer in passing inside a longer turn about something else ("...a gift
from my grandma in my home country, Sweden") has a whole-turn vector that is mostly about the
something else. Every question of ``retrieval_tuning.py`` (LoCoMo's 3 development
conversations, MADial) is scored here three ways:

1. **dense alone**: the agent's episodes ranked by the cosine of the question's vector to the
   stored whole-turn vector (what the vector index holds: the previous turn + the turn), to the
   turn's best sentence, and to mixes of the two (``max``, ``whole + α × best``); the sentences
   (split by :func:`sentences`) two ways: ``speaker: sentence`` against the question's vector,
   and the sentence alone against the question without the names it says (as the pipeline's
   episode query vector is built);
2. **the pipeline**: the list ``build_context`` gives with the defaults and ``k = --depth``
   (50), re-ranked by ``score / top score + β × best-sentence cosine`` (min-max normalised over
   the candidates), by the sentence's gain over the whole turn, or by reciprocal-rank fusion of
   the two orders (:func:`fused`), alone or with the sentence-level dense top ``N`` of the agent
   added to the candidates, on every question or only on those
   ``asks_for_several`` reads as asking for several things; leave-one-conversation-out as
   ``retrieval_tuning.py`` does it (chosen on the other two conversations + MADial by the mean
   of LoCoMo R@10 and MADial R@10, scored on the third), and the ceiling (evidence anywhere in
   the candidates);
3. **the cost**: sentences per turn, and the time to embed every turn's whole-turn text against
   all its sentences (one run, same embedder, no vector cache).

The lists, the episodes and the vectors are cached under ``--cache`` (the temporary folder's
``sentence-probe``), so a second run only scores. The agents are found by name as
``retrieval_tuning.py`` finds them (imported only when missing: import them first, and the
probe only reads).

    PYTHONPATH=. .venv/bin/python bench/sentence_probe.py
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import pickle
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from probe_lists import Row, probe_session
from retrieval_madial import recall_at
from retrieval_tuning import Query

from app.config import get_settings
from app.embeddings.embedder import Embedder
from app.memory.session_order import embedding_text, search_text
from app.retrieval.asked_people import said_names, without_names
from app.text.several_answers import asks_for_several

# A piece of fewer words than this is not a sentence of its own: it joins its neighbour.
MIN_WORDS = 3
_BOUNDARY = re.compile(r"(?<=[.!?])\s+|\n+")


def sentences(text: str) -> list[str]:
    """The sentences of a turn: split after ``.``, ``!`` or ``?`` followed by space, and at line
    breaks; a piece of fewer than ``MIN_WORDS`` words joins the one before it (the first, the
    one after it). Never empty for a non-empty text."""
    merged: list[str] = []
    for piece in (p.strip() for p in _BOUNDARY.split(text)):
        if not piece:
            continue
        if merged and len(piece.split()) < MIN_WORDS:
            merged[-1] = f"{merged[-1]} {piece}"
        else:
            merged.append(piece)
    if len(merged) > 1 and len(merged[0].split()) < MIN_WORDS:
        merged[1] = f"{merged[0]} {merged[1]}"
        del merged[0]
    return merged or [text.strip()]


@dataclass
class Agent:
    """One agent's episodes: stored whole-turn vectors, and their sentences (``owner``: the
    episode each sentence row belongs to; rows of one episode are contiguous)."""

    ids: list[str]
    external: list[str]
    whole_texts: list[str]
    sentence_texts: list[str]  # "speaker: sentence", as an episode's search text
    bare_texts: list[str]  # the sentence alone
    owner: np.ndarray
    whole: np.ndarray
    sentence: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.float32))
    bare: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.float32))

    def starts(self) -> np.ndarray:
        return np.flatnonzero(np.r_[True, self.owner[1:] != self.owner[:-1]])

    def speaker(self, episode: int) -> str:
        """The episode's speaker (lower case) as its search text names it; "" for none."""
        first = int(self.starts()[episode])
        said, bare = self.sentence_texts[first], self.bare_texts[first]
        return said[: -len(bare) - 2].lower() if said != bare else ""


@dataclass
class Collected:
    queries: list[Query]
    lists: list[list[Row]]
    agents: dict[str, Agent]
    pipeline_seconds: float


def agent_from_rows(rows: list[Row], dimensions: int) -> Agent:
    ids: list[str] = []
    external: list[str] = []
    whole_texts: list[str] = []
    sentence_texts: list[str] = []
    bare_texts: list[str] = []
    owner: list[int] = []
    vectors: list[np.ndarray] = []
    previous: dict[Any, str] = {}
    for row in rows:  # ordered by session, seq
        index = len(ids)
        ids.append(str(row["id"]))
        external.append(str(row["external_id"]))
        session = row["session"]
        prior = previous.get(session) if session is not None else None
        whole_texts.append(embedding_text(prior, row["search_text"]))
        if session is not None:
            previous[session] = row["search_text"]
        for sentence in sentences(str(row["text"])):
            sentence_texts.append(search_text(row["speaker"], sentence))
            bare_texts.append(sentence)
            owner.append(index)
        stored = row["embedding"]  # None: not embedded (scored 0 by the whole-turn vector)
        vectors.append(
            np.zeros(dimensions, dtype=np.float32)
            if stored is None
            else np.asarray(stored.to_numpy(), dtype=np.float32)
        )
    whole = np.vstack(vectors) if vectors else np.zeros((0, dimensions), dtype=np.float32)
    return Agent(ids, external, whole_texts, sentence_texts, bare_texts, np.asarray(owner), whole)


async def collect(depth: int) -> Collected:
    async with probe_session() as session:
        agents: dict[str, Agent] = {}
        dimensions = session.settings.embeddings.dimensions
        for agent_id in sorted({q.agent_id for q in session.queries}):
            rows = await session.probe.read(
                "probe/agent_episode_vectors", agent_id=agent_id, dimensions=dimensions
            )
            agents[agent_id] = agent_from_rows(rows, dimensions)
        lists: list[list[Row]] = []
        started = time.perf_counter()
        keep = ("id", "external_id", "score")
        for query in session.queries:
            items = await session.episode_list(query, depth)
            lists.append([{k: item.get(k) for k in keep} for item in items])
        seconds = time.perf_counter() - started
        return Collected(session.queries, lists, agents, seconds)


def embed_all(embedder: Embedder, texts: Sequence[str]) -> tuple[np.ndarray, float]:
    started = time.perf_counter()
    vectors = embedder.embed_sync(list(texts))
    seconds = time.perf_counter() - started
    if vectors is None:
        raise SystemExit(f"embeddings do not work: {embedder.status().reason}")
    return np.asarray(vectors, dtype=np.float32), seconds


def embed_and_time(collected: Collected) -> dict[str, Any]:
    """Embeds every agent's sentences and every question (no vector cache), timing all the
    whole-turn texts against all the sentences in the same run (whole, sentences, whole)."""
    settings = get_settings()
    embedder = Embedder(settings.embeddings.model_copy(update={"cache_path": ""}))
    embedder.embed_sync(["warm up the model", "and its runtime"])
    whole_texts = [t for a in collected.agents.values() for t in a.whole_texts]
    sentence_texts = [t for a in collected.agents.values() for t in a.sentence_texts]
    again, first = embed_all(embedder, whole_texts)
    sentence, sentence_seconds = embed_all(embedder, sentence_texts)
    _, second = embed_all(embedder, whole_texts)
    stored = np.vstack([a.whole for a in collected.agents.values()])
    questions, _ = embed_all(embedder, [q.text for q in collected.queries])
    return {
        "turns": len(whole_texts),
        "sentences": len(sentence_texts),
        "whole seconds": (first, second),
        "sentence seconds": sentence_seconds,
        "whole words": sum(len(t.split()) for t in whole_texts),
        "sentence words": sum(len(t.split()) for t in sentence_texts),
        # The stored vectors against the same texts embedded again: the whole-turn texts are
        # rebuilt right when this is ~1.
        "stored agreement": float(np.mean(np.sum(stored * again, axis=1))),
        "questions": questions,
        "sentence vectors": sentence,
    }


def embed_bare(collected: Collected) -> dict[str, Any]:
    """The sentences without their speaker, and the questions without the names they say
    (``asked_people.without_names``, as the episodes' query vector of a question naming
    speakers is built), embedded with no vector cache."""
    settings = get_settings()
    embedder = Embedder(settings.embeddings.model_copy(update={"cache_path": ""}))
    embedder.embed_sync(["warm up the model", "and its runtime"])
    bare_texts = [t for a in collected.agents.values() for t in a.bare_texts]
    bare, seconds = embed_all(embedder, bare_texts)
    stripped = [without_names(q.text, said_names(q.text)) or q.text for q in collected.queries]
    questions, _ = embed_all(embedder, stripped)
    return {"bare seconds": seconds, "bare vectors": bare, "stripped questions": questions}


def _spread(collected: Collected, vectors: np.ndarray, attribute: str) -> None:
    at = 0
    for agent in collected.agents.values():
        rows = len(agent.sentence_texts)
        setattr(agent, attribute, vectors[at : at + rows])
        at += rows
    if at != len(vectors):
        raise SystemExit("the cached sentence vectors do not match the sentences: delete them")


def _cached(path: Path, make: Any) -> dict[str, Any]:
    if path.exists():
        with path.open("rb") as handle:
            stored: dict[str, Any] = pickle.load(handle)  # noqa: S301 (this probe's own file)
        return stored
    made: dict[str, Any] = make()
    with path.open("wb") as handle:
        pickle.dump(made, handle)
    return made


def loaded(cache: Path, depth: int) -> tuple[Collected, dict[str, Any]]:
    """The lists and episodes (read once), then the vectors and timings (embedded once)."""
    cache.mkdir(parents=True, exist_ok=True)
    lists, vectors = cache / f"collected-k{depth}.pkl", cache / f"vectors-k{depth}.pkl"
    if lists.exists():
        with lists.open("rb") as handle:
            collected: Collected = pickle.load(handle)  # noqa: S301 (this probe's own file)
    else:
        collected = asyncio.run(collect(depth))
        with lists.open("wb") as handle:
            pickle.dump(collected, handle)
    figures = _cached(vectors, lambda: embed_and_time(collected))
    figures |= _cached(cache / f"bare-k{depth}.pkl", lambda: embed_bare(collected))
    _spread(collected, figures["sentence vectors"], "sentence")
    _spread(collected, figures["bare vectors"], "bare")
    return collected, figures


@dataclass
class Scored:
    """One question's cosines over its agent's episodes: whole turn and best sentence."""

    whole: np.ndarray
    best: np.ndarray


def scored(agent: Agent, question: np.ndarray, sentence: np.ndarray, bare: bool) -> Scored:
    """``question``: the question's vector (whole-turn cosines); ``sentence``: the vector the
    sentences are scored by, against the bare sentences or the ``speaker: sentence`` ones."""
    whole = agent.whole @ question
    per_sentence = (agent.bare if bare else agent.sentence) @ sentence
    best = np.maximum.reduceat(per_sentence, agent.starts())
    return Scored(whole, best)


def ranked(agent: Agent, scores: np.ndarray, k: int) -> list[str]:
    order = np.argsort(-scores, kind="stable")[:k]
    return [agent.external[i] for i in order]


def summary(
    queries: Sequence[Query], values: Sequence[float], keep: Sequence[int] | None = None
) -> str:
    by: dict[str, list[float]] = {}
    for i in keep if keep is not None else range(len(queries)):
        query = queries[i]
        key = "MADial" if query.dataset == "madial" else query.category
        by.setdefault(key, []).append(values[i])
        if query.dataset == "locomo":
            by.setdefault("LoCoMo", []).append(values[i])
    order = ["LoCoMo", *sorted(k for k in by if k not in ("LoCoMo", "MADial")), "MADial"]
    return "  ".join(f"{k} {statistics.fmean(by[k]):.3f}" for k in order if k in by)


def dense_alone(collected: Collected, per_query: list[Scored], variant: str) -> None:
    variants: dict[str, Any] = {
        "whole turn": lambda s: s.whole,
        "best sentence": lambda s: s.best,
        "max(whole, best)": lambda s: np.maximum(s.whole, s.best),
    }
    for alpha in (0.25, 0.5, 1.0):
        variants[f"whole + {alpha:g} x best"] = lambda s, a=alpha: s.whole + a * s.best
    print(f"\n1. dense alone, R@10 over all the agent's episodes; sentences: {variant}")
    for name, score in variants.items():
        values = [
            recall_at(q.relevant, ranked(collected.agents[q.agent_id], score(s), 10), 10)
            for q, s in zip(collected.queries, per_query, strict=True)
        ]
        print(f"  {name:22s} {summary(collected.queries, values)}")
    # The adversarial questions name the other speaker (whose turn is the evidence).
    named: dict[str, list[float]] = {"whole turn": [], "best sentence": []}
    for q, s in zip(collected.queries, per_query, strict=True):
        names = said_names(q.text)
        if q.category != "adversarial" or not names:
            continue
        agent = collected.agents[q.agent_id]
        for name, score in (("whole turn", s.whole), ("best sentence", s.best)):
            top = np.argsort(-score, kind="stable")[:10]
            named[name].append(sum(agent.speaker(int(t)) in names for t in top) / len(top))
    print(
        f"  adversarial questions naming someone ({len(named['whole turn'])}): share of the "
        "named person's turns in the top ten: "
        + ", ".join(f"{k} {statistics.fmean(v):.3f}" for k, v in named.items() if v)
    )


# Reciprocal-rank fusion's constant.
RRF_K = 60


def listed(rows: list[Row], agent: Agent) -> tuple[dict[int, float], float]:
    """The list's turns (their place in the agent's arrays -> score / top score) and the list's
    lowest such score (what a turn added to the list gets)."""
    index = {episode_id: i for i, episode_id in enumerate(agent.ids)}
    top = max((float(r["score"]) for r in rows), default=1.0) or 1.0
    pipeline = {index[str(r["id"])]: float(r["score"]) / top for r in rows}
    return pipeline, min(pipeline.values(), default=0.0)


def fused(
    rows: list[Row], agent: Agent, s: Scored, beta: float, extra: int, key: str = "best"
) -> list[str]:
    """The list re-ranked by ``score / top + beta × best-sentence cosine`` (min-max over the
    candidates; ``key`` "gain": by how much the best sentence beats the whole turn, 0 when it
    does not; "rrf": ``1 / (60 + rank in the list) + beta / (60 + rank by best sentence)``),
    with the sentence-level dense top ``extra`` of the agent added (their score: the lowest of
    the list; their rank: the one after the list's last)."""
    pipeline, floor = listed(rows, agent)
    candidates = list(pipeline)
    if extra:
        seen = set(candidates)
        candidates += [int(i) for i in np.argsort(-s.best, kind="stable")[:extra] if i not in seen]
    best = s.best[candidates]
    if key == "rrf":
        place = {c: r for r, c in enumerate(pipeline)}
        by_sentence = {c: r for r, c in enumerate(np.array(candidates)[np.argsort(-best)])}
        fusion = [
            1 / (RRF_K + place.get(c, len(rows))) + beta / (RRF_K + by_sentence[c])
            for c in candidates
        ]
        order = sorted(range(len(candidates)), key=lambda j: -fusion[j])
        return [agent.external[candidates[j]] for j in order]
    if key == "gain":
        best = np.maximum(best - s.whole[candidates], 0.0)
    lo, hi = float(best.min()), float(best.max())
    norm = (best - lo) / (hi - lo) if hi > lo else np.zeros_like(best)
    keys = [pipeline.get(c, floor) + beta * float(n) for c, n in zip(candidates, norm, strict=True)]
    order = sorted(range(len(candidates)), key=lambda j: -keys[j])
    return [agent.external[candidates[j]] for j in order]


def pipeline_probe(collected: Collected, per_query: list[Scored], variant: str) -> None:
    queries, lists = collected.queries, collected.lists
    several = [len(q.text.split()) < 12 and asks_for_several(q.text, broad=True) for q in queries]
    print(
        f"\n2. the pipeline (k = {max(len(r) for r in lists)} list), R@10; sentences: {variant}; "
        f"{sum(several)} questions read as asking for several things (MADial "
        f"{sum(f for f, q in zip(several, queries, strict=True) if q.dataset == 'madial')})"
    )
    as_is = [recall_at(q.relevant, [str(r["external_id"]) for r in rows], 10)
             for q, rows in zip(queries, lists, strict=True)]  # fmt: skip
    results: dict[str, list[float]] = {"as is": as_is}
    print(f"  {'as is':32s} {summary(queries, as_is)}")
    grid = [
        *itertools.product(("all", "several"), (0, 20, 50), ("best", "gain"), (0.2, 0.3, 0.5, 1.0)),
        *itertools.product(("all", "several"), (0, 20, 50), ("rrf",), (0.5, 1.0)),
    ]
    for gate, extra, key, beta in grid:
        name = f"{gate:7s} N={extra:<2d} {key} beta={beta:g}"
        values = []
        for i, (q, rows, s) in enumerate(zip(queries, lists, per_query, strict=True)):
            if gate == "several" and not several[i]:
                values.append(as_is[i])
                continue
            top = fused(rows, collected.agents[q.agent_id], s, beta, extra, key)
            values.append(recall_at(q.relevant, top, 10))
        results[name] = values
        print(f"  {name:32s} {summary(queries, values)}")
    for extra in (0, 10, 20, 50):
        ceiling = [
            recall_at(q.relevant, fused(rows, collected.agents[q.agent_id], s, 0.0, extra), 10_000)
            for q, rows, s in zip(queries, lists, per_query, strict=True)
        ]
        print(f"  {f'ceiling, candidates N={extra}':32s} {summary(queries, ceiling)}")
    leave_one_out(queries, results, "every setting")
    several_only = {k: v for k, v in results.items() if k == "as is" or k.startswith("several")}
    leave_one_out(queries, several_only, "only the settings gated on several-things questions")


def leave_one_out(queries: Sequence[Query], results: dict[str, list[float]], grid: str) -> None:
    print(
        f"\n  leave one conversation out ({grid}; chosen on the other two + MADial, "
        "scored held out):"
    )
    madial = [i for i, q in enumerate(queries) if q.dataset == "madial"]
    groups = sorted({q.group for q in queries if q.dataset == "locomo"})
    held = [0.0] * len(queries)
    for g in groups:
        train = [i for i, q in enumerate(queries) if q.dataset == "locomo" and q.group != g]

        def objective(name: str, train: list[int] = train) -> float:
            values = results[name]
            return statistics.fmean(
                [
                    statistics.fmean(values[i] for i in train),
                    statistics.fmean(values[i] for i in madial),
                ]
            )

        chosen = max(results, key=objective)
        for i, q in enumerate(queries):
            if q.group == g:
                held[i] = results[chosen][i]
        madial_r = statistics.fmean(results[chosen][i] for i in madial)
        print(f"    {g}: chose {chosen.strip()} (its MADial R@10 {madial_r:.3f})")
    locomo = [i for i, q in enumerate(queries) if q.dataset == "locomo"]
    print(f"    held out:  {summary(queries, held, locomo)}")
    print(f"    as is:     {summary(queries, results['as is'], locomo)}")
    moved: dict[str, list[int]] = {}
    for i in locomo:
        change = held[i] - results["as is"][i]
        counts = moved.setdefault(queries[i].category, [0, 0, 0])
        counts[0] += 1
        counts[1] += change > 0
        counts[2] += change < 0
    print(
        "    questions held out / up / down: "
        + ", ".join(f"{k} {n} / {up} / {down}" for k, (n, up, down) in sorted(moved.items()))
    )


def cost(collected: Collected, figures: dict[str, Any]) -> None:
    per_turn = [int(n) for a in collected.agents.values() for n in np.bincount(a.owner)]
    first, second = figures["whole seconds"]
    whole = statistics.fmean([first, second])
    print(
        f"\n3. cost: {figures['turns']} turns, {figures['sentences']} sentences "
        f"({figures['sentences'] / figures['turns']:.2f} a turn; median "
        f"{statistics.median(per_turn):g}, max {max(per_turn)}, one sentence "
        f"{sum(n == 1 for n in per_turn) / len(per_turn):.0%} of turns); words embedded "
        f"whole {figures['whole words']}, by sentence {figures['sentence words']}"
    )
    print(
        f"  embed all whole-turn texts {first:.1f} s / {second:.1f} s (before / after), all "
        f"sentences {figures['sentence seconds']:.1f} s: "
        f"{figures['sentence seconds'] / whole:.2f}x "
        f"the whole-turn embedding; stored vectors vs re-embedded whole texts: mean cosine "
        f"{figures['stored agreement']:.4f}; pipeline k=50 for all questions "
        f"{collected.pipeline_seconds:.0f} s"
    )
    print(
        f"  the sentences without their speaker (embedded in a later run, not paired): "
        f"{figures['bare seconds']:.1f} s"
    )


def main(args: argparse.Namespace) -> int:
    collected, figures = loaded(Path(args.cache), args.depth)
    questions: np.ndarray = figures["questions"]
    variants = {
        "speaker: sentence, against the question": (figures["questions"], False),
        "the sentence alone, against the question without its names": (
            figures["stripped questions"],
            True,
        ),
    }
    print(
        f"{len(collected.queries)} questions (LoCoMo "
        f"{sum(q.dataset == 'locomo' for q in collected.queries)}, MADial "
        f"{sum(q.dataset == 'madial' for q in collected.queries)}), "
        f"{len(collected.agents)} agents"
    )
    for variant, (by, bare) in variants.items():
        per_query = [
            scored(collected.agents[q.agent_id], questions[i], by[i], bare)
            for i, q in enumerate(collected.queries)
        ]
        dense_alone(collected, per_query, variant)
        pipeline_probe(collected, per_query, variant)
    cost(collected, figures)
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=50)
    parser.add_argument("--cache", default=str(Path(tempfile.gettempdir()) / "sentence-probe"))
    raise SystemExit(main(parser.parse_args()))
