"""One text embedded alone (a query, on a request's path) runs on a session of its own with
``single_text_threads`` intra-op threads; batches keep ``threads``. The vectors do not depend on
which session made them."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from app.embeddings import encoders
from app.embeddings.embedder import Embedder
from app.embeddings.settings import EmbeddingSettings

TEXTS = [
    "What did Caroline research?",
    "Please reconcile the bank account before the month-end close.",
    "Caroline: I went to the LGBTQ support group yesterday and it was powerful.",
]


def _loaded(monkeypatch: pytest.MonkeyPatch, **settings: Any) -> tuple[Embedder, list[int]]:
    """An embedder of the bundled default model, and the thread count of each session made."""
    made: list[int] = []
    real = encoders._session

    def counted(model_file: Any, threads: int) -> Any:
        made.append(threads)
        return real(model_file, threads)

    monkeypatch.setattr(encoders, "_session", counted)
    embedder = Embedder(EmbeddingSettings(cache_path="", **settings))
    assert embedder.available, embedder.status().reason
    return embedder, made


def test_one_text_alone_runs_on_a_single_threaded_session_of_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, made = _loaded(monkeypatch)
    assert made == [0, 1]  # batches: the runtime's default; one text alone: one thread


def test_one_session_when_the_two_thread_counts_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    _, made = _loaded(monkeypatch, threads=2, single_text_threads=2)
    assert made == [2]


def test_the_vectors_do_not_depend_on_the_session(monkeypatch: pytest.MonkeyPatch) -> None:
    own, _ = _loaded(monkeypatch)
    shared, _ = _loaded(monkeypatch, single_text_threads=0)
    for text in TEXTS:
        alone, same = own.embed_sync([text], "query"), shared.embed_sync([text], "query")
        assert alone is not None and same is not None
        assert np.allclose(alone, same, atol=1e-6)
    # A batch's rows are those of the batch session either way.
    assert np.allclose(own.embed_sync(TEXTS) or [], shared.embed_sync(TEXTS) or [], atol=1e-6)


def test_single_text_threads_is_bounded() -> None:
    with pytest.raises(ValueError, match="single_text_threads"):
        EmbeddingSettings(single_text_threads=-1)
