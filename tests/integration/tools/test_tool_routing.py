"""A chat message that asks for a tool without the `call` syntax (real Neo4j, real MCP servers):
offline through the route by description similarity, and with Claude through native tool use
(the real anthropic SDK over a mocked transport). Either way the call runs the same turn as
POST /actions: the guardian, supervision, the approval, the executor, the Action node."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx2
from anthropic import AsyncAnthropic
from fastapi.testclient import TestClient

from app.api.app import create_app
from app.config import Settings
from app.reasoning.claude.reasoner import ClaudeReasoner
from app.reasoning.offline.reasoner import OfflineReasoner
from app.reasoning.settings import ReasonerSettings
from tests.integration.tools.conftest import HTTP_TOKEN, TIME_SERVER, ToolAgent, tool_settings
from tests.support.runtime import runtime_of

CLOCK = {"name": "clock", "transport": "stdio", "command": str(TIME_SERVER)}


def _actions(agent: ToolAgent) -> list[dict[str, Any]]:
    listed: list[dict[str, Any]] = agent.get("/actions")["data"]
    return listed


def test_offline_a_message_close_to_a_tools_description_proposes_that_call(
    agent: ToolAgent,
) -> None:
    agent.post("/connections", CLOCK, expect=201)

    asked = agent.post("/chat", {"message": "Tell me the current time. timezone: Europe/Warsaw"})
    route = asked["tool_route"]
    assert route["tool"] == "clock.get_current_time" and route["how"] == "offline"
    assert route["called"] and route["similarity"] >= 0.45
    # The same turn as POST /actions: supervision on the tool's belief (0.5: a proposal).
    assert asked["mode"] == "proposal"
    assert asked["work_unit"]["call"] == {
        "connection": "clock",
        "tool": "get_current_time",
        "arguments": {"timezone": "Europe/Warsaw"},
    }
    assert asked["relevant_belief"]["statement"].startswith("clock.get_current_time")
    pending = _actions(agent)
    assert [a["status"] for a in pending] == ["pending"] and pending[0]["id"] == asked["action_id"]
    done = agent.approve(asked["approval"]["id"])
    assert done["execution"]["status"] == "executed"
    assert '"timezone": "Europe/Warsaw"' in done["execution"]["output"]["content"]
    assert _actions(agent)[0]["status"] == "succeeded"

    needs = agent.post("/chat", {"message": "What time is it now?"})
    assert needs["tool_route"]["tool"] == "clock.get_current_time"
    assert not needs["tool_route"]["called"] and needs["tool_route"]["missing"] == ["timezone"]
    assert "clock.get_current_time" in needs["response"] and "timezone" in needs["response"]
    assert needs["work_unit"] is None and needs["approval"] is None
    assert needs["action_id"] is None and len(_actions(agent)) == 1

    ordinary = agent.post(
        "/chat", {"message": "Please remember that the audit meeting is on Monday"}
    )
    assert ordinary["tool_route"] is None
    assert len(_actions(agent)) == 1


def _tool(agent: ToolAgent, connection: str, name: str) -> dict[str, Any]:
    listed = agent.get(f"/connections/{connection}/tools")["data"]
    tool: dict[str, Any] = next(tool for tool in listed if tool["name"] == name)
    return tool


def _connect_test_tools(agent: ToolAgent, http_server: str) -> None:
    agent.post(
        "/connections",
        {
            "name": "testtools",
            "transport": "http",
            "url": http_server,
            "headers": {"Authorization": f"Bearer {HTTP_TOKEN}"},
        },
        expect=201,
    )


def test_offline_a_stated_value_of_an_optional_integer_is_an_integer(
    agent: ToolAgent, http_server: str
) -> None:
    """The offline route took ``times: 3`` as the string "3" under ``anyOf`` (an optional
    integer): the schema check refused the call, so the message could not make it."""
    _connect_test_tools(agent, http_server)

    asked = agent.post("/chat", {"message": "Repeat the text hello. text: hello, times: 3"})

    route = asked["tool_route"]
    assert route["tool"] == "testtools.repeat" and route["how"] == "offline"
    assert route["arguments"] == {"text": "hello", "times": 3}
    assert route["called"] and route["refused"] is None
    assert asked["work_unit"]["call"]["arguments"] == {"text": "hello", "times": 3}
    done = agent.approve(asked["approval"]["id"])
    assert done["execution"]["status"] == "executed", done["execution"]
    assert done["execution"]["output"]["content"] == "hello hello hello"


def test_offline_a_proposed_call_its_schema_refuses_is_not_made_and_the_turn_says_why(
    agent: ToolAgent, http_server: str
) -> None:
    """A stated value the tool's schema refuses (``times`` is at least 1). Such a call was
    proposed, approved, refused by the server three times and lowered the tool's belief (a
    review's finding); it passes the check a requested call passes now."""
    _connect_test_tools(agent, http_server)
    before = _tool(agent, "testtools", "repeat")

    asked = agent.post("/chat", {"message": "Repeat the text hello. text: hello, times: 0"})

    route = asked["tool_route"]
    assert route["tool"] == "testtools.repeat" and route["how"] == "offline"
    assert route["arguments"] == {"text": "hello", "times": 0}
    assert not route["called"]
    assert route["refused"] == "arguments.times: 0 is less than the minimum of 1"
    assert "I did not make the call testtools.repeat" in asked["response"]
    assert route["refused"] in asked["response"]
    assert asked["work_unit"] is None and asked["approval"] is None
    assert asked["action_id"] is None and _actions(agent) == []
    after = _tool(agent, "testtools", "repeat")
    assert after["belief_strength"] == before["belief_strength"] == 0.5
    assert after["failures"] == 0
    episode = agent.get(f"/episodes/{asked['turn_id']}")
    assert "I did not make the call testtools.repeat" in json.dumps(episode)

    # The same call with a value its schema takes is proposed as before.
    fixed = agent.post("/chat", {"message": 'call testtools.repeat {"text": "hi", "times": 3}'})
    assert fixed["tool_route"]["called"] and fixed["approval"] is not None


