"""The peer side of ``bench/peer_latency.py``: neo4j-agent-memory's short-term memory on its own
Neo4j, driven over stdin / stdout (one JSON object a line), run by the interpreter of the peer's
own virtual environment (which ``peer_latency.py`` builds; nothing of the peer is in ``.venv``).

The peer is configured for a local, offline run: no entity extraction, no resolver, no
enrichment, and an embedder object of our own (:class:`BundledEmbedder`) that runs one of
Credence's bundled ONNX models with Credence's own encoder (``app.embeddings.encoders``, read
from the repository on ``PYTHONPATH``), so both systems embed a question with the same weights
and the same code. The peer's own local default, sentence-transformers' all-MiniLM-L6-v2, would
download its weights from the internet; ``--model all-minilm-l6-v2`` runs those weights from the
bundled copy instead.

Requests and answers:

- ``{"op": "load", "session": S, "messages": [{"role", "content", "metadata", "timestamp"}]}``:
  deletes every session named in ``"clear"`` (the peer's ``clear_session``), then bulk-loads
  the messages (``add_messages_batch``, embeddings on) -> ``{"messages": n, "seconds": s}``.
- ``{"op": "search", "q": Q, "k": K, "threshold": T}``: ``short_term.search_messages`` ->
  ``{"ids": [metadata dia_id, best first], "ms": the call's wall time}``.
- ``{"op": "quit"}``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import Sequence
from typing import Any

from neo4j_agent_memory import MemoryClient, MemorySettings  # type: ignore[import-not-found]
from neo4j_agent_memory.config.settings import (  # type: ignore[import-not-found]
    EnrichmentConfig,
    ExtractionConfig,
    ExtractorType,
    GeocodingConfig,
    Neo4jConfig,
    ResolutionConfig,
    ResolverStrategy,
)
from pydantic import SecretStr

from app.embeddings import bundled
from app.embeddings.encoders import load_bundled
from app.embeddings.settings import EmbeddingSettings


class BundledEmbedder:
    """The peer's ``Embedder`` protocol (``dimensions``, ``embed``, ``embed_batch``) over a
    bundled model: a batch is embedded as passages (the peer's bulk load), one text as a query
    (the peer's search); each call off the event loop, as the peer's own sentence-transformers
    embedder does."""

    def __init__(self, model: str, threads: int) -> None:
        settings = EmbeddingSettings(model=model, threads=threads, cache_path="")
        found = bundled.bundled(model)
        if found is None:
            raise SystemExit(f"--model {model}: not a bundled model ({', '.join(bundled.MODELS)})")
        self._model = found
        self._encoder = load_bundled(found, settings)
        self._batch = settings.batch_size

    @property
    def dimensions(self) -> int:
        return self._model.dimensions

    def _encode(self, texts: list[str]) -> list[list[float]]:
        rows: list[list[float]] = self._encoder.encode(texts, self._batch).tolist()
        return rows

    async def embed(self, text: str) -> list[float]:
        rows = await asyncio.to_thread(self._encode, [self._model.prefix("query") + text])
        return rows[0]

    async def embed_batch(self, texts: list[str]) -> list[list[float]]:
        prefix = self._model.prefix("passage")
        return await asyncio.to_thread(self._encode, [prefix + text for text in texts])


def peer_settings(uri: str, user: str, password: str) -> Any:
    return MemorySettings(
        backend="bolt",
        neo4j=Neo4jConfig(uri=uri, username=user, password=SecretStr(password)),
        extraction=ExtractionConfig(extractor_type=ExtractorType.NONE),
        resolution=ResolutionConfig(strategy=ResolverStrategy.NONE),
        geocoding=GeocodingConfig(enabled=False),
        enrichment=EnrichmentConfig(enabled=False),
    )


async def answer(client: Any, request: dict[str, Any]) -> dict[str, Any]:
    if request["op"] == "load":
        started = time.perf_counter()
        for session in request.get("clear", []):
            await client.short_term.clear_session(session)
        created = await client.short_term.add_messages_batch(
            request["session"], request["messages"], batch_size=256, generate_embeddings=True
        )
        return {"messages": len(created), "seconds": time.perf_counter() - started}
    if request["op"] == "search":
        started = time.perf_counter()
        found = await client.short_term.search_messages(
            request["q"], limit=request["k"], threshold=request["threshold"]
        )
        ms = (time.perf_counter() - started) * 1000
        return {"ids": [m.metadata.get("dia_id") for m in found], "ms": ms}
    raise ValueError(f"unknown op {request['op']!r}")


async def serve(args: argparse.Namespace) -> int:
    embedder = BundledEmbedder(args.model, args.threads)
    client = MemoryClient(peer_settings(args.uri, args.user, args.password), embedder=embedder)
    await client.connect()
    try:
        print(json.dumps({"ready": True}), flush=True)
        while line := await asyncio.to_thread(sys.stdin.readline):
            request = json.loads(line)
            if request["op"] == "quit":
                break
            try:
                reply = await answer(client, request)
            except Exception as error:  # the bench prints it and stops
                reply = {"error": f"{type(error).__name__}: {error}"}
            print(json.dumps(reply), flush=True)
    finally:
        await client.close()
    return 0


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--uri", required=True)
    parser.add_argument("--user", default="neo4j")
    parser.add_argument("--password", default="credence-dev")
    parser.add_argument("--model", default="e5-small-v2-q", help="a bundled model's name")
    parser.add_argument("--threads", type=int, default=0, help="ONNX Runtime intra-op threads")
    return parser.parse_args(argv)


if __name__ == "__main__":
    raise SystemExit(asyncio.run(serve(parse_args())))
