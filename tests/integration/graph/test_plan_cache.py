"""The suite's Neo4j, started by tools/neo4j/neo4j-local, keeps one plan per query and parameter
types whatever the lengths of its string and list parameters
(`internal.cypher.use_parameter_size=false`): with Neo4j's default, a one-word question after a
long one, or a third name after two, waited for the planner again (docs/performance.md §3)."""

from __future__ import annotations

from app.graph.client import GraphClient


async def test_one_plan_serves_parameters_of_every_length(test_graph: GraphClient) -> None:
    await test_graph.run_autocommit("CALL db.stats.stop('QUERIES')", "stopping statistics")
    await test_graph.read("probe/plan_cache_collect")
    await test_graph.run_autocommit("CALL db.stats.collect('QUERIES')", "collecting statistics")
    try:
        for length in (1, 30, 600, 1, 30, 600):
            rows = await test_graph.read(
                "probe/plan_cache_probe", words="w" * length, names=["n"] * length
            )
            assert rows[0]["agents"] == 0
        plans = await test_graph.read("probe/plan_cache_statistics", marker="plan-cache probe")
    finally:
        await test_graph.run_autocommit("CALL db.stats.stop('QUERIES')", "stopping statistics")

    assert [plan["invocations"] for plan in plans] == [6]