def test_offline_an_agent_without_tools_is_never_routed(agent: ToolAgent) -> None:
    answered = agent.post("/chat", {"message": "Tell me the current time. timezone: UTC"})
    assert answered["tool_route"] is None and answered["action_id"] is None


def _tool_use(name: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "msg_01Aq9w938a90dw8q",
        "type": "message",
        "role": "assistant",
        "model": "claude-haiku-4-5-20251001",
        "content": [
            {
                "type": "tool_use",
                "id": "toolu_01A09q90qw90lq917835",
                "name": name,
                "input": tool_input,
            }
        ],
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {
            "input_tokens": 620,
            "output_tokens": 41,
            "cache_read_input_tokens": 0,
            "cache_creation_input_tokens": 0,
        },
    }


def _text(text: str) -> dict[str, Any]:
    answer = _tool_use("x", {})
    answer["content"] = [{"type": "text", "text": text}]
    answer["stop_reason"] = "end_turn"
    return answer


def _scripted_claude(choices: list[dict[str, Any]], sent: list[dict[str, Any]]) -> ClaudeReasoner:
    """Claude whose tool choices (and their corrections) are ``choices``, in order, each request
    kept in ``sent``; its other judgements are refused (529), so the offline reasoner answers
    them and the turn stays deterministic."""

    async def api(request: httpx2.Request) -> httpx2.Response:
        body = json.loads(request.content)
        if body["tool_choice"]["type"] != "auto":
            error = {"type": "error", "error": {"type": "overloaded_error", "message": "busy"}}
            return httpx2.Response(529, json=error)
        sent.append(body)
        return httpx2.Response(200, json=choices.pop(0), headers={"request-id": "req_01"})

    return ClaudeReasoner(
        ReasonerSettings(max_retries=0, fast_model="claude-haiku-4-5"),
        fallback=OfflineReasoner(),
        client=AsyncAnthropic(
            api_key="test",
            base_url="https://api.anthropic.test",
            max_retries=0,
            http_client=httpx2.AsyncClient(transport=httpx2.MockTransport(api)),
        ),
    )


