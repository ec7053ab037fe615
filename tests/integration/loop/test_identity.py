"""Issue 13, an identity that stays current: the identity document is generated from the graph
(GET /identity as JSON and markdown, `credence identity`), changes after a revision, and is the
system prompt of every Claude call of a turn, whose requests also carry the history and the
memory (the Claude adapter over a mocked transport on the real Neo4j)."""

from __future__ import annotations

import json
from typing import Any

import httpx2
from anthropic import AsyncAnthropic
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from app.agents.identity import GAPS, IdentityCache, read_identity, shortened
from app.cli.main import app as cli_app
from app.config import Settings
from app.graph.client import GraphClient
from app.loop.models import ApprovalAnswer, ChatRequest
from app.loop.resume_turn import resume_approval
from app.loop.turn import run_turn
from app.memory.self_model import CapabilitySeed, add_capabilities, add_knowledge_gaps
from app.reasoning.claude.reasoner import ClaudeReasoner
from app.reasoning.offline.reasoner import OfflineReasoner
from app.reasoning.settings import ReasonerSettings
from app.runtime import Runtime
from tests.integration.loop.conftest import Agent

RECOGNITION = "Revenue is recognised when the performance obligation is satisfied"
DENIAL = "That's wrong: revenue is not recognised when the performance obligation is satisfied."


def test_the_identity_document_changes_after_a_revision(agent: Agent) -> None:
    belief = agent.belief(RECOGNITION, 0.8)
    before = agent.get("/identity")
    assert before["name"] == "Loop tester"
    [domain] = before["strongest_beliefs"]
    assert [b["id"] for b in domain["beliefs"]] == [belief]
    assert before["recent_revisions"] == []
    markdown = agent.client.get(f"/v1/agents/{agent.id}/identity", params={"format": "markdown"})
    assert markdown.status_code == 200
    assert markdown.headers["content-type"].startswith("text/markdown")
    assert markdown.text == before["markdown"]
    assert "## Strongest beliefs" in markdown.text and RECOGNITION in markdown.text

    for _ in range(10):
        if agent.chat(DENIAL)["revisions"]:
            break
    after = agent.get("/identity")
    [revision] = after["recent_revisions"]
    assert revision["old_statement"] == RECOGNITION
    assert RECOGNITION + " →" in after["markdown"]
    assert after["markdown"] != before["markdown"]
    shown = [b["statement"] for d in after["strongest_beliefs"] for b in d["beliefs"]]
    assert revision["new_statement"] in shown and RECOGNITION not in shown

    assert agent.client.get("/v1/agents/no-such-agent/identity").status_code == 404
    bad = agent.client.get(f"/v1/agents/{agent.id}/identity", params={"format": "pdf"})
    assert bad.status_code == 422


