"""Retrieval ideas that are not settings, tried on the tuning bench's data before any is built.

Each probe changes one thing of the real episode search for one run of
``bench/retrieval_tuning.py`` (same agents, same questions, same leave-one-out report; every
``--try`` / ``--grid`` option works), by replacing one function in the process:

- ``passage-long``: a long query (at least ``long_query_terms`` fulltext terms: a MADial
  dialogue) is embedded with the ``"passage: "`` prefix, like the stored vectors, instead of
  ``"query: "`` (e5's advice for symmetric tasks);
- ``prf=M,BETA``: pseudo-relevance feedback on the vector half (Rocchio): the episodes' query
  vector moved towards the mean of the agent's M nearest episode vectors,
  ``q + BETA · mean``, normalised; the nearest are found exactly from the agent's vectors (what
  a second index search returns at these sizes), and the moved vector ranks the vector half and
  the own turns;
- ``stem=light|words``, ``stem=both-light|both-words``: the episodes' lexical half scored in
  Python on the agent's stored words (``lexical_terms``) with query and document words stemmed
  (``app/text/entities.py`` ``stem``: light; ``app/text/words.py`` ``stem``: words), or with
  both the words and their stems counted (both-); ``stem=none`` is the same computation without
  stems, a check of the probe itself: it reproduced the defaults' figures to the last digit
  until the asked speakers' names stopped matching; it now tells matches from the stored words,
  not the fulltext index, and is within a question of them (LoCoMo R@10 0.845 against 0.844);
- ``tail=N,W``: a long query (a MADial dialogue, its turns one a line) searches the vector half
  with its vector plus W × the vector of its last N lines (embedded as a query), normalised:
  the turns nearest the one to be answered weigh more than the dialogue's start;
- ``lextail=N``: a long query's lexical half searches the words of its last N lines only;
- ``neighbours=sum``: a turn lifted by the sum of its two neighbours' scores instead of the
  better one's; ``neighbours=2,F``: the turns two places away lifted too, at F × the lift
  (``cypher/retrieval/search_episodes.cypher``'s text edited for the run); ``neighbours=dir,A,B``:
  the turn after a hit lifted at A × the lift, the turn before it at B × (the answer to a
  question is often the turn after it);
- ``query-model=NAME``: the queries (``"query"`` texts: the question, its stripped form, a
  long query's last lines) embedded by bundled model NAME's embedder (``e5-small-v2``,
  ``e5-small-v2-q``, ...), while the search still names the stored vectors' model (the
  settings' ``CREDENCE_EMBEDDINGS__MODEL``, which must be the one the data was imported with):
  stored passages of one precision searched with queries of another;
- ``qtf=P``: a long query's lexical half (a MADial dialogue) in Python on the agent's stored
  words, each query term's BM25 weighted by how often the dialogue says it, to the power P (1:
  as a plain BM25 over the dialogue counts repeated words; 0: each term once, the defaults'
  arithmetic, a check of the probe);
- ``next=MODE``: what an episode's vector embeds, changed at import (``prev-own-next``: the
  previous turn, its own and the next one, one a line; ``own-next``: its own and the next):
  a reply's answer often sits in the turn after a question. The LoCoMo conversations are
  imported again as agents of their own (``locomo-next-MODE-<conversation>``); MADial's memories
  have no sessions, so its agent (and figures) are the defaults'; ``prev-own``: the defaults'
  text, imported again the same way (a control: int8 vectors depend on their batch); ``own``:
  its own turn alone;
- ``lexprf=N,T,W``: pseudo-relevance feedback on the episodes' lexical half (RM3-like): the
  question is searched once, the stored words of its N best fused episodes weighted by each
  one's share of the fused score (P(w|d) · score, times the word's idf), the T best words that
  are not query terms (nor a speaker's name) scored by BM25 over the agent's stored words, each
  at its weight, and W × that (min-max normalised) added to the lexical half's normalised
  scores before the search is run again (short queries only; ``lexprf=N,T,0``: the defaults;
  ``lexprf=N,T,W,single``: only questions that do not ask for several things;
  ``lexprf=N,T,W,long``: only long queries, a MADial dialogue);
- ``content=W``: the episodes' query vector plus W × the vector of the question's content
  words only (``lucene_terms``: wh-words, auxiliaries and stop words out, the asked speakers'
  names out as in the question's vector; "What did Caroline research?" → "research"),
  embedded as a query, normalised (the mean of the two cosines, as one vector search);
  ``content-names=W``: the content words with the names kept ("caroline research");
- ``user-lines=both|vector|lexical``: a long query (a MADial dialogue, one turn a line) without
  the lines the assistant said (``<Assistant>: ...`` / ``Assistant: ...``), in both halves, in
  the vector half only (its vector and last lines) or in the lexical half only: of the MADial
  memories the defaults miss, 136 of 142 are nearest a line the user said
  (``bench/retrieval_misses.py``);
- ``lexnorm=ideal[,all]``: the episodes' lexical half of a question (a short query; ``all``: long
  ones too) scored in Python on the agent's stored words (as ``stem=none``) and each score
  divided by the question's ideal score (the BM25 of a document of average length holding each
  query term once), capped at 1, instead of min-max over the kept hits: a turn that matches
  only a weak word of the question no longer scores 1; of the multi-hop evidence the defaults
  miss, 50 of 91 items are in the vector pool or the asked speaker's own turns and match no
  query word at all;
- ``qturn=F``: a turn whose own text ends with a question mark weighs F × (the episode query's
  ``weighted``; ``cypher/retrieval/search_episodes.cypher``'s text edited for the run): 22% of
  LoCoMo's development turns end with "?", 10% of its gold turns do (33 of 337), and the other
  speaker's questions about the asked thing ("What made you try pottery?") fill the top 10 of
  missed multi-hop questions; MADial's memories are statements (unchanged);
- ``held-out LABEL=CACHE ...``: no search: the ``--cache`` files of earlier runs (each a probe's
  settings; LABEL names the probe) scored together as one grid, with the tuning bench's
  leave-one-out report (needs no database; with no cache file of a run, it says what to run
  first);
- ``misses``: instead of the report, where each gold turn or memory of every question ranks in
  the full fused list (top 10, 11–20, 21–50, 51+, never a candidate), by category, with the
  settings of the first ``--try`` (and the probes joined to it).

Probes are joined by ``+`` (``stem=words+neighbours=2,0.3``).

    .venv/bin/python bench/retrieval_probes.py passage-long --try ""
    .venv/bin/python bench/retrieval_probes.py prf=5,0.3 --try ""
    .venv/bin/python bench/retrieval_probes.py stem=words --grid vector_share=0.35,0.4
    .venv/bin/python bench/retrieval_probes.py neighbours=2,0.3 --try ""
    .venv/bin/python bench/retrieval_probes.py tail=2,0.5 --try ""
    .venv/bin/python bench/retrieval_probes.py stem=words+neighbours=2,0.3 --try ""
    .venv/bin/python bench/retrieval_probes.py misses --try ""
    .venv/bin/python bench/retrieval_probes.py next=prev-own-next --try "" --cache next3.json
    .venv/bin/python bench/retrieval_probes.py lexprf=5,10,0.3 --try "" --cache prf.json
    .venv/bin/python bench/retrieval_probes.py content=0.5 --try "" --cache content.json
    .venv/bin/python bench/retrieval_probes.py held-out defaults=defaults.json prf=prf.json
    .venv/bin/python bench/retrieval_probes.py user-lines=lexical --try "" --cache ul.json
    .venv/bin/python bench/retrieval_probes.py lexnorm=ideal --try "" --cache ideal.json
    .venv/bin/python bench/retrieval_probes.py qturn=0.8 --try "" --cache qturn.json
    CREDENCE_EMBEDDINGS__MODEL=e5-small-v2 \\
        .venv/bin/python bench/retrieval_probes.py query-model=e5-small-v2-q --try ""
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import json
import re
import sys
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import retrieval_tuning as tuning
from retrieval_locomo import DEFAULT_DATA as LOCOMO_DATA
from retrieval_locomo import Conversation, load_conversations
from retrieval_madial import DEFAULT_DATA as MADIAL_DATA
from retrieval_madial import DIALOGUE_FILE, load_dialogues

import app.memory.episodes as episodes_module
import app.memory.session_order as session_order
import app.retrieval.searches as searches
from app.config import Settings, get_settings
from app.embeddings import bundled
from app.embeddings.bundled import Pair
from app.embeddings.embedder import Embedder, model_id, shared_embedder
from app.graph.catalog import Query, QueryCatalog
from app.graph.client import GraphClient
from app.retrieval.context import build_context
from app.retrieval.lexical import _ranked
from app.retrieval.models import Context, ContextRequest
from app.retrieval.settings import RetrievalSettings
from app.text import entities, words
from app.text.lexical import bm25_of_words, tokens
from app.text.lucene import lucene_terms

EPISODES = """
MATCH (e:Episode {agent_id: $agent_id})
RETURN e.id AS id, e.external_id AS external_id, e.lexical_terms AS terms,
       e.token_count AS token_count, e.embedding AS embedding