def test_with_claude_a_tool_use_block_runs_the_same_turn_as_post_actions(
    settings: Settings, tmp_path: Path
) -> None:
    choices: list[dict[str, Any]] = []
    sent: list[dict[str, Any]] = []
    claude = _scripted_claude(choices, sent)
    with TestClient(create_app(tool_settings(settings, call_timeout_s=10.0))) as client:
        runtime_of(client).use_reasoner(claude)
        agent = ToolAgent(client, client.post("/v1/agents", json={"name": "Claude"}).json()["id"])
        agent.post("/connections", CLOCK, expect=201)
        agent.connect_ledger(tmp_path / "ledger.db")

        choices.append(_tool_use("clock__get_current_time", {"timezone": "Europe/Warsaw"}))
        asked = agent.post("/chat", {"message": "What time is it in Warsaw?"})
        offered = {tool["name"]: tool for tool in sent[-1]["tools"]}
        assert {"clock__get_current_time", "ledger__write_query"} <= set(offered)
        assert offered["clock__get_current_time"]["input_schema"]["required"] == ["timezone"]
        assert "What time is it in Warsaw?" in sent[-1]["messages"][0]["content"]
        assert asked["tool_route"]["how"] == "claude:claude-haiku-4-5"
        assert asked["mode"] == "proposal"
        assert asked["work_unit"]["call"]["arguments"] == {"timezone": "Europe/Warsaw"}
        assert "choose_tool: claude:claude-haiku-4-5" in asked["reasoners"]["calls"]
        done = agent.approve(asked["approval"]["id"])
        assert done["execution"]["status"] == "executed"
        assert "Europe/Warsaw" in done["execution"]["output"]["content"]

        # The guardian reads a chosen call's arguments as it reads a requested one's.
        choices.append(_tool_use("ledger__write_query", {"query": "DROP TABLE invoices"}))
        refused = agent.post("/chat", {"message": "Tidy up the ledger, it's a mess."})
        assert refused["mode"] == "blocked"
        assert "sql_drop_table" in json.dumps(refused["guardian"])
        assert _actions(agent)[0]["status"] == "refused"

        choices.append(_text("No tool fits a greeting."))
        greeted = agent.post("/chat", {"message": "Good morning!"})
        assert greeted["tool_route"] is None and greeted["action_id"] is None

        # A tool that was not offered: the offline route answers in its place.
        choices.append(_tool_use("shell__run", {"command": "rm -rf /"}))
        fallback = agent.post("/chat", {"message": "What time is it now?"})
        route = fallback["tool_route"]
        assert route["how"].startswith("offline (fallback: a call of 'shell__run'")
        assert route["tool"] == "clock.get_current_time" and route["missing"] == ["timezone"]
        assert [a["status"] for a in _actions(agent)] == ["refused", "succeeded"]


def test_with_claude_a_call_its_schema_refuses_is_corrected_or_not_made(
    settings: Settings, tmp_path: Path
) -> None:
    """Arguments that fail the tool's input schema made the offline route answer in Claude's
    place (another tool, or none, and nothing said why). Claude is told the refusal (an
    ``is_error`` tool result) and may correct its call once; a call still refused is not made:
    no approval, no server, no belief moved, and the answer says why."""
    choices: list[dict[str, Any]] = []
    sent: list[dict[str, Any]] = []
    with TestClient(create_app(tool_settings(settings, call_timeout_s=10.0))) as client:
        runtime_of(client).use_reasoner(_scripted_claude(choices, sent))
        agent = ToolAgent(client, client.post("/v1/agents", json={"name": "Claude"}).json()["id"])
        agent.post("/connections", CLOCK, expect=201)
        agent.connect_ledger(tmp_path / "ledger.db")

        choices.append(_tool_use("clock__get_current_time", {"timezone": 5}))
        choices.append(_tool_use("clock__get_current_time", {"timezone": "Europe/Warsaw"}))
        corrected = agent.post("/chat", {"message": "What time is it in Warsaw?"})
        result = sent[-1]["messages"][-1]["content"][0]
        assert result["type"] == "tool_result" and result["is_error"] is True
        assert "arguments.timezone: 5 is not of type 'string'" in result["content"]
        assert corrected["tool_route"]["called"] and corrected["mode"] == "proposal"
        assert corrected["work_unit"]["call"]["arguments"] == {"timezone": "Europe/Warsaw"}
        done = agent.approve(corrected["approval"]["id"])
        assert done["execution"]["status"] == "executed"

        before = _tool(agent, "ledger", "write_query")
        choices.extend([_tool_use("ledger__write_query", {}), _tool_use("ledger__write_query", {})])
        refused = agent.post("/chat", {"message": "Record invoice INV-7 in the ledger"})
        route = refused["tool_route"]
        assert route["how"] == "claude:claude-haiku-4-5" and route["tool"] == "ledger.write_query"
        assert not route["called"] and route["arguments"] == {}
        assert route["refused"] == "arguments: 'query' is a required property"
        assert "I did not make the call ledger.write_query {}" in refused["response"]
        assert refused["approval"] is None and refused["action_id"] is None
        assert [a["tool"] for a in _actions(agent)] == ["get_current_time"]
        after = _tool(agent, "ledger", "write_query")
        assert after["belief_strength"] == before["belief_strength"] and after["failures"] == 0
        assert not choices
