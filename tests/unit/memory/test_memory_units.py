"""Pure parts of memory and packs: Lucene terms, in-batch interference, token budgets, the
initial strengths of a pack, the vector cache."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from app.embeddings.vector_cache import VectorCache
from app.memory.episodes import _in_batch_interference
from app.packs.loader import initial_strengths, pack_checksum
from app.retrieval.budget import fit_to_budget, section_budgets
from app.retrieval.settings import RetrievalSettings
from app.seeds.pack_schema import KnowledgePack
from app.text.lucene import agent_clause, lucene_terms


def test_lucene_terms_keep_only_words_lower_cased_without_stop_words() -> None:
    # A contraction loses its apostrophe ("don't" -> "dont") and is a stop word as such.
    assert lucene_terms('What did Bart do at the party? AND OR "x" *:* NOT (a) don\'t') == (
        "bart party"
    )
    assert lucene_terms("I'm sure you're right, that's the bowl Mel made") == (
        "sure right bowl mel made"
    )
    assert lucene_terms("the of and") is None
    assert lucene_terms("") is None


def test_agent_clause_requires_every_piece_of_the_id() -> None:
    assert agent_clause("bd912128-5f3c-4e1a") == '(+"bd912128" +"5f3c" +"4e1a")'
    assert agent_clause("single_token") == '(+"single_token")'
    assert agent_clause("a--b-") == '(+"a" +"b")'  # empty pieces dropped
    assert agent_clause("___") == '(+"___")'  # nothing alphanumeric: the id as it is
    assert agent_clause('x"y\\z') == '(+"x\\"y\\\\z")'  # quotes and backslashes escaped


def test_lucene_terms_keep_the_last_distinct_terms() -> None:
    words = " ".join(f"word{n}" for n in range(100)) + " word0"
    terms = lucene_terms(words, max_terms=3)
    assert terms == "word98 word99 word0"


def _unit(vector: list[float]) -> list[float]:
    array = np.asarray(vector, dtype=float)
    return list(array / np.linalg.norm(array))


def test_in_batch_interference_counts_newer_similar_memories_for_the_older_one() -> None:
    start = datetime(2024, 1, 1, tzinfo=UTC)
    vectors = [_unit([1, 0, 0]), _unit([1, 0.1, 0]), _unit([0, 1, 0]), _unit([1, 0.05, 0])]
    times = [start + timedelta(days=d) for d in (0, 2, 3, 1)]
    # 0, 1 and 3 are similar (cos ≥ 0.8); by time: 0 < 3 < 1. 2 is unrelated.
    assert _in_batch_interference(vectors, times, 0.8) == [2, 0, 0, 1]
    assert _in_batch_interference(vectors[:1], times[:1], 0.8) == [0]


def test_items_are_kept_in_score_order_within_the_budget() -> None:
    items = [{"statement": "x" * 400}, {"statement": "y" * 40}, {"statement": "z" * 40}]
    kept, used, dropped = fit_to_budget(items, budget=25, chars_per_token=4.0)
    assert [i["statement"][0] for i in kept] == ["y", "z"]
    assert (used, dropped) == (20, 1)


def test_section_budgets_share_the_frame_budget_by_setting() -> None:
    budgets = section_budgets(RetrievalSettings(), 1000, ["beliefs", "episodes"])
    assert budgets == {"beliefs": 571, "episodes": 428}


def _pack(**changes: object) -> KnowledgePack:
    data: dict[str, object] = {
        "name": "tiny",
        "version": 1,
        "industry": "test",
        "description": "A tiny pack.",
        "beliefs": [
            {
                "key": "a",
                "statement": "A",
                "category": "contextual",
                "strength": 0.9,
                "supports": [{"key": "c", "weight": 1.0}],
            },
            {
                "key": "b",
                "statement": "B",
                "category": "contextual",
                "strength": 0.5,
                "supports": [{"key": "c", "weight": 0.5}],
            },
            {
                "key": "c",
                "statement": "C",
                "category": "contextual",
                "strength": 0.1,
                "supports": [{"key": "d"}],
            },
            {"key": "d", "statement": "D", "category": "contextual", "strength": 0.2},
        ],
        **changes,
    }
    return KnowledgePack.model_validate(data)


def test_supported_pack_beliefs_start_at_their_supporters_weighted_mean() -> None:
    strengths = initial_strengths(_pack(), {})
    c = (0.9 * 1.0 + 0.5 * 0.5) / 1.5
    assert strengths == pytest.approx({"a": 0.9, "b": 0.5, "c": c, "d": c})
    learned = initial_strengths(_pack(), {"a": 0.3})
    assert learned["c"] == pytest.approx((0.3 + 0.25) / 1.5)


def test_the_pack_checksum_changes_with_the_content() -> None:
    assert pack_checksum(_pack()) == pack_checksum(_pack())
    assert pack_checksum(_pack()) != pack_checksum(_pack(description="Another."))


def test_the_vector_cache_returns_what_was_stored_for_the_same_model(tmp_path: Path) -> None:
    cache = VectorCache(tmp_path / "v.sqlite3", "model-a", 3)
    other_model = VectorCache(tmp_path / "v.sqlite3", "model-b", 3)
    cache.put_many(["hello"], [[0.6, 0.8, 0.0]])

    assert cache.get_many(["hello", "new"]) == [pytest.approx([0.6, 0.8, 0.0]), None]
    assert other_model.get_many(["hello"]) == [None]


def test_the_vector_cache_writes_without_waiting_for_an_fsync_and_keeps_what_it_wrote(
    tmp_path: Path,
) -> None:
    cache = VectorCache(tmp_path / "v.sqlite3", "model-a", 3)
    cache.put_many(["hello"], [[0.6, 0.8, 0.0]])
    db = cache._connect()
    assert db is not None
    # WAL with synchronous NORMAL (1): a commit reaches the disk at the next checkpoint.
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 1

    reopened = VectorCache(tmp_path / "v.sqlite3", "model-a", 3)
    assert reopened.get_many(["hello"]) == [pytest.approx([0.6, 0.8, 0.0])]


def test_an_unusable_cache_path_means_no_cache_not_an_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    cache = VectorCache(blocker / "v.sqlite3", "model", 3)

    cache.put_many(["x"], [[1.0, 0.0, 0.0]])
    assert cache.get_many(["x"]) == [None]


def test_remembered_vectors_are_used_without_the_model(tmp_path: Path) -> None:
    from app.embeddings.embedder import Embedder
    from app.embeddings.settings import EmbeddingSettings

    embedder = Embedder(
        EmbeddingSettings(model=str(tmp_path / "no-model"), cache_path="", dimensions=3)
    )
    embedder.remember(["known statement"], [[1.0, 0.0, 0.0]])
    embedder.remember(["wrong size"], [[1.0, 0.0]])
    assert embedder.embed_sync(["known statement"]) == [[1.0, 0.0, 0.0]]
    # Anything not remembered needs the model, which this embedder does not have.
    assert embedder.embed_sync(["known statement", "wrong size"]) is None
