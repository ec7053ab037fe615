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
from tests.integration.tools.conftest import TIME_SERVER, ToolAgent, tool_settings

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


def test_with_claude_a_tool_use_block_runs_the_same_turn_as_post_actions(
    settings: Settings, tmp_path: Path
) -> None:
    """Claude's judgements other than the tool choice are refused (529), so the offline
    reasoner answers them and the turn stays deterministic; the tool choice is scripted."""
    choices: list[dict[str, Any]] = []
    sent: list[dict[str, Any]] = []

    async def api(request: httpx2.Request) -> httpx2.Response:
        body = json.loads(request.content)
        if body["tool_choice"]["type"] != "auto":
            error = {"type": "error", "error": {"type": "overloaded_error", "message": "busy"}}
            return httpx2.Response(529, json=error)
        sent.append(body)
        return httpx2.Response(200, json=choices.pop(0), headers={"request-id": "req_01"})

    claude = ClaudeReasoner(
        ReasonerSettings(max_retries=0, fast_model="claude-haiku-4-5"),
        fallback=OfflineReasoner(),
        client=AsyncAnthropic(
            api_key="test",
            base_url="https://api.anthropic.test",
            max_retries=0,
            http_client=httpx2.AsyncClient(transport=httpx2.MockTransport(api)),
        ),
    )
    with TestClient(create_app(tool_settings(settings, call_timeout_s=10.0))) as client:
        client.app.state.runtime.use_reasoner(claude)  # type: ignore[attr-defined]
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
