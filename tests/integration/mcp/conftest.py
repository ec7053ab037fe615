"""Fixtures for the MCP tests: the REST API to write a known history, the environment a
`credence mcp` or `credence serve` subprocess needs, and helpers to read tool answers."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp.types import CallToolResult

from app.config import Settings
from tests.support.mcp_text import text_of
from tools.serve.api_process import server_env as test_server_env


@pytest.fixture(scope="module")
def server_env(settings: Settings) -> dict[str, str]:
    """The test Neo4j, the offline reasoner, no default agent (so no birth at start-up)."""
    return test_server_env(settings)


def answer(result: CallToolResult) -> dict[str, Any]:
    """A successful tool call's structured answer."""
    assert not result.is_error, result.content
    assert result.structured_content is not None
    structured: dict[str, Any] = result.structured_content
    return structured


def error(result: CallToolResult) -> dict[str, Any]:
    """A failed tool call's error body (REST's ``{"code", "message", "details"}``): the whole
    text of the tool error is REST's JSON body."""
    assert result.is_error
    text = text_of(result.content[0])
    body: dict[str, Any] = json.loads(text)["error"]
    return body
