"""`credence demo` (app/demo/): the lived-in demo agent built through the real loop on the real
Neo4j, offline, with the real SQLite MCP server: every shipped analytics query returns rows for
it, its revision leaves a lineage, a second run keeps it, and a rebuild tells the same stories.

Built under a name of its own (a test's demo never touches the user's "Credence demo")."""

from __future__ import annotations

import asyncio
import re
import uuid
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from app.beliefs.analytics.runner import analytics_names, run_analytics
from app.beliefs.store import get_belief
from app.browser.slides import GUIDE_QUERIES
from app.cli.main import app as cli_app
from app.config import Settings, get_settings
from app.demo import script
from app.demo.hold import AGENT_JOBS
from app.demo.models import DemoReport
from app.demo.runner import DemoOptions, build_demo
from app.graph.client import GraphClient
from app.scheduler.store import agent_jobs
from tests.integration.tools.conftest import sqlite_server

GUIDE = GUIDE_QUERIES
DEMO_DOC = Path(__file__).resolve().parents[3] / "docs" / "demo.md"
RESISTS = re.compile(r"^(\w+) [\w ]*: tension (\d\.\d\d) → (\d\.\d\d) \(resists\)$")


def _assert_the_doc_gives_the_revisions_figures(lines: list[str]) -> None:
    """docs/demo.md §8 gives the tension after each turn the pack belief resisted, and the
    breakthrough's, as the build reports them (rounded to 0.01; deterministic on its clock)."""
    resisted = [match.groups() for line in lines if (match := RESISTS.match(line))]
    assert [(who, new) for who, _, new in resisted] == [
        ("Maria", "0.14"),
        ("Lena", "0.22"),
        ("Tom", "0.32"),
        ("Lena", "0.40"),
        ("Lena", "0.49"),
        ("Maria", "0.63"),
    ]
    assert sum(line.startswith("breakthrough at tension 0.72:") for line in lines) == 1
    doc = " ".join(DEMO_DOC.read_text(encoding="utf-8").split())
    rises = ", ".join(new for _, _, new in resisted[1:])
    assert f"its tension rises, 0.14 (Maria's correction), {rises}, each step" in doc
    assert "takes it to 0.72: **breakthrough**" in doc and "trigger tension 0.72" in doc


def _stories(report: DemoReport) -> list[tuple[str, list[str]]]:
    return [(story.key, story.lines) for story in report.stories]


async def _assert_every_analytics_query_has_rows(graph: GraphClient, agent_id: str) -> None:
    empty = [
        name
        for name in analytics_names()
        if (await run_analytics(graph, agent_id, name)).count == 0
    ]
    assert empty == [], f"analytics without rows on the demo agent: {empty}"


async def _assert_the_guide_shows_why_it_is_contested(graph: GraphClient, agent_id: str) -> None:
    """The guide's first slide lists the kinds of the stories before search's bookkeeping, and
    its contested slide shows the people behind both sides: who taught the contested belief,
    whose evidence challenged what it contradicts (the demo's "Who says it matters")."""
    kinds = [
        row["kind"] for row in await graph.read(f"{GUIDE}/count_agent_graph", agent_id=agent_id)
    ]
    assert kinds.index("Belief") < kinds.index("LexicalTerm"), kinds
    listed = await graph.read(f"{GUIDE}/list_contested_contradictions", agent_id=agent_id)
    assert listed and all(row["learned_from"] for row in listed), listed
    assert any(row["other_tension"] > 0 for row in listed), listed
    drawn = await graph.read(f"{GUIDE}/draw_contested_belief", agent_id=agent_id)
    edges = {step for row in drawn for step in row["path"] if isinstance(step, str)}
    assert {"CONTRADICTS", "LEARNED_FROM", "CHALLENGES", "FROM"} <= edges, edges


async def test_the_demo_agent_has_a_history_that_every_analytics_query_reads(
    settings: Settings,
    graph: GraphClient,
    test_graph: GraphClient,
    tmp_path: Path,
    cli: CliRunner,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    options = DemoOptions(
        name=f"Credence demo test {uuid.uuid4()}",
        ledger=tmp_path / "ledger.db",
        sqlite_server=sqlite_server(),
    )
    built = await build_demo(settings, options)
    assert not built.reused and built.replaced == []
    agent = built.agent_id
    stories = {story.key: story for story in built.stories}
    assert list(stories) == [
        "birth",
        "people",
        "pack",
        "ledger",
        "reflection",
        "revision",
        "authority",
        "contradictions",
        "research",
        "sign-off",
    ]
    await _assert_every_analytics_query_has_rows(graph, agent)

    # The revision's lineage: the pack belief SUPERSEDED_BY the revised one.
    revision = stories["revision"].ids
    [lineage] = await test_graph.read("demo/get_lineages", agent_id=agent)
    assert lineage["belief_ids"] == [revision["old_belief"], revision["new_belief"]]
    assert "may be left unadjusted" in lineage["statements"][0]
    assert "may not be left unadjusted" in lineage["statements"][1]
    # Resistance first: several turns raised its tension before the one that revised it.
    _assert_the_doc_gives_the_revisions_figures(stories["revision"].lines)

    # Autonomy earned with the ledger, a rejection and a refusal (tool_outcomes_over_time).
    rows = (await run_analytics(graph, agent, "tool_outcomes_over_time")).rows
    write = [row for row in rows if row["tool"] == f"{script.LEDGER}.write_query"]
    totals = {k: sum(row[k] for row in write) for k in ("autonomous", "refused", "rejected")}
    assert totals["autonomous"] >= 1 and totals["refused"] == 1 and totals["rejected"] == 1
    assert (tmp_path / "ledger.db").exists()

    # Contradictions: the revised belief's are resolved, others stay open.
    detail = await get_belief(graph, settings.mechanics, agent, revision["new_belief"])
    assert detail.contradictions and {c.status for c in detail.contradictions} == {"resolved"}
    contested = (await run_analytics(graph, agent, "most_contested_beliefs")).rows
    assert any(row["open_contradictions"] > 0 for row in contested)
    await _assert_the_guide_shows_why_it_is_contested(graph, agent)

    # The scheduler's jobs on the agent were held during the build and are free again.
    jobs = {job.job: job for job in await agent_jobs(graph, agent, [])}
    assert set(AGENT_JOBS) <= set(jobs)
    assert {(jobs[name].last_outcome, jobs[name].lease_owner) for name in AGENT_JOBS} == {
        ("skipped", None)
    }

    # A second run keeps the complete demo agent as it is.
    again = await build_demo(settings, options)
    assert again.reused and again.agent_id == agent and again.stories == []

    # `credence demo --name` (keeping it) points to the guide on the API as configured, about
    # this agent, not the default demo's (its own event loop: in a thread).
    monkeypatch.setenv("CREDENCE_API_HOST", "0.0.0.0")
    monkeypatch.setenv("CREDENCE_API_PORT", "8731")
    get_settings.cache_clear()
    arguments = ["demo", "--name", options.name, "--ledger", str(options.ledger)]
    shown = await asyncio.to_thread(cli.invoke, cli_app, arguments)
    assert shown.exit_code == 0, shown.output
    guide = f":guide http://127.0.0.1:8731/browser/guide?agent_id={agent}"
    assert guide in shown.output.replace("\n", "")

    # A rebuild deletes it and tells the same stories (deterministic).
    rebuilt = await build_demo(settings, replace(options, rebuild=True))
    assert rebuilt.replaced == [agent] and rebuilt.agent_id != agent
    assert _stories(rebuilt) == _stories(built)
    await _assert_every_analytics_query_has_rows(graph, rebuilt.agent_id)
