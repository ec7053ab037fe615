"""Claude's native tool use over the agent's connected tools, with the real anthropic SDK over a
mocked HTTP transport (the request it sends, the answers in the API's shape), and the offline
route it falls back to (app/reasoning/offline/tool_choice.py)."""

from __future__ import annotations

import json
from typing import Any

import httpx2
import pytest

from app.reasoning.claude.reasoner import api_tool_names
from app.reasoning.offline.reasoner import OfflineReasoner
from app.reasoning.offline.tool_choice import derive_arguments
from app.reasoning.protocol import ToolChoiceRequest, ToolOffer
from app.reasoning.tool_arguments import schema_refusal
from tests.unit.reasoning.test_claude_reasoner import (
    FAST,
    ScriptedApi,
    api_error,
    message,
    reasoner,
)

TIMEZONE = {
    "type": "object",
    "properties": {"timezone": {"type": "string", "description": "IANA timezone name"}},
    "required": ["timezone"],
}
QUERY = {
    "type": "object",
    "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
    "required": ["query"],
}
TOOLS = [
    ToolOffer(
        qualified_name="clock.get_current_time",
        description="Get current time in a specific timezone",
        input_schema=TIMEZONE,
        similarity=0.57,
    ),
    ToolOffer(
        qualified_name="ledger.read_query",
        description="Execute a SELECT query on the SQLite database",
        input_schema=QUERY,
        similarity=0.12,
    ),
]


def choosing(text: str, **extra: Any) -> ToolChoiceRequest:
    return ToolChoiceRequest(message=text, tools=TOOLS, threshold=0.45, **extra)


def tool_use(name: str, tool_input: Any) -> httpx2.Response:
    block = {"type": "tool_use", "id": "toolu_01D7FLrfh4GYq7yT1ULFeyMV", "name": name}
    text = {"type": "text", "text": "I'll check the time."}
    return message([text, {**block, "input": tool_input}], FAST)


async def test_a_tool_use_answer_is_the_call_mapped_back_to_the_agents_tool() -> None:
    api = ScriptedApi([tool_use("clock__get_current_time", {"timezone": "Europe/Warsaw"})])
    claude = reasoner(api)
    choice = await claude.choose_tool(choosing("What time is it in Warsaw?", identity="# Agent"))

    assert choice.call is not None and choice.call.qualified_name == "clock.get_current_time"
    assert choice.call.arguments == {"timezone": "Europe/Warsaw"}
    assert choice.tool == "clock.get_current_time" and not choice.missing
    assert choice.reasoner == "claude:claude-haiku-4-5"
    assert choice.usage is not None and choice.usage.input_tokens == 412
    sent = api.body()
    assert sent["model"] == FAST
    assert sent["tool_choice"] == {"type": "auto", "disable_parallel_tool_use": True}
    assert [tool["name"] for tool in sent["tools"]] == [
        "clock__get_current_time",
        "ledger__read_query",
    ]
    assert sent["tools"][0]["input_schema"] == TIMEZONE
    assert sent["tools"][1]["description"] == "Execute a SELECT query on the SQLite database"
    assert sent["system"][0]["text"].startswith("# Agent")
    assert sent["system"][0]["cache_control"] == {"type": "ephemeral"}
    assert "What time is it in Warsaw?" in sent["messages"][0]["content"]


async def test_a_text_answer_calls_no_tool() -> None:
    text = [{"type": "text", "text": "No tool fits a greeting."}]
    api = ScriptedApi([message(text, FAST, stop_reason="end_turn")])
    choice = await reasoner(api).choose_tool(choosing("Hello there"))
    assert choice.call is None and choice.tool is None
    assert choice.reasoner.startswith("claude:")


async def test_a_call_of_a_tool_that_was_not_offered_falls_back_to_the_offline_route(
    caplog: pytest.LogCaptureFixture,
) -> None:
    api = ScriptedApi([tool_use("shell__run", {"command": "rm -rf /"})])
    choice = await reasoner(api).choose_tool(choosing("Time please. timezone: UTC"))
    assert choice.reasoner.startswith("offline (fallback: a call of 'shell__run', which is not")
    # The fallback is the deterministic route: the closest tool, the arguments stated.
    assert choice.call is not None and choice.call.arguments == {"timezone": "UTC"}
    assert "not one of the agent's tools" in caplog.text