"""
STEMMERS: dict[str, Callable[[str], str]] = {
    "none": lambda word: word,
    "light": entities.stem,
    "words": words.stem,
}


class Agents:
    """Each agent's episodes as stored, read once (a driver of its own: no catalog query)."""

    def __init__(self) -> None:
        self.rows: dict[str, list[dict[str, Any]]] = {}

    async def of(self, agent_id: str) -> list[dict[str, Any]]:
        if agent_id not in self.rows:
            import neo4j

            neo = get_settings().neo4j
            driver = neo4j.AsyncGraphDatabase.driver(
                neo.uri, auth=(neo.user, neo.password.get_secret_value())
            )
            try:
                records, _, _ = await driver.execute_query(EPISODES, agent_id=agent_id)
            finally:
                await driver.close()
            self.rows[agent_id] = [dict(record) for record in records]
        return self.rows[agent_id]


AGENTS = Agents()


def passage_long() -> None:
    """A long query embedded as a passage."""
    original = Embedder.embed_one
    long_terms = get_settings().retrieval.long_query_terms

    async def embed_one(self: Embedder, text: str, kind: Pair = "query") -> list[float] | None:
        if kind == "query" and len((lucene_terms(text) or "").split()) >= long_terms:
            kind = "passage"
        return await original(self, text, kind)

    Embedder.embed_one = embed_one  # type: ignore[method-assign]


