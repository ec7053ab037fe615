"""``credence connections add|list|tools|remove`` against the real Neo4j and mcp-server-sqlite."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from app.cli.main import app
from app.config import get_settings
from app.graph.client import GraphClient
from tests.integration.tools.conftest import HTTP_TOKEN, TIME_SERVER, ToolAgent, sqlite_server


def test_cli_connects_lists_and_removes_a_server(
    agent: ToolAgent, cli: CliRunner, tmp_path: Path
) -> None:
    db = tmp_path / "ledger.db"
    added = cli.invoke(
        app,
        [
            "connections", "add", "ledger", "--agent", agent.id,
            "--command", str(sqlite_server()), "--arg", "--db-path", "--arg", str(db),
            "--env", "LEDGER_TOKEN=not-stored", "--env", "LEDGER_REGION",
        ],
    )  # fmt: skip
    assert added.exit_code == 0, added.output
    assert "connected ledger (stdio): 6 tools" in added.output
    assert "ledger.write_query" in added.output

    listed = cli.invoke(app, ["connections", "list", "--agent", agent.id])
    assert listed.exit_code == 0, listed.output
    assert "LEDGER_REGION, LEDGER_TOKEN" in listed.output
    assert "not-stored" not in listed.output
    assert agent.get("/connections")["data"][0]["env_names"] == ["LEDGER_REGION", "LEDGER_TOKEN"]

    tools = cli.invoke(app, ["connections", "tools", "ledger", "--agent", agent.id])
    assert tools.exit_code == 0, tools.output
    assert "tools of ledger (6)" in tools.output and "0.50" in tools.output

    removed = cli.invoke(app, ["connections", "remove", "ledger", "--agent", agent.id])
    assert removed.exit_code == 0, removed.output
    missing = cli.invoke(app, ["connections", "tools", "ledger", "--agent", agent.id])
    assert missing.exit_code == 1 and "connection_not_found" in missing.output


async def test_deleting_an_agent_deletes_its_connections_tools_and_actions(
    agent: ToolAgent, tmp_path: Path, test_graph: GraphClient
) -> None:
    agent.connect_ledger(tmp_path / "ledger.db")
    agent.call("ledger", "list_tables", {})
    deleted = agent.client.delete(f"/v1/agents/{agent.id}")
    assert deleted.status_code == 200, deleted.text
    rows = await test_graph.read("probe/count_agent_nodes", agent_id=agent.id)
    assert rows[0]["nodes"] == 0, rows


def test_cli_marks_search_sources(agent: ToolAgent, cli: CliRunner, http_server: str) -> None:
    added = cli.invoke(
        app,
        [
            "connections", "add", "library", "--agent", agent.id, "--url", http_server,
            "--header", f"Authorization=Bearer {HTTP_TOKEN}", "--search-tool", "search",
        ],
    )  # fmt: skip
    assert added.exit_code == 0, added.output
    assert "read-only, search source" in added.output
    echo = cli.invoke(app, ["connections", "search", "library", "echo", "--agent", agent.id])
    assert echo.exit_code == 0 and "library.echo is a research source" in echo.output
    refused = cli.invoke(app, ["connections", "search", "library", "fail", "--agent", agent.id])
    assert refused.exit_code == 1 and "cannot be a search source" in refused.output
    off = cli.invoke(
        app, ["connections", "search", "library", "search", "--off", "--agent", agent.id]
    )
    assert off.exit_code == 0 and "no longer a research source" in off.output
    marked = {
        t["name"]: t["search_source"] for t in agent.get("/connections/library/tools")["data"]
    }
    assert marked == {
        "add": False,
        "echo": True,
        "fail": False,
        "repeat": False,
        "search": False,
        "sleep": False,
        "slow_write": False,
        "writes": False,
    }


def _row(output: str, tool: str) -> list[str]:
    """The table row of ``tool``: its cells, stripped."""
    line = next(line for line in output.splitlines() if tool in line)
    return [cell.strip() for cell in line.split("│")[1:-1]]


def test_cli_tools_shows_the_strength_a_call_routes_on_in_a_context(
    agent: ToolAgent, cli: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``credence connections tools`` showed only the belief's default strength (0.50) while a
    month-end call routed on its month_end strength (0.65); it shows the strength in context,
    the context read and the one applied, with ``--context`` as the REST route's
    ``?context=``."""
    agent.post(
        "/connections", {"name": "clock", "transport": "stdio", "command": str(TIME_SERVER)},
        expect=201,
    )  # fmt: skip
    listed = agent.get("/connections/clock/tools")["data"]
    belief_id = next(t for t in listed if t["name"] == "get_current_time")["belief_id"]
    agent.post(f"/beliefs/{belief_id}/outcome", {"outcome": "success", "context": "month_end"})
    tool = "clock.get_current_time"

    def tools(*extra: str) -> str:
        shown = cli.invoke(app, ["connections", "tools", "clock", "--agent", agent.id, *extra])
        assert shown.exit_code == 0, shown.output
        return shown.output

    asked = tools("--context", "acme/month_end")
    assert "strength in context acme/month_end (asked for)" in asked
    # tool, kind, trust (default), in context, applied, ok/failed, description
    assert _row(asked, tool)[2:6] == ["0.50", "0.65", "month_end", "0/0"]
    elsewhere = tools("--context", "nowhere")
    assert _row(elsewhere, tool)[2:5] == ["0.50", "0.50", "default"]

    # Without --context: the context a call without one takes now (the CLI's clock).
    monkeypatch.setenv("CREDENCE_CLOCK_START", "2026-11-30T09:00:00Z")  # a month end
    get_settings.cache_clear()
    month_end = tools()
    assert "strength in context month_end (the one a call without a context takes now)" in (
        month_end
    )
    assert _row(month_end, tool)[2:5] == ["0.50", "0.65", "month_end"]
    monkeypatch.setenv("CREDENCE_CLOCK_START", "2026-11-17T09:00:00Z")  # mid-month
    get_settings.cache_clear()
    mid_month = tools()
    assert "strength in context: no context (the default strength)" in mid_month
    assert _row(mid_month, tool)[2:5] == ["0.50", "0.50", "default"]

    refused = cli.invoke(
        app, ["connections", "tools", "clock", "--agent", agent.id, "--context", "Month End"]
    )
    assert refused.exit_code == 2 and "context: String should match pattern" in refused.output
