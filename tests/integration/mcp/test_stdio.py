"""`credence mcp` as a subprocess, driven by the official SDK client over stdio: every tool,
every resource and prompt, a bad argument, a missing agent, and the explanation of a belief
on a scripted history."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi.testclient import TestClient
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError

from tests.integration.beliefs.scripted_history import MIDDLE, ROOT, script_history
from tests.integration.loop.test_approvals import RECONCILE, REQUEST
from tests.integration.mcp.conftest import answer, error
from tests.support.agents import create_agent_over_rest
from tests.support.mcp_text import text_of
from tools.serve.api_process import credence_command

TOOLS = {
    "list_agents",
    "get_context",
    "search_beliefs",
    "list_beliefs",
    "explain_belief",
    "record_evidence",
    "record_outcome",
    "import_episodes",
    "chat",
    "list_approvals",
    "answer_approval",
    "list_analytics",
    "run_analytics",
    "agent_overview",
    "replay_beliefs",
}


@asynccontextmanager
async def mcp_session(env: dict[str, str], *args: str) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(command=credence_command(), args=["mcp", *args], env=env)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


async def test_every_tool_resource_and_prompt_over_stdio(
    client: TestClient, server_env: dict[str, str]
) -> None:
    agent = create_agent_over_rest(client, "Over MCP")
    history = script_history(client, agent)
    belief = client.post(
        f"/v1/agents/{agent}/beliefs",
        json={"statement": RECONCILE, "strength": 0.55, "category": "aesthetic"},
    ).json()["id"]
    on = {"agent_id": agent}

    async with mcp_session(server_env) as session:
        tools = (await session.list_tools()).tools
        assert {tool.name for tool in tools} == TOOLS
        for tool in tools:
            assert tool.description and tool.input_schema["type"] == "object"
            if tool.name not in ("list_agents", "list_analytics"):
                assert "agent_id" in tool.input_schema["properties"], tool.name

        # Paged through: the shared database may hold more agents than one page, and newer.
        listed: set[str] = set()
        while agent not in listed:
            page = answer(
                await session.call_tool("list_agents", {"limit": 500, "skip": len(listed)})
            )["data"]
            assert page, f"{agent} not among the {len(listed)} agents listed"
            listed |= {a["id"] for a in page}

        context = answer(await session.call_tool("get_context", {"query": ROOT, **on}))
        assert set(context["sections"]) >= {"beliefs", "people", "working_memory"}
        found = answer(await session.call_tool("search_beliefs", {"query": ROOT, "k": 3, **on}))
        ids = [item["id"] for item in found["sections"]["beliefs"]["items"]]
        assert history.new_root in ids

        listed_beliefs = answer(
            await session.call_tool("list_beliefs", {"text": "acme always", "active": True, **on})
        )
        assert [b["id"] for b in listed_beliefs["data"]] == [history.leaf]
        superseded = answer(
            await session.call_tool("list_beliefs", {"active": False, "sort": "tension", **on})
        )
        assert [b["id"] for b in superseded["data"]] == [history.old_root]
        replayed = answer(await session.call_tool("replay_beliefs", on))
        assert replayed["consistent"] is True and replayed["events"] > 0
        attention = answer(
            await session.call_tool("list_beliefs", {"needing_attention": True, **on})
        )
        assert all(b["is_invalidated"] for b in attention["data"])

        why = answer(
            await session.call_tool("explain_belief", {"belief_id": history.new_root, **on})
        )
        assert {(s["id"], s["depth"]) for s in why["support_chain"]} == {
            (history.middle, 1),
            (history.leaf, 2),
        }
        assert len(why["evidence_against"]) == 6 and why["evidence_for"][0]["source_person"]
        assert [r["id"] for r in why["revisions"]] == [history.revision]
        assert MIDDLE in why["summary"] and f"replaced {ROOT!r}" in why["summary"]

        evidence = answer(
            await session.call_tool(
                "record_evidence",
                {
                    "belief_id": history.middle,
                    "text": "Globex paid in 20 days",
                    "stance": "reinforcing",
                    **on,
                },
            )
        )
        assert evidence["results"][0]["new_strength"] > evidence["results"][0]["old_strength"]
        outcome = answer(
            await session.call_tool(
                "record_outcome", {"belief_id": history.middle, "outcome": "success", **on}
            )
        )
        assert outcome["new_strength"] > outcome["old_strength"]

        episodes = [
            {
                "external_id": "mcp-1",
                "speaker": "Dana Smith",
                "session": "mcp",
                "text": "The bank feed broke again.",
            },
        ]
        imported = answer(
            await session.call_tool(
                "import_episodes", {"episodes": episodes, "end_sessions": True, **on}
            )
        )
        assert imported["created"] == 1, imported

        turn = answer(await session.call_tool("chat", {"message": REQUEST, **on}))
        assert turn["approval"] is not None, turn
        pending = answer(await session.call_tool("list_approvals", on))
        assert [a["id"] for a in pending["data"]] == [turn["approval"]["id"]]
        resumed = answer(
            await session.call_tool(
                "answer_approval",
                {"approval_id": turn["approval"]["id"], "action": "approve", **on},
            )
        )
        assert resumed["approval"]["status"] == "approved"

        catalogue = answer(await session.call_tool("list_analytics", {}))
        assert "longest_lineages" in {q["name"] for q in catalogue["data"]}
        lineages = answer(
            await session.call_tool(
                "run_analytics", {"name": "longest_lineages", "params": {"limit": 5}, **on}
            )
        )
        assert lineages["rows"], lineages
        overview = answer(await session.call_tool("agent_overview", {"top": 3, **on}))
        assert overview["agent"]["id"] == agent
        assert [r["id"] for r in overview["recent_revisions"]] == [history.revision]

        resources = (await session.list_resources()).resources
        assert [str(r.uri) for r in resources] == ["credence://analytics"]
        templates = {
            t.uri_template for t in (await session.list_resource_templates()).resource_templates
        }
        assert templates == {
            "credence://agents/{agent_id}/self",
            "credence://agents/{agent_id}/status",
            "credence://agents/{agent_id}/beliefs/{belief_id}",
        }
        analytics = await session.read_resource("credence://analytics")
        assert "longest_lineages" in text_of(analytics.contents[0])
        me = await _json_resource(session, f"credence://agents/{agent}/self")
        assert me["identity"]["name"] == "Over MCP"
        status = await _json_resource(session, f"credence://agents/{agent}/status")
        assert status["agent_id"] == agent and status["state"] in ("active", "idle")
        one = await _json_resource(session, f"credence://agents/{agent}/beliefs/{belief}")
        assert one["belief"]["statement"] == RECONCILE

        prompts = {p.name for p in (await session.list_prompts()).prompts}
        assert prompts == {"explain_why", "review_tensions"}
        explain = await session.get_prompt("explain_why", {"topic": "cash collections"})
        assert "explain_belief" in text_of(explain.messages[0].content)
        review = await session.get_prompt("review_tensions", {"agent_id": agent})
        assert agent in text_of(review.messages[0].content)


async def _json_resource(session: ClientSession, uri: str) -> Any:
    """A resource's JSON text, read."""
    return json.loads(text_of((await session.read_resource(uri)).contents[0]))


