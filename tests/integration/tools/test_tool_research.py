"""A connected tool marked as a search source is the research source `tools`, beside the corpus
and the graph (real Neo4j, the streamable-HTTP test server's `search` tool)."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from app.cli.main import app as cli_app
from tests.integration.tools.conftest import HTTP_TOKEN, ToolAgent

QUESTION = "When do spring tides peak?"
SLEEP_REFUSED = (
    "InvalidInput: library.sleep refuses these arguments: arguments: 'seconds' "
    "is a required property"
)


def _connect(agent: ToolAgent, url: str, search_tools: list[str], expect: int = 201) -> Any:
    body = {
        "name": "library",
        "transport": "http",
        "url": url,
        "headers": {"Authorization": f"Bearer {HTTP_TOKEN}"},
        "search_tools": search_tools,
    }
    return agent.post("/connections", body, expect=expect)


def _search(agent: ToolAgent, **body: Any) -> Any:
    return agent.post("/research/search", {"query": QUESTION, **body})


def _patch(client: TestClient, agent: ToolAgent, tool: str, on: bool) -> Any:
    return client.patch(
        f"/v1/agents/{agent.id}/connections/library/tools/{tool}", json={"search_source": on}
    )


def test_a_marked_search_tool_is_a_research_source(
    agent: ToolAgent, client: TestClient, http_server: str
) -> None:
    # Only read-only tools the server lists: nothing is written otherwise.
    refused = _connect(agent, http_server, ["fail"], expect=422)
    assert "cannot be a search source" in refused["error"]["message"]
    unknown = _connect(agent, http_server, ["lookup"], expect=422)
    assert unknown["error"]["details"]["errors"][0]["location"] == ["body", "search_tools"]
    assert agent.get("/connections")["count"] == 0

    added = _connect(agent, http_server, ["search"])
    marked = {tool["name"]: tool["search_source"] for tool in added["tools"]}
    assert marked["search"] and not marked["echo"]

    found = _search(agent, sources=["tools"], limit=3)
    assert found["failures"] == {}
    first = found["passages"][0]
    assert first["source"] == "tools" and first["kind"] == "tool"
    assert first["title"] == "Tide tables" and first["origin"] == "https://tides.example/spring"
    assert first["published"] == "2025-03-14"
    assert first["ref"].startswith("library.search:")
    assert {p["title"] for p in found["passages"]} == {"Tide tables", "Neap tides"}
    # The same answer has the same refs (an investigation recognises what it holds).
    again = _search(agent, sources=["tools"], limit=3)
    assert [p["ref"] for p in again["passages"]] == [p["ref"] for p in found["passages"]]
    # Beside the shipped sources when every source is searched.
    everywhere = _search(agent)
    assert {"graph", "corpus", "tools"} <= set(everywhere["sources"])
    assert any(p["source"] == "tools" for p in everywhere["passages"])

    destructive = _patch(client, agent, "fail", True)
    assert destructive.status_code == 422, destructive.text
    missing = _patch(client, agent, "lookup", True)
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "tool_not_found"
    off = _patch(client, agent, "search", False)
    assert off.status_code == 200 and off.json()["search_source"] is False
    assert _search(agent, sources=["tools"])["passages"] == []
    on = _patch(client, agent, "search", True)
    assert on.status_code == 200 and on.json()["search_source"] is True
    assert _search(agent, sources=["tools"])["passages"][0]["title"] == "Tide tables"


def test_any_read_only_tool_can_be_searched_until_its_connection_is_removed(
    agent: ToolAgent, client: TestClient, http_server: str
) -> None:
    _connect(agent, http_server, ["echo"])
    # echo answers the query itself: one passage, the query's text.
    echoed = _search(agent, sources=["tools"])
    assert [p["text"] for p in echoed["passages"]] == [QUESTION]
    removed = client.delete(f"/v1/agents/{agent.id}/connections/library")
    assert removed.status_code == 204
    assert _search(agent, sources=["tools"])["passages"] == []


def test_an_investigation_searches_the_marked_tool(agent: ToolAgent, http_server: str) -> None:
    _connect(agent, http_server, ["search"])
    started = agent.post(
        "/investigations",
        {"question": "Do spring tides peak after the full moon?", "sources": ["tools"],
         "iteration_cap": 10},
        expect=201,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while True:
        detail = agent.get(f"/investigations/{started['id']}")
        if detail["investigation"]["status"] != "running" or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert detail["investigation"]["status"] == "finished", detail["investigation"]
    assert detail["investigation"]["sources"] == ["tools"]
    found = {(s["kind"], s["origin"]) for s in detail["sources"]}
    assert ("tool", "https://tides.example/spring") in found


def test_a_search_tool_whose_schema_refuses_the_query_fails_as_a_source_and_is_not_called(
    agent: ToolAgent, http_server: str
) -> None:
    """Research called a marked tool with only its query, whatever its schema requires: the
    server refused (``sleep`` needs ``seconds``). The call passes the schema check now: the
    source fails with the schema's message, and nothing is sent."""
    _connect(agent, http_server, ["sleep"])

    found = _search(agent, sources=["tools"])

    assert found["passages"] == []
    assert found["failures"] == {"tools/library.sleep": SLEEP_REFUSED}
    # A tool that takes the query beside it is still searched.
    agent.client.patch(
        f"/v1/agents/{agent.id}/connections/library/tools/search", json={"search_source": True}
    )
    both = _search(agent, sources=["tools"])
    assert both["passages"][0]["title"] == "Tide tables"
    # The refused tool is still reported when another one answered (it was dropped).
    assert both["failures"] == {"tools/library.sleep": SLEEP_REFUSED}


