"""The vectors a test's embedder makes: the tests that use one need its model loaded."""

from __future__ import annotations

from collections.abc import Sequence

from app.embeddings.embedder import Embedder, Vector


async def vectors_of(embedder: Embedder, texts: Sequence[str]) -> list[Vector]:
    """``texts``' vectors (passages); fails the test when the embedder has no model."""
    vectors = await embedder.embed(texts)
    assert vectors is not None, f"no embedding model: {embedder.status().reason}"
    return vectors
