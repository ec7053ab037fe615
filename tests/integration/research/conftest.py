"""Fixtures for research mode on the real Neo4j: an agent, the offline reasoner with embeddings,
and services over in-memory sources."""

from __future__ import annotations

import uuid

import pytest

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.config import Settings
from app.embeddings.embedder import Embedder, shared_embedder
from app.graph.client import GraphClient
from app.reasoning.offline.reasoner import OfflineReasoner


@pytest.fixture
async def research_agent(graph: GraphClient) -> str:
    agent = await create_agent(graph, AgentCreate(name=f"Researcher {uuid.uuid4().hex[:6]}"))
    return agent.id


@pytest.fixture(scope="session")
def embedder(settings: Settings) -> Embedder:
    return shared_embedder(settings.embeddings)


@pytest.fixture(scope="session")
def offline(settings: Settings, embedder: Embedder) -> OfflineReasoner:
    return OfflineReasoner(embedder, settings.reasoner)
