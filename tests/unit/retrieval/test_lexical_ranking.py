"""Per-agent BM25 (app/text/lexical.py), the normalisation of the kept hits
(app/retrieval/lexical.py) and the session-neighbourhood diversification
(app/retrieval/diversity.py)."""

from __future__ import annotations

import math

from app.retrieval.diversity import diversified
from app.retrieval.lexical import _ranked
from app.text.lexical import DocumentStats, bm25, bm25_of_words, document_frequencies, idf, tokens


def test_tokens_are_lower_cased_words_without_apostrophes() -> None:
    assert tokens("Bart's KAYAK, 2022!") == ["barts", "kayak", "2022"]


def test_document_statistics_count_each_term_once_per_document_and_skip_stop_words() -> None:
    stats = DocumentStats.of(["the lantern and the lantern", "a kayak"])
    assert stats.docs == 2 and stats.length == 7
    assert stats.df == {"lantern": 1, "kayak": 1}


def test_the_rarer_term_of_the_agent_ranks_its_document_first() -> None:
    texts = {"k": "kayak trip", "l1": "lantern light", "l2": "lantern oil"}
    stats = DocumentStats.of(texts.values())
    scores = bm25(["kayak", "lantern"], texts, stats.docs, stats.length, stats.df)
    assert max(scores, key=lambda key: scores[key]) == "k"
    assert math.isclose(scores["k"], idf(3, 1) * 2.2 / (1 + 1.2))  # tf 1, average length


def test_statistics_that_miss_a_term_still_give_a_score() -> None:
    scores = bm25(["new"], {"a": "a new turn"}, docs=0, length=0, df={})
    assert scores["a"] > 0


def test_frequencies_and_scores_of_split_documents_are_those_of_their_texts() -> None:
    texts = {"a": "The lantern and the lantern", "b": "A kayak by the lantern", "c": "rain"}
    words = {doc_id: tokens(text) for doc_id, text in texts.items()}
    terms = ["lantern", "kayak", "stove"]
    stats = DocumentStats.of(texts.values())
    assert document_frequencies(terms, words.values()) == {"lantern": 2, "kayak": 1}
    assert {t: stats.df[t] for t in ("lantern", "kayak")} == {"lantern": 2, "kayak": 1}
    by_words = bm25_of_words(terms, words, stats.docs, stats.length, stats.df)
    assert by_words == bm25(terms, texts, stats.docs, stats.length, stats.df)
    assert set(by_words) == {"a", "b"}


def _row(name: str, session: str | None, seq: int | None) -> dict[str, object]:
    return {"id": name, "session": session, "seq": seq}


def test_kept_scores_are_normalised_from_the_lowest_or_from_a_floor() -> None:
    scores = {"a": 4.0, "b": 2.0, "c": 3.0}

    assert [(h["id"], h["rank"], h["score"]) for h in _ranked(scores, 50)] == [
        ("a", 1, 1.0),
        ("c", 2, 0.5),
        ("b", 3, 0.0),
    ]
    # Matches left unread (the asked speakers' names) count as scoring 0.
    assert [h["score"] for h in _ranked(scores, 50, floor=0.0)] == [1.0, 0.75, 0.5]
    assert [h["id"] for h in _ranked(scores, 2)] == ["a", "c"]


def test_a_crowded_moment_yields_its_slots_to_other_sessions_first() -> None:
    rows = [
        _row("a5", "a", 5),
        _row("a6", "a", 6),
        _row("a4", "a", 4),
        _row("b1", "b", 1),
        _row("a20", "a", 20),
        _row("c1", None, None),
    ]
    picked = diversified(rows, 4, per_moment=1, window=2)
    assert [row["id"] for row in picked] == ["a5", "b1", "a20", "c1"]
    assert [r["id"] for r in diversified(rows, 8, per_moment=1, window=2)][-2:] == ["a6", "a4"]
    assert diversified(rows, 3, per_moment=0, window=2) == rows[:3]
