"""The ways Credence runs the embedding model, behind one ``encode`` call.

- :class:`BundledEncoder` — a bundled model's ONNX graph (app/embeddings/bundled.py) on ONNX
  Runtime with its fast tokenizer: token states mean-pooled over the attention mask and
  L2-normalised here. The default; needs neither torch nor the ``onnx`` package.
- :class:`OnnxEncoder` — also a model folder of one's own on ONNX Runtime and the fast
  tokenizer (no torch in the process once the ONNX copy exists, see
  :mod:`app.embeddings.onnx_build`). Measured on the 2-core machine:
  one query 3–4 ms instead of 13–15 ms, ~1.4× the batch throughput, the same vectors (fp32).
- :class:`TorchEncoder` — sentence-transformers on torch, the reference, used when ONNX Runtime is
  missing or the model's pipeline cannot be exported (both need the ``torch`` extra).

Both return L2-normalised float32 rows in input order.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from app.embeddings import bundled
from app.embeddings.settings import EmbeddingSettings

log = logging.getLogger(__name__)

# Torch's OpenMP threads otherwise spin between calls and take the CPU from Neo4j on a small
# machine (measured: query-embedding p95 493 → 40 ms in the API). Read when torch starts its
# threads, so it is set before anything here imports torch.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

Matrix = npt.NDArray[np.float32]


class Encoder(Protocol):
    backend: str

    def dimensions(self) -> int: ...

    def encode(self, texts: list[str], batch_size: int) -> Matrix: ...


def _session(model_file: Path, threads: int) -> Any:
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    # Idle threads sleep instead of spinning, so the model does not take the CPU from Neo4j
    # between calls (the same reason as OMP_WAIT_POLICY=PASSIVE for torch).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return onnxruntime.InferenceSession(
        str(model_file), options, providers=["CPUExecutionProvider"]
    )


def _tokenizer(file: Path, max_seq_length: int) -> Any:
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(file))
    tokenizer.enable_truncation(max_seq_length)
    tokenizer.no_padding()  # tokenizer.json may pad to a fixed length: pad per batch
    return tokenizer


class OnnxEncoder:
    """Runs a graph that takes ``input_ids`` and ``attention_mask`` (and ``token_type_ids`` when
    it asks for them) in length-sorted padded batches; ``pooled``: the graph returns finished
    sentence vectors, else token states that are mean-pooled and normalised here."""

    def __init__(
        self,
        model_file: Path,
        tokenizer_file: Path,
        max_seq_length: int,
        threads: tuple[int, int],
        backend: str,
        pooled: bool = True,
    ) -> None:
        """``threads``: intra-op threads for batches, and for one text alone (a session of its
        own when the two differ)."""
        batches, single = threads
        self._session = _session(model_file, batches)
        self._single = self._session if single == batches else _session(model_file, single)
        self._tokenizer = _tokenizer(tokenizer_file, max_seq_length)
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._pooled = pooled
        self.backend = backend

    @classmethod
    def load(cls, model_dir: Path, settings: EmbeddingSettings) -> OnnxEncoder:
        from app.embeddings.onnx_build import (
            FP32_FILE,
            INT8_FILE,
            TOKENIZER_FILE,
            ensure_onnx_model,
        )

        folder, spec = ensure_onnx_model(
            model_dir, Path(settings.onnx_cache_path).expanduser(), settings.quantize
        )
        return cls(
            folder / (INT8_FILE if settings.quantize else FP32_FILE),
            folder / TOKENIZER_FILE,
            spec.max_seq_length,
            (settings.threads, settings.single_text_threads),
            "onnx-int8" if settings.quantize else "onnx",
        )

    def dimensions(self) -> int:
        return int(self.encode(["dimension probe"], 1).shape[1])

    def _run(self, ids: npt.NDArray[np.int64], mask: npt.NDArray[np.int64]) -> Matrix:
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        session = self._single if len(ids) == 1 else self._session
        rows = session.run(None, feed)[0]
        if self._pooled:
            return np.asarray(rows, dtype=np.float32)
        weights = mask[..., None].astype(np.float32)
        pooled = (rows * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        norms = np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        return np.asarray(pooled / norms, dtype=np.float32)

    def encode(self, texts: list[str], batch_size: int) -> Matrix:
        encodings = self._tokenizer.encode_batch(texts)
        # Longest first, so each batch pads to lengths close to its own (as sentence-transformers).
        order = sorted(range(len(texts)), key=lambda i: -len(encodings[i].ids))
        out: Matrix | None = None
        for start in range(0, len(order), batch_size):
            chosen = order[start : start + batch_size]
            width = max(len(encodings[i].ids) for i in chosen)
            ids = np.zeros((len(chosen), width), dtype=np.int64)
            mask = np.zeros((len(chosen), width), dtype=np.int64)
            for row, i in enumerate(chosen):
                length = len(encodings[i].ids)
                ids[row, :length] = encodings[i].ids
                mask[row, :length] = 1
            rows = self._run(ids, mask)
            if out is None:
                out = np.empty((len(texts), rows.shape[1]), dtype=np.float32)
            out[chosen] = rows
        return out if out is not None else np.empty((0, 0), dtype=np.float32)


def load_bundled(model: bundled.BundledModel, settings: EmbeddingSettings) -> OnnxEncoder:
    """A bundled model from its installed folder (:class:`bundled.ModelNotInstalled` if none)."""
    folder = bundled.installed_folder(model, bundled.cache_root(settings.model_cache_path))
    return OnnxEncoder(
        folder / bundled.MODEL_FILE,
        folder / bundled.TOKENIZER_FILE,
        model.max_seq_length,
        (settings.threads, settings.single_text_threads),
        "onnx-int8" if model.name.endswith("-q") else "onnx",
        pooled=False,
    )


class TorchEncoder:
    backend = "torch"

    def __init__(self, model: Any) -> None:
        self._model = model

    @classmethod
    def load(cls, model_dir: Path, settings: EmbeddingSettings) -> TorchEncoder:
        from sentence_transformers import SentenceTransformer

        if settings.threads:
            import torch

            torch.set_num_threads(settings.threads)
        model = SentenceTransformer(str(model_dir), device=settings.device, local_files_only=True)
        return cls(model)

    def dimensions(self) -> int:
        dimension_of = (
            getattr(self._model, "get_embedding_dimension", None)
            or self._model.get_sentence_embedding_dimension
        )
        return int(dimension_of())

    def encode(self, texts: list[str], batch_size: int) -> Matrix:
        matrix = self._model.encode(
            texts,
            batch_size=batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(matrix, dtype=np.float32)


def load_encoder(model_dir: Path, settings: EmbeddingSettings) -> Encoder:
    """The encoder the settings ask for: ``onnx`` (fail if it cannot), ``torch``, or ``auto`` —
    ONNX on the CPU when it can be built, else torch (the reason logged)."""
    on_cpu = settings.device == "cpu"
    if settings.backend == "onnx" or (settings.backend == "auto" and on_cpu):
        try:
            return OnnxEncoder.load(model_dir, settings)
        except Exception as error:
            if settings.backend == "onnx":
                raise
            log.warning(
                "ONNX Runtime not used (%s: %s); running the model on torch",
                type(error).__name__,
                error,
            )
    return TorchEncoder.load(model_dir, settings)
