"""Lucene's own order of an agent's keyword matches (index-wide BM25 statistics), read by the
``probe/search_*_fulltext`` probes: the order that the agent's own statistics must not follow
when another agent's documents move it."""

from __future__ import annotations

from app.graph.client import GraphClient
from app.text.lucene import agent_clause, lucene_terms


async def lucene_order(
    test_graph: GraphClient, probe: str, query: str, agent_id: str, key: str = "id", k: int = 10
) -> list[str]:
    """The ``key`` of each of the agent's first ``k`` matches of ``query`` by ``probe``."""
    rows = await test_graph.read(
        probe,
        terms=lucene_terms(query),
        agent_clause=agent_clause(agent_id),
        agent_id=agent_id,
        k=k,
    )
    return [str(row[key]) for row in rows]