def prf(nearest: int, beta: float) -> None:
    """The episodes' query vector moved towards the mean of its nearest episodes."""
    original = searches.SectionSearch._asked

    async def asked(self: searches.SectionSearch, question: bool, vector: bool) -> Any:
        found = await original(self, question, vector)
        if found.embedding is None:
            return found
        rows = await AGENTS.of(self.agent_id)
        matrix = np.array([row["embedding"] for row in rows if row["embedding"]], np.float32)
        query = np.array(found.embedding, np.float32)
        top = np.argsort(-(matrix @ query))[:nearest]
        moved = query + beta * matrix[top].mean(axis=0)
        moved /= np.linalg.norm(moved)
        return searches.AskedPeople(
            found.speakers,
            found.speaker_bonus,
            found.own_turn_weight,
            found.own_turn_pool,
            [float(x) for x in moved],
        )

    searches.SectionSearch._asked = asked  # type: ignore[method-assign]


Statistics = tuple[dict[str, list[str]], dict[str, int], dict[str, int], int]


def _statistics(
    rows: list[dict[str, Any]], counted: Callable[[list[str]], list[str]]
) -> Statistics:
    """An agent's episodes as the lexical half scores them: each one's ``counted`` stored words,
    each one's length, the words' document frequencies and the total length."""
    documents = {row["id"]: counted(row["terms"] or []) for row in rows}
    lengths = {row["id"]: int(row["token_count"] or 0) for row in rows}
    df: collections.Counter[str] = collections.Counter()
    for document in documents.values():
        df.update(set(document))
    return documents, lengths, dict(df), sum(lengths.values())


def stemmed(mode: str) -> None:
    """The episodes' lexical half in Python, on stemmed words (or words and stems)."""
    both = mode.startswith("both-")
    stem = STEMMERS[mode.removeprefix("both-")]

    def counted(terms: Sequence[str]) -> list[str]:
        stems = [stem(term) for term in terms]
        return [*terms, *(f"~{s}" for s in stems)] if both else stems

    statistics_of: dict[str, Statistics] = {}

    async def episode_hits(
        graph: GraphClient,
        agent_id: str,
        terms: str,
        *,
        pool: int,
        keep: int,
        unmatched: Collection[str] = (),
        **_: Any,
    ) -> list[dict[str, Any]]:
        if agent_id not in statistics_of:
            statistics_of[agent_id] = _statistics(await AGENTS.of(agent_id), counted)
        documents, lengths, df, length = statistics_of[agent_id]
        query = list(dict.fromkeys(counted(terms.split())))
        scores = bm25_of_words(
            query, documents, docs=len(documents), length=length, df=df, lengths=lengths
        )
        # As the episodes' lexical half: the asked speakers' names (``unmatched``) score but
        # match nothing, and the episodes only they match count as 0 in the normalisation.
        matched = set(counted([t for t in terms.split() if t not in unmatched]))
        if not matched or len(matched) == len(query):
            return _ranked(scores, keep)
        scores = {d: v for d, v in scores.items() if matched & set(documents[d])}
        return _ranked(scores, keep, floor=0.0 if len(scores) < keep else None)

    searches.episode_hits = episode_hits  # type: ignore[attr-defined]  # monkeypatch: not re-exported


NEIGHBOURS = """MATCH (e)-[:NEXT]-(neighbour:Episode)
  RETURN neighbour AS candidate, null AS found, e.id AS lifted_by, hit.own AS lift"""
