"""Per-agent lexical statistics and BM25: what an episode's words count for, measured on its own
agent's episodes only.

Neo4j's fulltext scores use statistics of the whole index (document frequencies and mean length
over every agent's nodes, deleted ones included until Lucene merges them), so one agent's data
moved another agent's keyword ranking. Here a document's tokens are counted the same way on
write (``app/memory/lexical_stats.py`` keeps each agent's document frequencies and lengths) and
on read (``app/retrieval/lexical.py`` re-scores the fulltext candidates with them), so the score
depends on the agent's own episodes alone.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.text.lucene import WORD_TOKEN
from app.text.stopwords import QUERY_STOP_WORDS

# Lucene's BM25 defaults.
K1 = 1.2
B = 0.75


def tokens(text: str) -> list[str]:
    """Every word token of ``text``, lower-cased, apostrophes dropped (as ``lucene_terms``
    makes query terms): the length of a document is the number of these."""
    found = WORD_TOKEN.findall(text.lower())
    if "'" not in text:
        return found
    return [raw.replace("'", "") for raw in found]


def counted(term: str) -> bool:
    """Whether a token gets a document frequency: only those a query can ask for
    (``lucene_terms`` leaves out one-letter tokens and stop words)."""
    return len(term) >= 2 and term not in QUERY_STOP_WORDS


def document_text(*fields: str | None) -> str:
    """The words of a document that has several indexed fields (an episode: search text, user
    message, response)."""
    return "\n".join(field for field in fields if field)


@dataclass(frozen=True)
class DocumentStats:
    """One batch of documents: how many, their total length and each counted term's document
    frequency."""

    docs: int
    length: int
    df: Mapping[str, int]

    @classmethod
    def of(cls, texts: Iterable[str]) -> DocumentStats:
        return cls.of_words(tokens(text) for text in texts)

    @classmethod
    def of_scored(cls, documents: Iterable[Mapping[str, Any]]) -> DocumentStats:
        """The statistics of documents given by what they store (``scored_words``)."""
        docs = length = 0
        df: Counter[str] = Counter()
        for document in documents:
            docs += 1
            length += int(document["token_count"])
            df.update(set(document["lexical_terms"]))
        return cls(docs=docs, length=length, df=dict(df))

    @classmethod
    def of_words(cls, documents: Iterable[Sequence[str]]) -> DocumentStats:
        """The statistics of documents already split into their ``tokens``."""
        docs = length = 0
        df: Counter[str] = Counter()
        for words in documents:
            docs += 1
            length += len(words)
            df.update({word for word in words if counted(word)})
        return cls(docs=docs, length=length, df=dict(df))


def counted_terms(words: Iterable[str]) -> list[str]:
    """The tokens of a document that a query can ask for (``counted``), in order, repeats kept:
    what a document stores to be scored without its text (``lexical_terms``)."""
    return [word for word in words if counted(word)]


def scored_words(*fields: str | None) -> dict[str, Any]:
    """What a document of several text fields stores to be scored without its text (a belief's
    statement, a rule's content, a passage's title and text): ``lexical_terms`` (its counted
    tokens, in order) and ``token_count`` (every token)."""
    words = tokens(document_text(*fields))
    return {"lexical_terms": counted_terms(words), "token_count": len(words)}


def document_frequencies(
    query_terms: Iterable[str], documents: Iterable[Sequence[str]]
) -> dict[str, int]:
    """How many of ``documents`` (each its tokens) hold each query term (as ``DocumentStats``
    counts it, for these terms only)."""
    wanted = set(query_terms)
    df: Counter[str] = Counter()
    for words in documents:
        df.update(wanted.intersection(words))
    return dict(df)


def idf(docs: float, df: float) -> float:
    """Lucene's BM25 idf (never negative)."""
    return math.log(1.0 + (docs - df + 0.5) / (df + 0.5))


def bm25(
    query_terms: Sequence[str],
    texts: Mapping[str, str],
    docs: int,
    length: int,
    df: Mapping[str, int],
    *,
    background: Callable[[str], float] | None = None,
    background_docs: int = 0,
) -> dict[str, float]:
    """The BM25 score of each document of ``texts`` (id -> text) that holds a query term, with
    the collection statistics given (``docs``, total ``length``, ``df``: one agent's).

    With a ``background`` (term -> share of general documents holding it,
    ``app/text/background.py``) the idf counts ``background_docs`` such documents on top of the
    agent's own, so a small agent's noisy document frequencies lean on general English.

    A document or term the statistics do not count yet (written after they were read) counts
    as if it were in them, so a score is never undefined."""
    words = {doc_id: tokens(text) for doc_id, text in texts.items()}
    return bm25_of_words(
        query_terms, words, docs, length, df, background=background, background_docs=background_docs
    )


def bm25_of_words(
    query_terms: Sequence[str],
    documents: Mapping[str, Sequence[str]],
    docs: int,
    length: int,
    df: Mapping[str, int],
    *,
    background: Callable[[str], float] | None = None,
    background_docs: int = 0,
    lengths: Mapping[str, int] | None = None,
) -> dict[str, float]:
    """``bm25`` of documents already split into their ``tokens`` (id -> tokens); ``lengths``:
    the length of those documents that are given by their counted terms alone (id -> every
    token's count), the others' being their number of tokens."""
    average = length / docs if docs > 0 and length > 0 else 1.0
    total_docs = max(docs, 1)
    extra = background_docs if background is not None else 0
    weights = {
        term: idf(
            total_docs + extra,
            min(max(df.get(term, 0), 1), total_docs)
            + (extra * background(term) if background is not None else 0.0),
        )
        for term in query_terms
    }
    scores: dict[str, float] = {}
    for doc_id, words in documents.items():
        frequencies = [(weight, words.count(term)) for term, weight in weights.items()]
        if not any(tf for _, tf in frequencies):
            continue
        size = lengths.get(doc_id, len(words)) if lengths is not None else len(words)
        norm = K1 * (1.0 - B + B * size / average)
        scores[doc_id] = sum(
            weight * tf * (K1 + 1.0) / (tf + norm) for weight, tf in frequencies if tf
        )
    return scores
