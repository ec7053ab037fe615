"""Tool calls as work units (app/tools/calls.py, app/loop/tool_turns.py): the message syntax,
what the guardian reads, what a result means, and MCP's destructive presumption."""

from __future__ import annotations

from pathlib import Path

import mcp_types as types
import pytest
from pydantic import ValidationError

from app.errors import InvalidInput
from app.guardian.audit import work_unit_text
from app.guardian.check import evaluate
from app.guardian.patterns import shipped_censors
from app.reasoning.protocol import ToolCall
from app.tools.calls import (
    call_message,
    execution_of,
    json_depth,
    parse_tool_call,
    tool_work_unit,
)
from app.tools.clients import SecretStore, ServerSpec
from app.tools.connections import is_destructive
from app.tools.models import ActionRequest
from app.tools.settings import ToolSettings
from app.tools.settings_file import read_connections_file


def test_the_call_syntax_round_trips() -> None:
    call = ToolCall(connection="ledger", tool="write_query", arguments={"query": "SELECT 'é'"})
    assert parse_tool_call(call_message(call)) == call
    assert parse_tool_call("  CALL clock.get_current_time  ") == ToolCall(
        connection="clock", tool="get_current_time"
    )
    assert parse_tool_call('call ledger.read_query {"query":\n "SELECT 1"}') is not None


@pytest.mark.parametrize(
    "message",
    ["please call ledger.read_query", "call ledger", "call Ledger.x {}", "recall ledger.x {}"],
)
def test_other_messages_are_ordinary_turns(message: str) -> None:
    assert parse_tool_call(message) is None


@pytest.mark.parametrize(
    "arguments",
    [
        "{not json}",
        '{"a": 1',
        "[]",  # an array is JSON, but not an object: it was read as an ordinary message
        "[" * 1000 + "]" * 1000,  # deeper than JSON's parser goes: it was a 500
        '{"a": ' + "[" * 40 + "]" * 40 + "}",  # deeper than the guardian reads
    ],
)
def test_a_call_whose_arguments_are_not_a_json_object_is_invalid(arguments: str) -> None:
    with pytest.raises(InvalidInput):
        parse_tool_call(f"call ledger.read_query {arguments}")


def test_arguments_nested_too_deep_are_refused_at_the_edge_too() -> None:
    inner: list[object] = []
    nested: dict[str, object] = {"a": inner}
    for _ in range(40):
        deeper: list[object] = []
        inner.append(deeper)
        inner = deeper
    with pytest.raises(ValidationError, match="nest at most 32 levels"):
        ActionRequest(connection="ledger", tool="write_query", arguments=nested)
    assert json_depth({"a": [[1]]}) == 3 and json_depth("text") == 0


def test_the_guardian_reads_each_argument_as_it_reads_a_message() -> None:
    censors = list(shipped_censors())
    message = "DROP TABLE invoices"
    assert evaluate(message, censors).action == "block"
    call = ToolCall(connection="ledger", tool="write_query", arguments={"query": message})
    unit = tool_work_unit(call, "Execute an INSERT, UPDATE, or DELETE query")
    # The JSON text alone hides the statement's end from the censor; each value on its own
    # line does not.
    assert evaluate(unit.description, censors).action == "allow"
    assert evaluate(work_unit_text(unit), censors).action == "block"
    nested = ToolCall(connection="db", tool="batch", arguments={"steps": [{"sql": message}]})
    assert evaluate(work_unit_text(tool_work_unit(nested, "")), censors).action == "block"


def _result(text: str, is_error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)], is_error=is_error
    )


def test_a_result_fails_on_is_error_or_an_error_in_its_words() -> None:
    call = ToolCall(connection="ledger", tool="write_query")
    assert execution_of(call, _result("1 row affected"), 3.0, 100).status == "executed"
    assert execution_of(call, _result("Errors: none"), 3.0, 100).status == "executed"
    assert execution_of(call, _result("boom", is_error=True), 3.0, 100).status == "failed"
    words = execution_of(call, _result("Database error: no such table: x"), 3.0, 100)
    assert words.status == "failed" and words.output["error"].startswith("Database error")
    long = execution_of(call, _result("x" * 500), 3.0, 100)
    assert len(long.output["content"]) == 100


def test_mcp_presumes_a_tool_may_destroy_unless_it_says_otherwise() -> None:
    assert is_destructive(None)
    assert is_destructive(types.ToolAnnotations(read_only_hint=False))
    assert not is_destructive(types.ToolAnnotations(read_only_hint=True))
    assert not is_destructive(types.ToolAnnotations(destructive_hint=False))


def test_secrets_come_from_the_process_else_its_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store = SecretStore()
    store.put("a", "ledger", {"TOKEN": "held"}, {"Authorization": "Bearer x"})
    monkeypatch.setenv("REGION", "eu")
    env, headers = store.resolve("a", "ledger", ["TOKEN", "REGION", "ABSENT"], ["Authorization"])
    assert env == {"TOKEN": "held", "REGION": "eu"} and headers == {"Authorization": "Bearer x"}
    spec = ServerSpec(key="a/ledger", name="ledger", transport="stdio", command="x", env=env)
    assert "held" not in repr(spec)


def test_the_connections_file_never_echoes_a_secret(tmp_path: Path) -> None:
    path = tmp_path / "connections.yaml"
    path.write_text(
        "connections:\n  - agent: a1\n    name: ledger\n    transport: stdio\n"
        "    env: {TOKEN: s3cret}\n",
        encoding="utf-8",
    )
    with pytest.raises(InvalidInput) as raised:
        read_connections_file(path)
    assert "s3cret" not in str(raised.value.details) and "s3cret" not in raised.value.message
    path.write_text(
        "connections:\n  - agent: a1\n    name: ledger\n    transport: stdio\n"
        "    command: server\n    env: {TOKEN: s3cret}\n",
        encoding="utf-8",
    )
    parsed = read_connections_file(path).connections[0]
    assert parsed.agent == "a1" and parsed.env == {"TOKEN": "s3cret"}
    assert ToolSettings(connections_file=path).connections_file == path