SECOND_NEIGHBOURS = """MATCH p = (e)-[:NEXT*1..2]-(neighbour:Episode)
  RETURN neighbour AS candidate, null AS found, e.id AS lifted_by,
         hit.own * CASE length(p) WHEN 1 THEN 1.0 ELSE {factor} END AS lift"""
# The neighbour step as it is now (the best ``neighbour_sources`` candidates lift theirs).
SOURCE_NEIGHBOURS = """MATCH (source)-[:NEXT]-(neighbour:Episode)
  RETURN neighbour AS candidate, null AS found, source.id AS lifted_by, lift"""
DIRECTED_NEIGHBOURS = """MATCH (source)-[next:NEXT]-(neighbour:Episode)
  RETURN neighbour AS candidate, null AS found, source.id AS lifted_by,
         lift * CASE WHEN startNode(next) = source THEN {after} ELSE {before} END AS lift"""
BEST_NEIGHBOUR = "collect(lifted_by)[0] AS neighbour_of, max(lift) AS lift"
BOTH_NEIGHBOURS = "collect(lifted_by)[0] AS neighbour_of, sum(lift) AS lift"


def query_term_frequency(power: float) -> None:
    """A long query's lexical half with each term weighted by its count in the query ** power."""
    original = searches.SectionSearch._lexical

    async def lexical(self: searches.SectionSearch, fulltext_on: bool) -> Any:
        if self.terms is None or self._question() or not fulltext_on:
            return await original(self, fulltext_on)
        documents, lengths, df, length = _statistics(await AGENTS.of(self.agent_id), list)
        said = collections.Counter(tokens(self.text))
        scores: collections.Counter[str] = collections.Counter()
        for term in self.terms.split():
            one = bm25_of_words(
                [term],
                documents,
                docs=len(documents),
                length=length,
                df=df,
                lengths=lengths,
            )
            for document, score in one.items():
                scores[document] += score * max(said[term], 1) ** power
        keep = max(self.settings.candidates, self.k)
        return _ranked(dict(scores), keep)

    searches.SectionSearch._lexical = lexical  # type: ignore[method-assign]


def neighbours(how: str) -> None:
    """The episode search's neighbour step edited: both neighbours summed, or two places."""
    if how == "sum":
        edit = (BEST_NEIGHBOUR, BOTH_NEIGHBOURS)
    elif how.startswith("dir,"):
        _, after, before = how.split(",")
        directed = DIRECTED_NEIGHBOURS.format(after=float(after), before=float(before))
        edit = (SOURCE_NEIGHBOURS, directed)
    else:
        hops, factor = how.split(",")
        if hops != "2":
            raise SystemExit("neighbours=sum, neighbours=2,F or neighbours=dir,A,B")
        edit = (NEIGHBOURS, SECOND_NEIGHBOURS.format(factor=float(factor)))
    original = QueryCatalog.get

    def get(self: QueryCatalog, name: str) -> Query:
        query = original(self, name)
        if name != "retrieval/search_episodes":
            return query
        if edit[0] not in query.text:
            raise SystemExit("search_episodes.cypher changed: the probe no longer applies")
        text = query.text.replace(*edit)
        return dataclasses.replace(query, text=text)

    QueryCatalog.get = get  # type: ignore[method-assign]


async def misses(args: Any, probes: Sequence[str]) -> None:
    """Where every gold turn or memory ranks in the full fused list, by category."""
    settings = get_settings()
    setting = tuning.parse_tries(args.tries or [""])[0]
    retrieval = settings.retrieval.model_copy(update=setting)
    embedder = shared_embedder(settings.embeddings)
    graph = GraphClient.from_settings(settings.neo4j)
    original = GraphClient.read_collected
    full: list[list[str]] = []

    async def read(self: GraphClient, name: str, **params: Any) -> list[dict[str, Any]]:
        if name != "retrieval/search_episodes":
            return await original(self, name, **params)
        rows = await original(self, name, **{**params, "k": 1000})
        full.append([str(row["external_id"]) for row in rows])
        return rows[: params["k"]]

    GraphClient.read_collected = read  # type: ignore[method-assign]
    try:
        queries = await tuning.locomo_queries(graph, settings, embedder, retrieval, args.clock)
        queries += await tuning.madial_queries(graph, settings, embedder, retrieval, args.clock)
        buckets: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
        for query in queries:
            full.clear()
            request = ContextRequest(q=query.text, k=10, sections=["episodes"])
            await build_context(
                graph, embedder, retrieval, query.agent_id, request, now=query.asked_at
            )
            ranked = {external_id: i + 1 for i, external_id in enumerate(full[-1])}
            for gold in query.relevant:
                buckets[query.category][_bucket(ranked.get(gold))] += 1
    finally:
        GraphClient.read_collected = original  # type: ignore[method-assign]
        await graph.close()
    changed = [*(p for p in probes if p != "misses"), tuning.label(setting)]
    print(f"\nwhere the gold evidence ranks ({' '.join(filter(None, changed)) or 'the defaults'}):")
    for category, counts in sorted(buckets.items()):
        total = sum(counts.values())
        shares = ", ".join(
            f"{name} {100 * counts[name] / total:.0f}%"
            for name in ("top 10", "11-20", "21-50", "51+", "never")
        )
        print(f"  {category} ({total}): {shares}")


