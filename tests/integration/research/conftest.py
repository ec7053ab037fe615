"""Fixtures of the research tests: fresh agents per test, one embedder per session, the offline
reasoner on it."""

from __future__ import annotations

import pytest

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.config import Settings
from app.embeddings.embedder import Embedder, shared_embedder
from app.embeddings.settings import EmbeddingSettings
from app.graph.client import GraphClient
from app.reasoning.offline.reasoner import OfflineReasoner


@pytest.fixture
async def agent(graph: GraphClient) -> str:
    return (await create_agent(graph, AgentCreate(name="Researcher"))).id


@pytest.fixture
async def other_agent(graph: GraphClient) -> str:
    return (await create_agent(graph, AgentCreate(name="Other researcher"))).id


@pytest.fixture
async def research_agent(agent: str) -> str:
    return agent


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    embedder = shared_embedder(EmbeddingSettings())
    if not embedder.available:
        pytest.fail(f"embeddings should be available here: {embedder.status().reason}")
    return embedder


@pytest.fixture(scope="session")
def offline(settings: Settings, embedder: Embedder) -> OfflineReasoner:
    return OfflineReasoner(embedder, settings.reasoner)
