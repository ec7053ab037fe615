"""The context's three interfaces, without a database: the API's query parameters, `credence
context`'s options and the MCP `get_context` tool's arguments take the same fields with the same
defaults, bounds and description of `k` (search hits, beliefs' expansion besides); the API
declares that it refuses unknown query parameters."""

from __future__ import annotations

from typing import Any

import typer
from mcp import Client
from typer.testing import CliRunner

from app.api.app import create_app
from app.cli.main import app as cli_app
from app.config import Settings
from app.mcp.server import build_server
from app.mcp.services import McpServices
from app.retrieval.models import DEFAULT_K, K_DESCRIPTION, MAX_BUDGET_TOKENS, MIN_BUDGET_TOKENS
from tests.support.mcp_text import text_of


def _unreachable() -> McpServices:
    raise AssertionError("a refused call reached the services")


def _operation() -> dict[str, Any]:
    settings = Settings(
        _env_file=None, neo4j_uri="bolt://127.0.0.1:1", migrate_on_start=False, api_keys={}
    )
    operation: dict[str, Any] = create_app(settings).openapi()["paths"][
        "/v1/agents/{agent_id}/context"
    ]["get"]
    return operation


def _bounds(schema: dict[str, Any]) -> tuple[Any, Any]:
    """The minimum and maximum of a schema, or of the non-null branch of an optional one."""
    branches = [s for s in schema.get("anyOf", [schema]) if s.get("type") != "null"]
    return branches[0].get("minimum"), branches[0].get("maximum")


def test_the_api_says_what_k_counts_and_refuses_unknown_parameters() -> None:
    operation = _operation()
    parameters = {p["name"]: p for p in operation["parameters"]}

    assert parameters["k"]["description"] == K_DESCRIPTION
    assert "via: expansion" in K_DESCRIPTION and "more than k items" in K_DESCRIPTION
    assert parameters["k"]["schema"]["default"] == DEFAULT_K == 10
    assert _bounds(parameters["budget_tokens"]["schema"]) == (MIN_BUDGET_TOKENS, MAX_BUDGET_TOKENS)
    assert "unknown" in operation["responses"]["422"]["description"]


def test_credence_context_takes_the_apis_default_k_and_budget() -> None:
    command: Any = typer.main.get_command(cli_app)
    # Each command is loaded when asked for (app/cli/lazy.py), not held in ``commands``.
    context = command.get_command(typer.Context(command), "context")
    options = {p.name: p for p in context.params}

    assert options["k"].default == DEFAULT_K
    assert options["k"].help == K_DESCRIPTION
    budget = options["budget_tokens"]
    assert "--budget-tokens" in budget.opts
    runner = CliRunner()
    for refused in (MIN_BUDGET_TOKENS - 1, MAX_BUDGET_TOKENS + 1):
        result = runner.invoke(
            cli_app, ["context", "x", "-a", "a1", "--budget-tokens", str(refused)]
        )
        assert result.exit_code == 2 and "--budget-tokens" in result.output, result.output


async def test_the_mcp_get_context_takes_mode_and_budget_with_the_apis_bounds() -> None:
    async with Client(build_server(_unreachable)) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        low = await client.call_tool("get_context", {"query": "x", "budget_tokens": 99})
        bad_mode = await client.call_tool("get_context", {"query": "x", "mode": "nope"})
    properties = tools["get_context"].input_schema["properties"]

    assert properties["k"]["default"] == DEFAULT_K
    assert properties["k"]["description"] == K_DESCRIPTION
    assert properties["mode"]["enum"] == ["fused", "vector", "fulltext"]
    assert properties["mode"]["default"] == "fused"
    assert _bounds(properties["budget_tokens"]) == (MIN_BUDGET_TOKENS, MAX_BUDGET_TOKENS)
    assert low.is_error and "budget_tokens" in text_of(low.content[0])
    assert bad_mode.is_error and "mode" in text_of(bad_mode.content[0])