def _bucket(rank: int | None) -> str:
    if rank is None:
        return "never"
    return "top 10" if rank <= 10 else "11-20" if rank <= 20 else "21-50" if rank <= 50 else "51+"


def tail(lines: int, weight: float) -> None:
    """A long query's vector moved towards that of its last ``lines`` lines."""
    original = searches.SectionSearch._asked

    async def asked(self: searches.SectionSearch, question: bool, vector: bool) -> Any:
        found = await original(self, question, vector)
        if found.embedding is None or question or self.embed is None:
            return found
        end = "\n".join(self.text.strip().splitlines()[-lines:])
        near = await self.embed(end)
        if near is None:
            return found
        moved = np.array(found.embedding, np.float32) + weight * np.array(near, np.float32)
        moved /= np.linalg.norm(moved)
        return dataclasses.replace(found, embedding=[float(x) for x in moved])

    searches.SectionSearch._asked = asked  # type: ignore[method-assign]


def lexical_tail(lines: int) -> None:
    """A long query's lexical half on the words of its last ``lines`` lines."""
    original = searches.SectionSearch._lexical

    async def lexical(self: searches.SectionSearch, fulltext_on: bool) -> Any:
        if self.terms is None or self._question():
            return await original(self, fulltext_on)
        end = "\n".join(self.text.strip().splitlines()[-lines:])
        terms = lucene_terms(end)
        if not terms:
            return await original(self, fulltext_on)
        return await original(dataclasses.replace(self, terms=terms), fulltext_on)

    searches.SectionSearch._lexical = lexical  # type: ignore[method-assign]


def query_model(name: str) -> None:
    """Queries embedded by another bundled model; the search still names the stored vectors'."""
    if bundled.bundled(name) is None:
        raise SystemExit(
            f"query-model: {name!r} is not a bundled model ({', '.join(bundled.MODELS)})"
        )
    settings = get_settings().embeddings
    other = shared_embedder(settings.model_copy(update={"model": name}))
    if other.model_id == model_id(settings):
        raise SystemExit(f"query-model: {name!r} is the model the settings run already")
    original = Embedder.embed_one

    async def embed_one(self: Embedder, text: str, kind: Pair = "query") -> list[float] | None:
        if kind == "query" and self is not other:
            return await original(other, text, kind)
        return await original(self, text, kind)

    Embedder.embed_one = embed_one  # type: ignore[method-assign]


def next_turn(mode: str) -> None:
    """What an episode's vector embeds at import, with the next turn of its session in it."""
    if mode not in ("prev-own-next", "own-next", "prev-own", "own"):
        raise SystemExit("next=prev-own-next, next=own-next, next=own or next=prev-own")
    original = session_order.plan_order

    def plan_order(
        stored: Sequence[session_order.Placed], new: Sequence[session_order.Placed]
    ) -> session_order.OrderPlan:
        plan = original(stored, new)
        by_session: dict[str | None, list[session_order.Placed]] = collections.defaultdict(list)
        for episode in stored:
            by_session[episode.session].append(episode)
        for episode in new:
            if episode.session is not None:
                by_session[episode.session].append(
                    dataclasses.replace(episode, seq=plan.seq[episode.id] or 0)
                )
        for placed in by_session.values():
            ordered = sorted(placed, key=lambda e: (e.occurred_at, e.seq))
            for i, episode in enumerate(ordered):
                after = ordered[i + 1] if i + 1 < len(ordered) and mode != "own" else None
                if episode.id not in plan.embed and (after is None or after.id not in plan.seq):
                    continue
                before = ordered[i - 1] if i > 0 and mode == "prev-own-next" else None
                texts = [before, episode, after]
                plan.embed[episode.id] = "\n".join(e.search_text for e in texts if e is not None)
        return plan

    if mode != "prev-own":
        episodes_module.plan_order = plan_order  # type: ignore[attr-defined]  # monkeypatch: not re-exported
    original_agent = tuning.agent_for

    async def agent_for(
        graph: GraphClient, settings: Settings, conversation: Conversation, fresh: bool
    ) -> tuple[str, bool]:
        renamed = dataclasses.replace(
            conversation, sample_id=f"next-{mode}-{conversation.sample_id}"
        )
        return await original_agent(graph, settings, renamed, fresh)

    tuning.agent_for = agent_for


