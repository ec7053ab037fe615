"""The vectors a test's embedder makes: the tests that use one need its model loaded."""

from __future__ import annotations

from collections.abc import Sequence

from app.embeddings.embedder import Embedder, Vector


def vector_of(embedder: Embedder, text: str) -> Vector:
    """``text``'s vector (a passage), embedded alone; fails the test when the embedder has no
    model."""
    vectors = embedder.embed_sync([text])
    assert vectors is not None, f"no embedding model: {embedder.status().reason}"
    return vectors[0]


async def vectors_of(embedder: Embedder, texts: Sequence[str]) -> list[Vector]:
    """``texts``' vectors (passages); fails the test when the embedder has no model."""
    vectors = await embedder.embed(texts)
    assert vectors is not None, f"no embedding model: {embedder.status().reason}"
    return vectors
