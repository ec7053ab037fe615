"""The MCP server over streamable HTTP at the API's /mcp (`credence serve` as a subprocess),
with the SDK client: refused without a valid key, and a key for agent A never reaches agent B."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager

import httpx2
import pytest
from fastapi.testclient import TestClient
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from tests.integration.beliefs.scripted_history import script_history
from tests.integration.mcp.conftest import answer, error
from tests.support.agents import create_agent_over_rest
from tests.support.mcp_text import text_of
from tools.serve.api_process import running_api


@pytest.fixture(scope="module")
def agents(client: TestClient) -> tuple[str, str]:
    return create_agent_over_rest(client, "Alice's agent"), create_agent_over_rest(
        client, "Bob's agent"
    )


@pytest.fixture(scope="module")
def api(server_env: dict[str, str], agents: tuple[str, str]) -> Iterator[str]:
    """`credence serve` on a free port, with an admin key and a key for Alice's agent only."""
    alice, _ = agents
    keys = {"admin-key": ["*"], "alice-key": [alice]}
    env = {
        **server_env,
        "CREDENCE_API_KEYS": json.dumps(keys),
        "CREDENCE_MIGRATE_ON_START": "false",
    }
    with running_api(env) as base:
        yield base


@asynccontextmanager
async def mcp_over_http(base: str, key: str) -> AsyncIterator[ClientSession]:
    async with (
        httpx2.AsyncClient(headers={"X-API-Key": key}, timeout=60) as http,
        streamable_http_client(f"{base}/mcp", http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


def test_mcp_without_a_valid_key_is_401(api: str) -> None:
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    headers = {"accept": "application/json, text/event-stream"}
    for key in (None, "wrong-key"):
        sent = {**headers, **({"X-API-Key": key} if key else {})}
        response = httpx2.post(f"{api}/mcp", json=request, headers=sent, timeout=10)
        assert response.status_code == 401
        assert response.json()["error"]["code"] == "authentication_required"


async def test_a_key_reaches_its_agents_and_no_other(
    api: str, client: TestClient, agents: tuple[str, str]
) -> None:
    alice, bob = agents
    history = script_history(client, alice)
    bob_history = script_history(client, bob)

    async with mcp_over_http(api, "alice-key") as session:
        assert "explain_belief" in {tool.name for tool in (await session.list_tools()).tools}
        listed = answer(await session.call_tool("list_agents", {}))
        assert [a["id"] for a in listed["data"]] == [alice] and listed["count"] == 1
        # No agent_id: the key's only agent.
        why = answer(await session.call_tool("explain_belief", {"belief_id": history.new_root}))
        assert why["belief"]["id"] == history.new_root
        assert [r["id"] for r in why["revisions"]] == [history.revision]

        refused = error(
            await session.call_tool(
                "explain_belief", {"belief_id": bob_history.new_root, "agent_id": bob}
            )
        )
        assert refused["code"] == "agent_forbidden" and refused["details"]["agent_id"] == bob
        written = error(
            await session.call_tool(
                "record_evidence",
                {
                    "belief_id": bob_history.middle,
                    "text": "x",
                    "stance": "contradicting",
                    "agent_id": bob,
                },
            )
        )
        assert written["code"] == "agent_forbidden"
        try:
            await session.read_resource(f"credence://agents/{bob}/self")
        except Exception as failure:  # the SDK raises the resource error as an MCPError
            assert "agent_forbidden" in str(failure)
        else:
            raise AssertionError("Alice's key read Bob's self-model")

    # Bob's belief is untouched; the admin key reaches it.
    assert client.get(f"/v1/agents/{bob}/beliefs/{bob_history.middle}").json()["evidence"] == []
    async with mcp_over_http(api, "admin-key") as session:
        overview = answer(await session.call_tool("agent_overview", {"agent_id": bob}))
        assert overview["agent"]["id"] == bob

    metrics = httpx2.get(f"{api}/metrics", timeout=10).text
    assert 'credence_http_requests_total{method="POST",route="/mcp",status="200"}' in metrics
    calls = {
        line.rsplit(" ", 1)[0]: float(line.rsplit(" ", 1)[1])
        for line in metrics.splitlines()
        if line.startswith("credence_mcp_tool_calls_total{")
    }
    assert calls['credence_mcp_tool_calls_total{outcome="ok",tool="explain_belief"}'] == 1
    assert calls['credence_mcp_tool_calls_total{outcome="tool_error",tool="explain_belief"}'] == 1
    assert calls['credence_mcp_tool_calls_total{outcome="tool_error",tool="record_evidence"}'] == 1


async def test_unknown_arguments_and_huge_offsets_are_refused(
    api: str, client: TestClient, agents: tuple[str, str]
) -> None:
    """A tool ignored an argument it does not declare: ``chat`` with ``agent`` (for
    ``agent_id``) wrote to the default agent. And ``skip`` had no bound (a database error), and a
    resource URI with no agent read the default agent's."""
    _, bob = agents
    before = client.get(f"/v1/agents/{bob}/episodes").json()
    async with mcp_over_http(api, "admin-key") as session:
        listed = await session.list_tools()
        chat = next(t for t in listed.tools if t.name == "chat")
        assert chat.input_schema.get("additionalProperties") is False
        wrong = await session.call_tool("chat", {"agent": bob, "message": "hello from a test"})
        huge = await session.call_tool("list_beliefs", {"agent_id": bob, "skip": 10**12})
        try:  # an empty agent in a URI read the default agent's self-model
            await session.read_resource("credence://agents//self")
            no_agent = "read"
        except Exception as failure:  # the SDK raises the resource error as an MCPError
            no_agent = str(failure)

    assert wrong.is_error and "agent" in text_of(wrong.content[0])
    assert "the resource's URI names no agent" in no_agent
    assert "Extra inputs are not permitted" in text_of(wrong.content[0])
    assert huge.is_error and "skip" in text_of(huge.content[0])
    assert client.get(f"/v1/agents/{bob}/episodes").json() == before