async def test_arguments_the_schema_refuses_are_handed_back_once_and_corrected() -> None:
    """A call whose arguments fail the tool's input schema fell back to the offline route,
    which chose another tool (a review's finding: what Claude proposed was lost, nothing said
    why). Claude gets the refusal as an is_error tool result and corrects its call."""
    api = ScriptedApi(
        [
            tool_use("ledger__read_query", {"query": "SELECT 1", "limit": "ten"}),
            tool_use("ledger__read_query", {"query": "SELECT 1", "limit": 10}),
        ]
    )
    choice = await reasoner(api).choose_tool(choosing("The first ten rows, please"))

    assert choice.call is not None and choice.call.arguments == {"query": "SELECT 1", "limit": 10}
    assert choice.reasoner == "claude:claude-haiku-4-5"
    assert choice.usage is not None and choice.usage.input_tokens == 2 * 412
    assert len(api.requests) == 2
    first, again = api.body(0), api.body(1)
    assert again["tools"] == first["tools"] and again["tool_choice"] == first["tool_choice"]
    assert again["messages"][0] == first["messages"][0]
    assistant, user = again["messages"][1:]
    assert assistant == {
        "role": "assistant",
        "content": [
            {"type": "text", "text": "I'll check the time."},
            {
                "type": "tool_use",
                "id": "toolu_01D7FLrfh4GYq7yT1ULFeyMV",
                "name": "ledger__read_query",
                "input": {"query": "SELECT 1", "limit": "ten"},
            },
        ],
    }
    [result] = user["content"]
    assert result["type"] == "tool_result" and result["is_error"] is True
    assert result["tool_use_id"] == "toolu_01D7FLrfh4GYq7yT1ULFeyMV"
    assert "arguments.limit: 'ten' is not of type 'integer'" in result["content"]


async def test_a_call_still_refused_after_its_correction_is_returned_for_the_loop_to_refuse() -> (
    None
):
    api = ScriptedApi(
        [tool_use("clock__get_current_time", {}), tool_use("clock__get_current_time", {})]
    )
    choice = await reasoner(api).choose_tool(choosing("What time is it?"))
    # Claude's call, as it stands: the loop checks it and the turn says why it was not made.
    assert choice.reasoner == "claude:claude-haiku-4-5"
    assert choice.call is not None and choice.call.arguments == {}
    assert choice.tool == "clock.get_current_time" and len(api.requests) == 2


async def test_a_correction_that_gives_no_call_or_fails_leaves_the_refused_call() -> None:
    text = [{"type": "text", "text": "Which timezone?"}]
    declined = ScriptedApi(
        [
            tool_use("clock__get_current_time", {"timezone": 5}),
            message(text, FAST, stop_reason="end_turn"),
        ]
    )
    choice = await reasoner(declined).choose_tool(choosing("What time is it?"))
    assert choice.call is not None and choice.call.arguments == {"timezone": 5}
    assert choice.usage is not None and choice.usage.output_tokens == 2 * 96
    failed = ScriptedApi(
        [
            tool_use("clock__get_current_time", {"timezone": 5}),
            api_error(529, "overloaded_error", "Overloaded"),
        ]
    )
    choice = await reasoner(failed).choose_tool(choosing("What time is it?"))
    assert choice.reasoner == "claude:claude-haiku-4-5"
    assert choice.call is not None and choice.call.arguments == {"timezone": 5}
    assert choice.usage is not None and choice.usage.input_tokens == 412


async def test_arguments_that_are_not_an_object_fall_back() -> None:
    api = ScriptedApi([tool_use("clock__get_current_time", ["Europe/Warsaw"])])
    choice = await reasoner(api).choose_tool(choosing("What time is it?"))
    assert choice.reasoner.startswith("offline (fallback:")


async def test_a_429_is_retried_then_the_call_is_used() -> None:
    api = ScriptedApi(
        [
            api_error(
                429, "rate_limit_error", "Number of request tokens exceeded", **{"retry-after": "0"}
            ),
            tool_use("clock__get_current_time", {"timezone": "UTC"}),
        ]
    )
    choice = await reasoner(api, max_retries=1).choose_tool(choosing("Time in UTC?"))
    assert len(api.requests) == 2
    assert choice.call is not None and choice.reasoner.startswith("claude:")


