"""The lexical half of the episode, belief and rule searches and of the research corpus search,
on the agent's own statistics (``app/text/lexical.py``).

The fulltext index finds the agent's documents that hold a query term (at most ``pool`` of
them); they are scored again with BM25 over the agent's own document frequencies and lengths, so
another agent's documents, present or deleted, change neither the scores nor the order. Lucene's
index-wide scores only choose the pool: when an agent has more matching documents than the pool,
which ones come back can still depend on them.

Every document stores the words it is scored by (``lexical_terms``: its counted tokens, in
order; ``token_count``: every token), written with it (``app/text/lexical.py`` ``scored_words``),
so only the query's terms among them travel, not the text, and the pools are large: episodes
``episode_lexical_pool`` (1,000: every match of the LoCoMo development questions), beliefs,
rules and passages ``lexical_pool`` (300). Episodes are scored in the database (the same
arithmetic, ``cypher/retrieval/lexical_episode_hits.cypher``) and only the best ``keep``
travel; the short texts' words travel and are scored here. Documents written before they stored
their terms get them the first time a search meets one (``app/memory/lexical_stats.py`` for
episodes, ``app/retrieval/stored_terms.py`` for the others).

Episodes read statistics kept on every write (``app/memory/lexical_stats.py``). Beliefs and
rules are short texts that many paths write and rewrite (packs, learning, research, revisions,
edits), and corpus passages are written and removed a document at a time (loads, replacements,
deletions), so their statistics are counted at query time over the agent's own live documents
(``cypher/retrieval/lexical_short_text_candidates.cypher``): the number of documents, each
query term's document frequency (from the candidates when every match is one of them, else by
the fulltext index scoped to the agent) and their total length (stored with their terms; a
document written before by the mean over at most ``LENGTH_SAMPLE`` of such ones).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from app.graph.client import GraphClient
from app.memory.lexical_stats import ensure_statistics
from app.retrieval.stored_terms import ensure_episode_terms, ensure_short_text_terms
from app.text.background import background_rate, common_in_english
from app.text.lexical import K1, B, bm25_of_words, document_frequencies, tokens
from app.text.lucene import agent_clause


async def episode_hits(
    graph: GraphClient,
    agent_id: str,
    terms: str,
    *,
    pool: int,
    keep: int,
    background_docs: int = 0,
    common_frequency: float = 0.0,
    unmatched: Collection[str] = (),
) -> list[dict[str, Any]]:
    """The ``keep`` best episodes for the Lucene ``terms`` by the agent's own BM25, best first:
    ``id``, ``rank`` (1-based) and ``score`` (min-max normalised over the kept ones, 1.0 when
    they are all equal). ``background_docs`` documents of general English join the agent's own
    in the idf (``app/text/background.py``; 0: the agent's statistics alone); query terms that
    general English uses at least ``common_frequency`` times per token are left out (0: none),
    so that the chatter of a long query does not match on words a small agent happens to hold
    rarely. ``unmatched``: terms that count in the scores of the episodes the others match but
    match none themselves (the names of the speakers a question asks about, which match every
    turn those people said); the episodes only they would have matched are not read, and count
    as scoring 0 in the normalisation when fewer than ``keep`` are kept (ignored when no other
    term is left)."""
    if common_frequency > 0:
        kept = [term for term in terms.split() if not common_in_english(term, common_frequency)]
        if not kept:
            return []
        terms = " ".join(kept)
    matched = " ".join(term for term in terms.split() if term not in unmatched)
    if not matched:
        matched = terms
    row = await _episode_hits(graph, agent_id, terms, matched, pool, keep, background_docs)
    if row["docs"] is None:
        if not row["matched"]:
            return []
        # Episodes written before the statistics were kept: built once, then read again.
        await ensure_statistics(graph, agent_id)
        row = await _episode_hits(graph, agent_id, terms, matched, pool, keep, background_docs)
    if row["unstored"]:
        # Episodes written before episodes stored their terms: stored once, then read again.
        await ensure_episode_terms(graph, agent_id)
        row = await _episode_hits(graph, agent_id, terms, matched, pool, keep, background_docs)
    hits = {hit["id"]: hit["score"] for hit in row["hits"]}
    unread = matched != terms and len(hits) < keep
    return _ranked(hits, keep, floor=0.0 if unread else None)


@dataclass(frozen=True)
class ShortTexts:
    """A kind of document whose statistics are counted at query time, searched by its fulltext
    index: its label, the index and the indexed text properties (a query term matches in any of
    them; a document's words are theirs together)."""

    label: str
    index: str
    fields: tuple[str, ...]


BELIEFS = ShortTexts("Belief", "belief_statement_fulltext", ("statement",))
RULES = ShortTexts("Rule", "rule_content_fulltext", ("content",))
# A passage of the research corpus carries its document's title, indexed beside its text.
CORPUS_PASSAGES = ShortTexts("CorpusPassage", "corpus_passage_text_fulltext", ("title", "text"))

# How many of an agent's beliefs, rules or passages measure their mean length (in tokens):
# reading every statement of an agent with 3,000 beliefs cost ~8 ms a query; 200 (exact up to
# 200) ~1 ms.
LENGTH_SAMPLE = 200


async def short_text_hits(
    graph: GraphClient,
    kind: ShortTexts,
    agent_id: str,
    terms: str,
    *,
    pool: int,
    keep: int,
) -> list[dict[str, Any]]:
    """The ``keep`` best beliefs, rules or passages (``kind``) for the Lucene ``terms`` by BM25
    on the agent's own documents, counted at query time, best first: ``id``, ``rank`` and
    ``score`` (normalised as ``episode_hits`` does). Documents met without their stored terms
    (written before documents stored them) get them first, then the candidates are read
    again."""
    row = await short_text_candidates(graph, kind, agent_id, terms, pool)
    if any("terms" not in hit for hit in row["hits"]):
        # Documents written before documents stored their terms: stored once, then read again.
        await ensure_short_text_terms(graph, kind.label, kind.fields, agent_id)
        row = await short_text_candidates(graph, kind, agent_id, terms, pool)
    query_terms = terms.split()
    hits, lengths = _words_of(row["hits"], lambda hit: str(hit["text"] or ""))
    docs, stored, sample = int(row["docs"] or 0), int(row["stored"] or 0), row["sample"]
    # Documents that carry their length count by it, the others by the mean of the sampled ones.
    sampled_length = sum(len(tokens(text)) for text in sample)
    length = int(row["stored_length"] or 0)
    if sample:
        length += round(sampled_length * (docs - stored) / len(sample))
    # Fewer matches than the pool: every document holding a term is a hit, counted here.
    df = (
        _frequencies(row)
        if row["df"] is not None
        else document_frequencies(query_terms, hits.values())
    )
    scores = bm25_of_words(query_terms, hits, docs=docs, length=length, df=df, lengths=lengths)
    return _ranked(scores, keep)


async def short_text_candidates(
    graph: GraphClient, kind: ShortTexts, agent_id: str, terms: str, pool: int
) -> dict[str, Any]:
    """The agent's fulltext candidates of ``kind`` and their statistics: one row of
    ``cypher/retrieval/lexical_short_text_candidates.cypher`` (``hits``, ``docs``, ``stored``,
    ``stored_length``, ``sample``, ``df``: None when every match is a hit)."""
    rows = await graph.read(
        "retrieval/lexical_short_text_candidates",
        label=kind.label,
        index=kind.index,
        agent_id=agent_id,
        agent_clause=agent_clause(agent_id),
        terms=terms,
        lists={"fields": list(kind.fields), "term_list": terms.split()},
        pool=pool,
        length_sample=LENGTH_SAMPLE,
    )
    return dict(rows[0])


def _words_of(
    hits: list[dict[str, Any]], text_of: Callable[[dict[str, Any]], str]
) -> tuple[dict[str, list[str]], dict[str, int]]:
    """Each hit's words, by id: the query's terms among those it stores, with its length stored
    beside them (the second map), or its text (``text_of``) split into tokens (a document
    written without them meanwhile)."""
    words: dict[str, list[str]] = {}
    lengths: dict[str, int] = {}
    for hit in hits:
        if "terms" in hit:
            words[hit["id"]] = list(hit["terms"])
            lengths[hit["id"]] = int(hit["token_count"] or 0)
        else:
            words[hit["id"]] = tokens(text_of(hit))
    return words, lengths


def _frequencies(row: dict[str, Any]) -> dict[str, int]:
    return {item["term"]: int(item["df"]) for item in row["df"]}


def _ranked(
    scores: dict[str, float], keep: int, floor: float | None = None
) -> list[dict[str, Any]]:
    """The ``keep`` best of ``scores``, best first (ties by id), with their rank and their score
    min-max normalised over the kept ones (1.0 when they are all equal), or from ``floor``
    instead of the lowest kept score when one is given."""
    best = sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:keep]
    if not best:
        return []
    lo, hi = (best[-1][1] if floor is None else floor), best[0][1]
    return [
        {"id": doc_id, "rank": rank, "score": (score - lo) / (hi - lo) if hi > lo else 1.0}
        for rank, (doc_id, score) in enumerate(best, start=1)
    ]


async def _episode_hits(
    graph: GraphClient,
    agent_id: str,
    terms: str,
    matched: str,
    pool: int,
    keep: int,
    background_docs: int,
) -> dict[str, Any]:
    """The episodes' BM25 in the database (``cypher/retrieval/lexical_episode_hits.cypher``,
    the arithmetic of ``bm25_of_words``): the episodes the ``matched`` terms match, scored by
    all the ``terms``; only the ``keep`` best travel, not every match's words (a match's words,
    decoded here, cost more than the rest of the search)."""
    unique = list(dict.fromkeys(terms.split()))
    rates = [background_rate(term) if background_docs > 0 else 0.0 for term in unique]
    rows = await graph.read(
        "retrieval/lexical_episode_hits",
        agent_id=agent_id,
        agent_clause=agent_clause(agent_id),
        terms=matched,
        lists={"term_rates": [{"term": t, "rate": r} for t, r in zip(unique, rates, strict=True)]},
        background_docs=background_docs,
        k1=K1,
        b=B,
        pool=pool,
        keep=keep,
    )
    return rows[0]
