"""``credence connections add|list|tools|remove`` against the real Neo4j and mcp-server-sqlite."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from app.cli.main import app
from app.graph.client import GraphClient
from tests.integration.tools.conftest import HTTP_TOKEN, ToolAgent, sqlite_server


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
