"""Fixtures of the memory tests: a fresh agent per test (real Neo4j)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.api.app import create_app
from app.config import Settings
from app.graph.client import GraphClient


@pytest.fixture
async def agent(graph: GraphClient) -> str:
    created = await create_agent(graph, AgentCreate(name="Mem"))
    return created.id


@pytest.fixture
async def other_agent(graph: GraphClient) -> str:
    created = await create_agent(graph, AgentCreate(name="Other"))
    return created.id


@pytest.fixture
async def creed_agent(test_graph: GraphClient) -> str:
    agent_id = f"test-{uuid.uuid4()}"
    await test_graph.write(
        "memory/create_agent_with_creed",
        id=agent_id,
        agent_name="Creedy",
        creed=["Never deceive the people I serve", "Protect their data"],
    )
    return agent_id


@pytest.fixture(scope="module")
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as test_client:
        yield test_client
