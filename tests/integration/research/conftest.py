"""Fixtures of the research tests: one embedder per session, the offline reasoner on it."""

from __future__ import annotations

import pytest

from app.config import Settings
from app.embeddings.embedder import Embedder, shared_embedder
from app.embeddings.settings import EmbeddingSettings
from app.reasoning.offline.reasoner import OfflineReasoner


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    embedder = shared_embedder(EmbeddingSettings())
    if not embedder.available:
        pytest.fail(f"embeddings should be available here: {embedder.status().reason}")
    return embedder


@pytest.fixture(scope="session")
def offline(settings: Settings, embedder: Embedder) -> OfflineReasoner:
    return OfflineReasoner(embedder, settings.reasoner)