def lexical_prf(top: int, terms: int, weight: float, only: str = "") -> None:
    """The lexical half widened by the words of the first search's best episodes (RM3-like);
    ``only`` "single": only for questions that do not ask for several things; "long": only for
    long queries (a MADial dialogue) instead of questions."""
    original = searches.SectionSearch.episodes
    original_lexical = searches.SectionSearch._episode_lexical

    async def episodes(self: searches.SectionSearch) -> Any:
        if weight == 0 or self.terms is None or self._question() != (only != "long"):
            return await original(self)
        if only == "single" and self._several(True):
            return await original(self)
        first = await original(dataclasses.replace(self, k=max(top, self.k)))
        rows = await AGENTS.of(self.agent_id)
        documents, lengths, df, length = _statistics(rows, list)
        expansion = _feedback_terms(first[:top], documents, df, self.terms.split(), terms)
        if not expansion:
            return first[: self.k]
        scores: dict[str, float] = collections.defaultdict(float)
        for term, share in expansion.items():
            one = bm25_of_words(
                [term], documents, docs=len(documents), length=length, df=df, lengths=lengths
            )
            for document, score in one.items():
                scores[document] += share * score
        widened = {row["id"]: row["score"] for row in _ranked(dict(scores), len(scores))}

        async def lexical(search: searches.SectionSearch, fulltext_on: bool) -> Any:
            hits = await original_lexical(search, fulltext_on)
            if hits is None:
                return hits
            combined = {hit["id"]: float(hit["score"]) for hit in hits}
            for document, score in widened.items():
                combined[document] = combined.get(document, 0.0) + weight * score
            return _ranked(combined, len(hits) or max(self.settings.candidates, self.k))

        again = dataclasses.replace(self)
        object.__setattr__(again, "_episode_lexical", lexical.__get__(again))
        return await original(again)

    searches.SectionSearch.episodes = episodes  # type: ignore[method-assign]


def _feedback_terms(
    found: Sequence[dict[str, Any]],
    documents: dict[str, list[str]],
    df: dict[str, int],
    query: Sequence[str],
    count: int,
) -> dict[str, float]:
    """The ``count`` words of the ``found`` episodes that weigh most (each episode's words by
    their share of it, times the episode's score, times the word's idf), as weights summing to 1;
    query terms and speakers' names (the first word of each episode's words) left out."""
    names = {words[0] for words in documents.values() if words}
    weights: dict[str, float] = collections.defaultdict(float)
    docs = len(documents)
    for row in found:
        words_of = documents.get(str(row["id"]), [])
        if not words_of:
            continue
        said = collections.Counter(words_of)
        for word, times in said.items():
            if word in names or word in query:
                continue
            idf = np.log(1 + (docs - df[word] + 0.5) / (df[word] + 0.5))
            weights[word] += float(row["score"]) * times / len(words_of) * idf
    best = sorted(weights.items(), key=lambda item: (-item[1], item[0]))[:count]
    total = sum(w for _, w in best)
    return {word: w / total for word, w in best} if total > 0 else {}


def content_words(weight: float, names: bool) -> None:
    """The episodes' query vector plus ``weight`` × that of the question's content words."""
    original = searches.SectionSearch._asked

    async def asked(self: searches.SectionSearch, question: bool, vector: bool) -> Any:
        found = await original(self, question, vector)
        if found.embedding is None or not question or self.embed is None:
            return found
        text = self.text if names else self.episode_vector_text(list(found.speakers))
        content = lucene_terms(text)
        if not content or content == text:
            return found
        near = await self.embed(content)
        if near is None:
            return found
        moved = np.array(found.embedding, np.float32) + weight * np.array(near, np.float32)
        moved /= np.linalg.norm(moved)
        return dataclasses.replace(found, embedding=[float(x) for x in moved])

    searches.SectionSearch._asked = asked  # type: ignore[method-assign]


ASSISTANT_LINE = re.compile(r"^\s*<?assistant>?\s*:", re.IGNORECASE)


def _user_lines(text: str) -> str:
    """A dialogue without the lines the assistant said."""
    kept = [line for line in text.splitlines() if not ASSISTANT_LINE.match(line)]
    return "\n".join(kept) if kept else text


