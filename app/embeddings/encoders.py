"""The two ways Credence runs the embedding model, behind one ``encode`` call.

- :class:`OnnxEncoder` — ONNX Runtime and the fast tokenizer only (no torch in the process once
  the ONNX copy exists, see :mod:`app.embeddings.onnx_build`). Measured on the 2-core machine:
  one query 3–4 ms instead of 13–15 ms, ~1.4× the batch throughput, the same vectors (fp32).
- :class:`TorchEncoder` — sentence-transformers on torch, the reference, used when ONNX Runtime is
  missing or the model's pipeline cannot be exported.

Both return L2-normalised float32 rows in input order.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from app.embeddings.onnx_build import FP32_FILE, INT8_FILE, TOKENIZER_FILE, ensure_onnx_model
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


class OnnxEncoder:
    def __init__(self, folder: Path, quantize: bool, max_seq_length: int, threads: int) -> None:
        import onnxruntime
        from tokenizers import Tokenizer

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        # Idle threads sleep instead of spinning, so the model does not take the CPU from Neo4j
        # between calls (the same reason as OMP_WAIT_POLICY=PASSIVE for torch).
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        model_file = folder / (INT8_FILE if quantize else FP32_FILE)
        self._session = onnxruntime.InferenceSession(
            str(model_file), options, providers=["CPUExecutionProvider"]
        )
        self._tokenizer = Tokenizer.from_file(str(folder / TOKENIZER_FILE))
        self._tokenizer.enable_truncation(max_seq_length)
        self._tokenizer.no_padding()  # tokenizer.json may pad to a fixed length: pad per batch
        self.backend = "onnx-int8" if quantize else "onnx"

    @classmethod
    def load(cls, model_dir: Path, settings: EmbeddingSettings) -> OnnxEncoder:
        folder, spec = ensure_onnx_model(
            model_dir, Path(settings.onnx_cache_path).expanduser(), settings.quantize
        )
        return cls(folder, settings.quantize, spec.max_seq_length, settings.threads)

    def dimensions(self) -> int:
        return int(self.encode(["dimension probe"], 1).shape[1])

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
            rows = self._session.run(None, {"input_ids": ids, "attention_mask": mask})[0]
            if out is None:
                out = np.empty((len(texts), rows.shape[1]), dtype=np.float32)
            out[chosen] = rows
        return out if out is not None else np.empty((0, 0), dtype=np.float32)


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