def test_credence_identity_prints_the_document(agent: Agent, cli: CliRunner) -> None:
    agent.belief(RECOGNITION, 0.8)
    result = cli.invoke(cli_app, ["identity", "--agent", agent.id, "--raw"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("# Loop tester: identity")
    assert RECOGNITION in result.output
    as_json = cli.invoke(cli_app, ["identity", "--agent", agent.id, "--json"])
    assert json.loads(as_json.output)["agent_id"] == agent.id


async def test_claude_calls_of_a_turn_carry_identity_history_and_memory(
    client: TestClient, settings: Settings, graph: GraphClient
) -> None:
    agent = Agent(client, client.post("/v1/agents", json={"name": "Claude-driven"}).json()["id"])
    agent.belief(RECOGNITION, 0.8)
    made = client.post(
        f"/v1/agents/{agent.id}/people", json={"name": "Maria Lopez", "seniority": "director"}
    )
    assert made.status_code == 201, made.text
    task = client.post(
        f"/v1/agents/{agent.id}/working-memory/tasks", json={"description": "Close March"}
    )
    assert task.status_code == 201, task.text
    agent.chat("Let's talk about revenue recognition.", session="c1", speaker="Maria Lopez")

    sent: list[dict[str, Any]] = []

    async def api(request: httpx2.Request) -> httpx2.Response:
        # Every call is refused, so the offline reasoner answers it; the bodies are kept.
        sent.append(json.loads(request.content))
        body = {"type": "error", "error": {"type": "overloaded_error", "message": "busy"}}
        return httpx2.Response(529, json=body)

    claude = ClaudeReasoner(
        ReasonerSettings(max_retries=0),
        fallback=OfflineReasoner(),
        client=AsyncAnthropic(
            api_key="test",
            base_url="https://api.anthropic.test",
            max_retries=0,
            http_client=httpx2.AsyncClient(transport=httpx2.MockTransport(api)),
        ),
    )
    services = Runtime(settings, graph, reasoner=claude).loop
    result = await run_turn(
        services,
        agent.id,
        ChatRequest(message="When is it recognised?", session="c1", speaker="Maria Lopez"),
    )
    assert result.reasoners.calls[0].startswith("appraise: offline (fallback: HTTP 529")
    tools = [body["tools"][0]["name"] for body in sent]
    assert tools[0] == "record_appraisal" and tools[-1] == "record_reply"
    identity = agent.get("/identity")["markdown"].strip()
    for body in sent:
        assert body["system"][0]["text"].startswith(identity)
    appraisal = json.loads(sent[0]["messages"][0]["content"].split("\n", 1)[1])
    assert appraisal["history"][0]["message"] == "Let's talk about revenue recognition."
    assert appraisal["people"][0]["name"] == "Maria Lopez"
    assert {"kind": "task", "content": "Close March"} in appraisal["working_memory"]
    assert "identity" not in appraisal
    reply = json.loads(sent[-1]["messages"][0]["content"].split("\n", 1)[1])
    assert reply["history"] and reply["beliefs"][0]["statement"] == RECOGNITION


async def test_the_identity_cache_regenerates_only_when_what_it_shows_changed(
    agent: Agent, graph: GraphClient
) -> None:
    agent.belief(RECOGNITION, 0.8)
    cache = IdentityCache()
    first = await cache.markdown(graph, agent.id)
    assert await cache.markdown(graph, agent.id) is first  # unchanged: the cached text
    agent.belief("Expenses are matched to the period that earned the revenue", 0.9)
    second = await cache.markdown(graph, agent.id)
    assert second != first and "Expenses are matched" in second


async def test_the_identity_cache_regenerates_when_a_capability_is_added(
    agent: Agent, graph: GraphClient
) -> None:
    # A capability given after birth has no outcome yet (no last_refined): the fingerprint
    # still sees it, so the cached document shows it at once.
    cache = IdentityCache()
    first = await cache.markdown(graph, agent.id)
    assert "forecasting" not in first
    await add_capabilities(graph, agent.id, [CapabilitySeed(domain="forecasting", proficiency=1.0)])
    second = await cache.markdown(graph, agent.id)
    assert "| forecasting | 100% | 0 tasks |" in second


async def test_the_identity_document_shows_only_the_newest_knowledge_gaps(
    agent: Agent, graph: GraphClient
) -> None:
    # Up to max_knowledge_gaps (100, or up to 1000) gaps of 2000 characters each: the system
    # prompt of every Claude call shows the newest GAPS of them, and says how many it left out.
    gaps = [f"gap {n:03d} " + "x" * 1900 for n in range(100)]
    await add_knowledge_gaps(graph, agent.id, gaps)
    document = await read_identity(graph, agent.id)
    assert document.knowledge_gaps == [shortened(gap) for gap in gaps[-GAPS:]]
    assert document.knowledge_gaps_not_shown == 100 - GAPS
    assert "gap 099" in document.markdown and "gap 000" not in document.markdown
    assert f"({100 - GAPS} older gaps not shown)" in document.markdown
    assert len(document.markdown) < 40_000


async def test_a_resumed_turn_answers_with_the_history_and_the_identity(
    client: TestClient, settings: Settings, graph: GraphClient
) -> None:
    agent = Agent(client, client.post("/v1/agents", json={"name": "Resumed"}).json()["id"])
    agent.belief("Bank accounts are reconciled at month end before the books are closed", 0.55)
    paused = agent.chat(
        "Please reconcile the Chase bank account before the books are closed", session="r1"
    )
    assert paused["mode"] == "proposal"
    sent: list[dict[str, Any]] = []

    async def api(request: httpx2.Request) -> httpx2.Response:
        sent.append(json.loads(request.content))
        body = {"type": "error", "error": {"type": "overloaded_error", "message": "busy"}}
        return httpx2.Response(529, json=body)

    claude = ClaudeReasoner(
        ReasonerSettings(max_retries=0),
        fallback=OfflineReasoner(),
        client=AsyncAnthropic(
            api_key="test",
            base_url="https://api.anthropic.test",
            max_retries=0,
            http_client=httpx2.AsyncClient(transport=httpx2.MockTransport(api)),
        ),
    )
    services = Runtime(settings, graph, reasoner=claude).loop
    resumed = await resume_approval(
        services, agent.id, paused["approval"]["id"], ApprovalAnswer(action="approve")
    )
    assert resumed.approval is not None and resumed.approval.status == "approved"
    reply = next(body for body in sent if body["tools"][0]["name"] == "record_reply")
    data = json.loads(reply["messages"][0]["content"].split("\n", 1)[1])
    assert data["history"][-1]["message"].startswith("Please reconcile the Chase bank account")
    assert reply["system"][0]["text"].startswith("# Resumed: identity")
