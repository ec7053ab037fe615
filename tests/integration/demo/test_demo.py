"""`credence demo` (app/demo/): the lived-in demo agent built through the real loop on the real
Neo4j, offline, with the real SQLite MCP server: every shipped analytics query returns rows for
it, its revision leaves a lineage, a second run keeps it, and a rebuild tells the same stories.

Built under a name of its own (a test's demo never touches the user's "Credence demo")."""

from __future__ import annotations

import uuid
from dataclasses import replace
from pathlib import Path

from app.beliefs.analytics.runner import analytics_names, run_analytics
from app.beliefs.store import get_belief
from app.config import Settings
from app.demo import script
from app.demo.hold import AGENT_JOBS
from app.demo.models import DemoReport
from app.demo.runner import DemoOptions, build_demo
from app.graph.client import GraphClient
from app.scheduler.store import agent_jobs
from tests.integration.tools.conftest import sqlite_server


def _stories(report: DemoReport) -> list[tuple[str, list[str]]]:
    return [(story.key, story.lines) for story in report.stories]


async def _assert_every_analytics_query_has_rows(graph: GraphClient, agent_id: str) -> None:
    empty = [
        name
        for name in analytics_names()
        if (await run_analytics(graph, agent_id, name)).count == 0
    ]
    assert empty == [], f"analytics without rows on the demo agent: {empty}"


async def test_the_demo_agent_has_a_history_that_every_analytics_query_reads(
    settings: Settings, graph: GraphClient, test_graph: GraphClient, tmp_path: Path
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
    assert sum("(resists)" in line for line in stories["revision"].lines) >= 3

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

    # The scheduler's jobs on the agent were held during the build and are free again.
    jobs = {job.job: job for job in await agent_jobs(graph, agent, [])}
    assert set(AGENT_JOBS) <= set(jobs)
    assert {(jobs[name].last_outcome, jobs[name].lease_owner) for name in AGENT_JOBS} == {
        ("skipped", None)
    }

    # A second run keeps the complete demo agent as it is.
    again = await build_demo(settings, options)
    assert again.reused and again.agent_id == agent and again.stories == []

    # A rebuild deletes it and tells the same stories (deterministic).
    rebuilt = await build_demo(settings, replace(options, rebuild=True))
    assert rebuilt.replaced == [agent] and rebuilt.agent_id != agent
    assert _stories(rebuilt) == _stories(built)
    await _assert_every_analytics_query_has_rows(graph, rebuilt.agent_id)