def user_lines(where: str) -> None:
    """A long query without the assistant's lines, in one half or both."""
    if where not in ("both", "vector", "lexical"):
        raise SystemExit("user-lines=both, user-lines=vector or user-lines=lexical")
    long_terms = get_settings().retrieval.long_query_terms
    original_build = tuning.build_context
    full_text: dict[str, str] = {}

    async def build(
        graph: GraphClient,
        embedder: Embedder,
        settings: RetrievalSettings,
        agent_id: str,
        request: ContextRequest,
        **kw: Any,
    ) -> Context:
        text = request.q
        if len((lucene_terms(text) or "").split()) < long_terms or where == "lexical":
            return await original_build(graph, embedder, settings, agent_id, request, **kw)
        shorter = _user_lines(text)
        full_text[shorter] = text
        changed = request.model_copy(update={"q": shorter})
        return await original_build(graph, embedder, settings, agent_id, changed, **kw)

    tuning.build_context = build
    original_lexical = searches.SectionSearch._lexical

    async def lexical(self: searches.SectionSearch, fulltext_on: bool) -> Any:
        if self.terms is None or self._question():
            return await original_lexical(self, fulltext_on)
        if where == "vector":  # the lexical half keeps the whole dialogue's words
            terms = lucene_terms(full_text.get(self.text, self.text))
        else:
            terms = lucene_terms(_user_lines(self.text))
        if not terms:
            return await original_lexical(self, fulltext_on)
        return await original_lexical(dataclasses.replace(self, terms=terms), fulltext_on)

    searches.SectionSearch._lexical = lexical  # type: ignore[method-assign]


def ideal_normalised(scope: str) -> None:
    """The episodes' lexical half scored against the question's ideal BM25, not min-max."""
    statistics_of: dict[str, Statistics] = {}
    original = searches.episode_hits  # type: ignore[attr-defined]  # a probe before may patch it
    long_terms = get_settings().retrieval.long_query_terms

    async def episode_hits(
        graph: GraphClient,
        agent_id: str,
        terms: str,
        *,
        pool: int,
        keep: int,
        unmatched: Collection[str] = (),
        **kw: Any,
    ) -> list[dict[str, Any]]:
        query = list(dict.fromkeys(terms.split()))
        if scope != "all" and len(query) >= long_terms:
            return await original(
                graph, agent_id, terms, pool=pool, keep=keep, unmatched=unmatched, **kw
            )
        if agent_id not in statistics_of:
            statistics_of[agent_id] = _statistics(await AGENTS.of(agent_id), list)
        documents, lengths, df, length = statistics_of[agent_id]
        scores = bm25_of_words(
            query, documents, docs=len(documents), length=length, df=df, lengths=lengths
        )
        matched = {t for t in query if t not in unmatched} or set(query)
        scores = {d: v for d, v in scores.items() if matched & set(documents[d])}
        average = max(1, round(length / max(len(documents), 1)))
        ideal = bm25_of_words(
            query,
            {"ideal": query},
            docs=len(documents),
            length=length,
            df=df,
            lengths={"ideal": average},
        ).get("ideal", 0.0)
        best = sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:keep]
        return [
            {"id": d, "rank": rank, "score": min(1.0, v / ideal) if ideal > 0 else 1.0}
            for rank, (d, v) in enumerate(best, start=1)
        ]

    searches.episode_hits = episode_hits  # type: ignore[attr-defined]  # monkeypatch: not re-exported


SPEAKER_FACTOR = "       * (1.0 + CASE WHEN e.speaker_key IN $w.asked_speakers"


def question_turns(factor: float) -> None:
    """A turn that ends with a question mark weighted ``factor`` × in the episode search."""
    original = QueryCatalog.get
    edit = f"       * CASE WHEN trim(e.text) ENDS WITH '?' THEN {factor} ELSE 1.0 END\n"

    def get(self: QueryCatalog, name: str) -> Query:
        query = original(self, name)
        if name != "retrieval/search_episodes":
            return query
        if SPEAKER_FACTOR not in query.text:
            raise SystemExit("search_episodes.cypher changed: the probe no longer applies")
        text = query.text.replace(SPEAKER_FACTOR, edit + SPEAKER_FACTOR)
        return dataclasses.replace(query, text=text)

    QueryCatalog.get = get  # type: ignore[method-assign]


HELD_OUT_FIRST = (
    'run the probes with --cache first, e.g. `bench/retrieval_probes.py prf=5,0.3 --try ""'
    " --cache prf.json`, then `held-out prf=prf.json` (LABEL=PATH; no '=' in LABEL)"
)