def test_an_investigation_records_each_search_tool_that_failed(
    agent: ToolAgent, http_server: str
) -> None:
    """Research's tool source reported a failed tool only when every marked tool failed: one
    that failed beside a tool that answered left no trace in the investigation's steps."""
    _connect(agent, http_server, ["search", "sleep"])
    detail = _investigate(agent, "Do spring tides peak after the full moon?")
    assert detail["investigation"]["status"] == "finished", detail["investigation"]
    searches = [step for step in detail["steps"] if step["kind"] == "search"]
    assert searches
    for step in searches:
        assert step["details"]["failed_sources"] == {"tools/library.sleep": SLEEP_REFUSED}
    found = {(s["kind"], s["origin"]) for s in detail["sources"]}
    assert ("tool", "https://tides.example/spring") in found


def _investigate(agent: ToolAgent, question: str) -> Any:
    started = agent.post(
        "/investigations",
        {"question": question, "sources": ["tools"], "iteration_cap": 10},
        expect=201,
    )
    deadline = time.monotonic() + 120
    while True:
        detail = agent.get(f"/investigations/{started['id']}")
        if detail["investigation"]["status"] != "running" or time.monotonic() > deadline:
            return detail
        time.sleep(0.2)


def test_a_source_that_failed_is_named_in_the_steps_the_cli_and_the_report(
    agent: ToolAgent, http_server: str, cli: CliRunner
) -> None:
    """A failed source went only into a search step's ``details``: the summary (all the CLI
    prints) said "0 passage(s)", and the undecided report said only "No source was found"."""
    _connect(agent, http_server, ["sleep"])  # its schema refuses every search
    detail = _investigate(agent, "Do spring tides peak after the full moon?")
    investigation = detail["investigation"]
    assert investigation["status"] == "finished" and investigation["verdict"] == "undecided"
    searches = [step["summary"] for step in detail["steps"] if step["kind"] == "search"]
    assert len(searches) == 2
    for summary in searches:
        assert "tools/library.sleep failed (InvalidInput: library.sleep refuses" in summary

    status = cli.invoke(cli_app, ["research", "status", investigation["id"], "--agent", agent.id])
    assert status.exit_code == 0, status.output
    assert "tools/library.sleep failed (InvalidInput" in " ".join(status.output.split())

    response = agent.client.get(
        f"/v1/agents/{agent.id}/investigations/{investigation['id']}/report"
    )
    assert response.status_code == 200
    assert "## Sources that failed" in response.text
    assert f"`tools/library.sleep` failed in 2 of 2 search(es): {SLEEP_REFUSED}" in response.text
    assert "undecided only because they could not be searched" in response.text
    printed = cli.invoke(cli_app, ["research", "report", investigation["id"], "--agent", agent.id])
    assert printed.exit_code == 0 and "Sources that failed" in printed.output
