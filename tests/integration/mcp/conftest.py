"""Fixtures for the MCP tests: the REST API to write a known history, the environment a
`credence mcp` or `credence serve` subprocess needs, and helpers to read tool answers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from mcp.types import CallToolResult

from app.api.app import create_app
from app.config import Settings
from tests.support.api_server import server_env as test_server_env


@pytest.fixture(scope="module")
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def server_env(settings: Settings) -> dict[str, str]:
    """The test Neo4j, the offline reasoner, no default agent (so no birth at start-up)."""
    return test_server_env(settings)


def new_agent(client: TestClient, name: str) -> str:
    response = client.post("/v1/agents", json={"name": name})
    assert response.status_code == 201, response.text
    agent_id: str = response.json()["id"]
    return agent_id


def answer(result: CallToolResult) -> dict[str, Any]:
    """A successful tool call's structured answer."""
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


def error(result: CallToolResult) -> dict[str, Any]:
    """A failed tool call's error body (REST's ``{"code", "message", "details"}``)."""
    assert result.is_error
    text = result.content[0].text  # type: ignore[union-attr]
    body: dict[str, Any] = json.loads(text[text.index("{") :])["error"]
    return body