def held_out(named: Sequence[str], args: Any) -> int:
    """Earlier runs' ``--cache`` files scored together as one grid (no database)."""
    caches = _held_out_caches(named)
    queries = [
        query
        for conversation in load_conversations(LOCOMO_DATA)
        for query in tuning._conversation_queries(conversation, "", args.clock)
    ]
    dialogues = load_dialogues(MADIAL_DATA / DIALOGUE_FILE)
    queries += [
        tuning.Query("madial", "madial", "madial", "", "", d.relevant, None) for d in dialogues
    ]
    locomo = [i for i, q in enumerate(queries) if q.dataset == "locomo"]
    madial = [i for i, q in enumerate(queries) if q.dataset == "madial"]
    results: list[tuple[dict[str, Any], tuning.Scores]] = []
    for name, cache in caches.items():
        for key, cached in cache.items():
            setting = json.loads(key)
            if setting["clock"] != args.clock or len(cached["at10"]) != len(queries):
                continue
            scores = tuning.Scores(cached["at1"], cached["at5"], cached["at10"], cached["rr"])
            results.append(({"probe": name, **setting["setting"]}, scores))
            print(f"  {tuning.label(results[-1][0]):60s} {tuning.figures(scores, locomo, madial)}")
            print(f"  {'':60s} R@10 {tuning.per_category(scores, queries)}")
    if not results:
        raise SystemExit(
            f"held-out: no run in {', '.join(named)} was scored with --clock {args.clock} on"
            f" these {len(queries)} queries: {HELD_OUT_FIRST}"
        )
    tuning.report(results, queries, get_settings().retrieval, args.madial_folds)
    return 0


def _held_out_caches(named: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Each LABEL=PATH's cache of scored runs; stops with what to run first when none is named,
    a file is missing, or no file holds a run."""
    if not named:
        raise SystemExit(f"held-out: no LABEL=CACHE named: {HELD_OUT_FIRST}")
    caches: dict[str, dict[str, Any]] = {}
    for item in named:
        name, _, path = item.partition("=")
        if not Path(path).is_file():
            raise SystemExit(f"held-out: no cache file {path!r}: {HELD_OUT_FIRST}")
        caches[name] = tuning.load_cache(path)
    if not any(caches.values()):
        raise SystemExit(f"held-out: {', '.join(named)} hold no scored run: {HELD_OUT_FIRST}")
    return caches


def main(argv: Sequence[str]) -> int:
    if not argv or argv[0].startswith("-"):
        raise SystemExit(
            "first argument: passage-long | prf=M,BETA | stem=MODE | neighbours=HOW | tail=N,W | "
            "lextail=N | qtf=P | query-model=NAME | next=MODE | lexprf=N,T,W | content=W | "
            "content-names=W | user-lines=WHERE | lexnorm=ideal[,all] | qturn=F | misses "
            "(several joined by '+') | held-out LABEL=CACHE ..."
        )
    if argv[0] == "held-out":
        named = [a for a in argv[1:] if not a.startswith("-") and "=" in a]
        rest = [a for a in argv[1:] if a not in named]
        return held_out(named, tuning.parse_args(rest))
    args = tuning.parse_args(list(argv[1:]))
    probes = argv[0].split("+")
    for probe in probes:
        apply(probe)
    if "misses" in probes:
        asyncio.run(misses(args, probes))
        return 0
    return asyncio.run(tuning.main(args))


def apply(probe: str) -> None:
    """Swaps in one probe (``misses`` swaps nothing)."""
    if probe == "passage-long":
        passage_long()
    elif probe.startswith("prf="):
        nearest, beta = probe.removeprefix("prf=").split(",")
        prf(int(nearest), float(beta))
    elif probe.startswith("stem="):
        stemmed(probe.removeprefix("stem="))
    elif probe.startswith("neighbours="):
        neighbours(probe.removeprefix("neighbours="))
    elif probe.startswith("lextail="):
        lexical_tail(int(probe.removeprefix("lextail=")))
    elif probe.startswith("tail="):
        lines, weight = probe.removeprefix("tail=").split(",")
        tail(int(lines), float(weight))
    elif probe.startswith("qtf="):
        query_term_frequency(float(probe.removeprefix("qtf=")))
    elif probe.startswith("query-model="):
        query_model(probe.removeprefix("query-model="))
    elif probe.startswith("next="):
        next_turn(probe.removeprefix("next="))
    elif probe.startswith("lexprf="):
        top, count, weight, *only = probe.removeprefix("lexprf=").split(",")
        lexical_prf(int(top), int(count), float(weight), only[0] if only else "")
    elif probe.startswith("content="):
        content_words(float(probe.removeprefix("content=")), names=False)
    elif probe.startswith("content-names="):
        content_words(float(probe.removeprefix("content-names=")), names=True)
    elif probe.startswith("user-lines="):
        user_lines(probe.removeprefix("user-lines="))
    elif probe.startswith("lexnorm="):
        how, *scope = probe.removeprefix("lexnorm=").split(",")
        if how != "ideal":
            raise SystemExit("lexnorm=ideal or lexnorm=ideal,all")
        ideal_normalised(scope[0] if scope else "")
    elif probe.startswith("qturn="):
        question_turns(float(probe.removeprefix("qturn=")))
    elif probe != "misses":
        raise SystemExit(f"unknown probe {probe!r}")


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
