"""Fixtures of the memory tests (real Neo4j): an agent born with a creed."""

from __future__ import annotations

import uuid

import pytest

from app.graph.client import GraphClient


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
