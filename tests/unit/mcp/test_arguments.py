"""Credence's MCP server in-process (the SDK's ``Client`` on the server object), no database:
bad, unknown, too long and too deep arguments of tools, prompts and resources are refused in
REST's error body, before any service runs; every tool error's text is that body alone."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp import Client
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS, CallToolResult, ToolAnnotations

from app.errors import AgentNotFound
from app.mcp.arguments import MAX_NESTING, strict_tool
from app.mcp.server import build_server
from app.mcp.services import McpServices
from app.memory.episodes import MAX_BATCH, MAX_BATCH_CHARS
from app.retrieval.models import MAX_QUERY_CHARS
from tests.support.mcp_text import text_of


def _unreachable() -> McpServices:
    raise AssertionError("a refused call reached the services")


def _body(result: CallToolResult) -> dict[str, Any]:
    """The error a tool call answered: its text is exactly REST's body."""
    assert result.is_error
    assert len(result.content) == 1
    body: dict[str, Any] = json.loads(text_of(result.content[0]))
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"}
    error: dict[str, Any] = body["error"]
    return error


def _nested(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for _ in range(depth - 1):
        value = {"a": value}
    return value


async def test_bad_and_unknown_tool_arguments_are_refused_in_rest_error_body() -> None:
    async with Client(build_server(_unreachable)) as client:
        unknown = _body(await client.call_tool("chat", {"agent": "a1", "message": "hello"}))
        low = _body(await client.call_tool("list_beliefs", {"limit": 0}))
        no_tool = _body(await client.call_tool("no_such_tool", {}))

    assert unknown == {
        "code": "invalid_input",
        "message": "invalid request: agent: Extra inputs are not permitted",
        "details": {
            "errors": [
                {
                    "location": ["agent"],
                    "message": "Extra inputs are not permitted",
                    "type": "extra_forbidden",
                }
            ]
        },
    }
    assert low["code"] == "invalid_input"
    assert [e["location"] for e in low["details"]["errors"]] == [["limit"]]
    assert low["message"] == "invalid request: limit: Input should be greater than or equal to 1"
    assert no_tool["code"] == "not_found" and no_tool["details"] == {"tool": "no_such_tool"}


async def test_arguments_nesting_too_deep_are_refused_naming_them() -> None:
    call = {"connection": "c", "tool": "t", "arguments": _nested(MAX_NESTING)}
    work_unit = {"verb": "call_tool", "call": call}
    arguments = {"approval_id": "a", "action": "modify", "work_unit": work_unit}
    async with Client(build_server(_unreachable)) as client:
        deep = _body(await client.call_tool("answer_approval", arguments))

    assert deep["code"] == "invalid_input"
    assert deep["details"]["errors"][0]["location"] == ["work_unit"]
    assert f"nests deeper than {MAX_NESTING} levels" in deep["message"]


async def test_a_service_error_and_a_crash_are_rest_bodies_without_the_sdk_prefix() -> None:
    def missing() -> McpServices:
        raise AgentNotFound("a1")

    def crashing() -> McpServices:
        raise RuntimeError("a secret detail")

    async with Client(build_server(missing)) as client:
        not_found = _body(await client.call_tool("agent_overview", {}))
    async with Client(build_server(crashing)) as client:
        crash = _body(await client.call_tool("agent_overview", {}))

    assert not_found == {
        "code": "agent_not_found",
        "message": "agent 'a1' does not exist",
        "details": {"agent_id": "a1"},
    }
    assert crash == {
        "code": "internal_error",
        "message": "an internal error occurred; it has been logged",
        "details": {},
    }


async def test_every_listed_tool_refuses_unknown_arguments() -> None:
    async with Client(build_server(_unreachable)) as client:
        tools = (await client.list_tools()).tools

    assert len(tools) == 15
    assert all(tool.input_schema.get("additionalProperties") is False for tool in tools)


async def test_the_sdk_itself_refuses_unknown_arguments_of_a_strict_tool() -> None:
    """What strict_tool relies on, through the SDK alone (no Credence middleware): the SDK reads
    the tool's ``fn_metadata.arg_model`` at each call, so the strict model replaced after
    ``Tool.from_function`` is the one that refuses. Fails if an SDK upgrade changes that."""

    def echo(text: str) -> str:
        return text

    tool = strict_tool(echo, ToolAnnotations(read_only_hint=True))
    server: MCPServer = MCPServer("strict", tools=[tool])

    assert (await server.list_tools())[0].input_schema["additionalProperties"] is False
    with pytest.raises(ToolError, match="Extra inputs are not permitted"):
        await server.call_tool("echo", {"text": "x", "extra": 1})


async def test_prompt_arguments_are_bounded_as_rest_bounds_a_query() -> None:
    async with Client(build_server(_unreachable)) as client:
        fine = await client.get_prompt("explain_why", {"topic": "x" * MAX_QUERY_CHARS})
        refusals = []
        for arguments in (
            {"topic": "x" * (MAX_QUERY_CHARS + 1)},
            {"topic": "cash", "agent": "a1"},
            {"topic": "cash", "agent_id": "a" * 65},
        ):
            with pytest.raises(MCPError) as refused:
                await client.get_prompt("explain_why", arguments)
            refusals.append(refused.value)

    assert "x" * MAX_QUERY_CHARS in text_of(fine.messages[0].content)
    locations = []
    for refusal in refusals:
        assert refusal.code == INVALID_PARAMS
        error = json.loads(refusal.message)["error"]
        assert error["code"] == "invalid_input" and refusal.data == {"error": error}
        locations.append(error["details"]["errors"][0]["location"])
    assert locations == [["topic"], ["agent"], ["agent_id"]]


async def test_resource_ids_are_bounded_as_rest_bounds_its_paths() -> None:
    async with Client(build_server(_unreachable)) as client:
        refusals = []
        for uri in (
            "credence://agents/" + "a" * 65 + "/self",
            "credence://agents/a.b/status",
            "credence://agents/a1/beliefs/" + "b" * 65,
        ):
            with pytest.raises(MCPError) as refused:
                await client.read_resource(uri)
            refusals.append(refused.value)

    locations = []
    for refusal in refusals:
        assert refusal.code == INVALID_PARAMS
        error = json.loads(refusal.message)["error"]
        assert error["code"] == "invalid_input"
        locations.append(error["details"]["errors"][0]["location"])
    assert locations == [["agent_id"], ["agent_id"], ["belief_id"]]


async def test_the_import_tool_says_its_limits_as_the_service_holds_them() -> None:
    """A client learns a batch's bounds from the tool's description, not only from a refusal."""
    async with Client(build_server(_unreachable)) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    description = tools["import_episodes"].description or ""
    assert f"{MAX_BATCH:,} episodes" in description
    assert f"{MAX_BATCH_CHARS:,} characters" in description


@pytest.mark.parametrize(
    ("arguments", "field", "error_type"),
    [
        ({"active": "yes"}, "active", "bool_type"),
        ({"needing_attention": "true"}, "needing_attention", "bool_type"),
        ({"limit": True}, "limit", "int_type"),
        ({"skip": 2.5}, "skip", "int_type"),
        ({"min_tension": "0.5"}, "min_tension", "float_type"),
        ({"min_tension": True}, "min_tension", "float_type"),
    ],
)
async def test_a_string_for_a_boolean_and_a_boolean_for_an_integer_are_refused(
    arguments: dict[str, Any], field: str, error_type: str
) -> None:
    """As over REST (tests/unit/api/test_strict_bodies.py): a tool's own boolean, integer and
    float arguments are strict; a float argument still takes an integer."""
    async with Client(build_server(_unreachable)) as client:
        refused = _body(await client.call_tool("list_beliefs", arguments))
        # Valid arguments pass the check and reach the services (here: a failure of their own).
        accepted = await client.call_tool("list_beliefs", {"min_tension": 1, "active": False})
    assert _body(accepted)["code"] == "internal_error"  # _unreachable's AssertionError

    assert refused["code"] == "invalid_input"
    assert [(e["location"], e["type"]) for e in refused["details"]["errors"]] == [
        ([field], error_type)
    ]