async def test_bad_arguments_and_missing_agents_are_tool_errors_not_crashes(
    client: TestClient, server_env: dict[str, str]
) -> None:
    agent = create_agent_over_rest(client, "Refusing")

    async with mcp_session(server_env, "--agent", agent) as session:
        bad_limit = await session.call_tool("list_beliefs", {"limit": 0})
        assert bad_limit.is_error and "limit" in text_of(bad_limit.content[0])
        bad_stance = await session.call_tool(
            "record_evidence", {"belief_id": "b", "text": "x", "stance": "maybe"}
        )
        assert bad_stance.is_error and "stance" in text_of(bad_stance.content[0])
        twice = {"external_id": "x", "speaker": "Dana", "text": "Hello"}
        repeated = error(await session.call_tool("import_episodes", {"episodes": [twice, twice]}))
        assert repeated["code"] == "invalid_input"
        assert "episodes[1].external_id" in repeated["message"]
        blank = error(await session.call_tool("chat", {"message": "   "}))
        assert blank["code"] == "invalid_input" and "message" in blank["message"]

        missing = error(await session.call_tool("agent_overview", {"agent_id": "no-such-agent"}))
        assert missing == {
            "code": "agent_not_found",
            "message": "agent 'no-such-agent' does not exist",
            "details": {"agent_id": "no-such-agent"},
        }
        unknown = error(await session.call_tool("explain_belief", {"belief_id": "nope"}))
        assert unknown["code"] == "belief_not_found"  # `--agent` made it this agent's
        assert unknown["details"]["agent_id"] == agent
        try:
            await session.read_resource("credence://agents/no-such-agent/self")
        except MCPError as failure:
            assert "agent_not_found" in str(failure)
        else:
            raise AssertionError("reading a missing agent's resource should fail")

        # The server is still there after all of that.
        assert answer(await session.call_tool("agent_overview", {}))["agent"]["id"] == agent