async def test_a_timeout_falls_back_to_the_offline_route() -> None:
    api = ScriptedApi([httpx2.ReadTimeout("timed out")])
    choice = await reasoner(api).choose_tool(choosing("Current time? timezone: Asia/Tokyo"))
    assert choice.reasoner == "offline (fallback: timeout)"
    assert choice.call is not None and choice.call.arguments == {"timezone": "Asia/Tokyo"}


async def test_an_overloaded_api_falls_back() -> None:
    api = ScriptedApi([api_error(529, "overloaded_error", "Overloaded")])
    choice = await reasoner(api).choose_tool(choosing("Hello"))
    assert choice.reasoner == "offline (fallback: HTTP 529 overloaded_error)"


async def test_no_tools_no_call() -> None:
    api = ScriptedApi([])
    choice = await reasoner(api).choose_tool(
        ToolChoiceRequest(message="What time is it?", tools=[], threshold=0.45)
    )
    assert choice.call is None and choice.reasoner == "loop" and not api.requests


def test_api_tool_names_are_safe_unique_and_map_back() -> None:
    long = "x" * 80
    names = api_tool_names(
        ["ledger.write_query", "ledger.write.query", "a-b.tool.v2", f"c.{long}", f"c.{long}y"]
    )
    assert names["ledger__write_query"] == "ledger.write_query"
    assert names["ledger__write_query_2"] == "ledger.write.query"
    assert names["a-b__tool_v2"] == "a-b.tool.v2"
    assert all(len(name) <= 64 for name in names)
    assert sorted(names.values()) == sorted(
        ["ledger.write_query", "ledger.write.query", "a-b.tool.v2", f"c.{long}", f"c.{long}y"]
    )


def test_schema_refusals_name_the_argument() -> None:
    assert schema_refusal(QUERY, {"query": "SELECT 1"}) is None
    assert str(schema_refusal(QUERY, {"query": "SELECT 1", "limit": "ten"})) == (
        "arguments.limit: 'ten' is not of type 'integer'"
    )
    assert "'query' is a required property" in str(schema_refusal(QUERY, {}))
    assert schema_refusal(json.dumps(QUERY), {}) == schema_refusal(QUERY, {})  # text or parsed
    assert schema_refusal({"type": "nonsense-type"}, {"a": 1}) is None  # the server checks
    assert schema_refusal({}, {"a": 1}) is None and schema_refusal("not json", {}) is None


# --- the offline route ----------------------------------------------------------------------


async def test_offline_routes_to_the_closest_tool_above_the_threshold() -> None:
    offline = OfflineReasoner()
    called = await offline.choose_tool(choosing("The time? timezone: America/New_York."))
    assert called.call is not None
    assert called.call.qualified_name == "clock.get_current_time"
    assert called.call.arguments == {"timezone": "America/New_York"}
    assert called.similarity == 0.57
    needs = await offline.choose_tool(choosing("What time is it?"))
    assert needs.call is None and needs.tool == "clock.get_current_time"
    assert needs.missing == ["timezone"]
    below = await offline.choose_tool(
        choosing("What time is it?").model_copy(update={"threshold": 0.6})
    )
    assert below.call is None and below.tool is None and below.similarity == 0.57
    unscored = ToolChoiceRequest(
        message="x",
        tools=[tool.model_copy(update={"similarity": None}) for tool in TOOLS],
        threshold=0.45,
    )
    assert (await offline.choose_tool(unscored)).tool is None


def test_arguments_are_derived_only_from_what_the_message_states() -> None:
    schema = {
        "type": "object",
        "properties": {
            "table_name": {"type": "string"},
            "limit": {"type": "integer"},
            "dry_run": {"type": "boolean"},
            "format": {"type": "string", "enum": ["csv", "json"]},
        },
        "required": ["table_name", "limit"],
    }
    assert derive_arguments('table name is "invoices 2026", limit=5, as json', schema) == (
        {"table_name": "invoices 2026", "limit": 5, "format": "json"},
        [],
    )
    assert derive_arguments("table_name: invoices; limit: many; dry_run = yes", schema) == (
        {"table_name": "invoices", "dry_run": True},
        ["limit"],
    )
    # Both enum values named: neither is taken.
    assert derive_arguments("csv or json?", schema) == ({}, ["table_name", "limit"])
