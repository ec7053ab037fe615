"""Contractions are never topics (app/text/entities.py): a stored turn linked now gets none,
and migration V0032 removes those linked before the fix, keeping every other topic (real
Neo4j)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.graph.catalog import file_statements
from app.graph.client import GraphClient
from app.memory.episode_subjects import link_stored_episodes
from app.resources import resource_dir

SAID = "I'm sure pottery is fun, let's go! That's why I didn't call."


async def _old_episode(test_graph: GraphClient, agent: str) -> str:
    episode = {
        "id": str(uuid.uuid4()),
        "speaker": "Kate",
        "text": SAID,
        "occurred_at": datetime(2024, 3, 1, 9, 0, tzinfo=UTC),
        "embedding": [0.1] * 384,
    }
    await test_graph.write(
        "probe/create_old_episodes", agent_id=agent, session="s1", episodes=[episode]
    )
    return str(episode["id"])


async def test_a_turn_linked_now_mentions_no_contraction(
    graph: GraphClient, test_graph: GraphClient
) -> None:
    agent = (await create_agent(graph, AgentCreate(name="Contracted, linked now"))).id
    await _old_episode(test_graph, agent)

    assert await link_stored_episodes(graph, agent) == 1
    rows = await test_graph.read("probe/topic_surfaces", agent_id=agent)
    assert [(r["key"], r["surface"]) for r in rows] == [("topic:pottery", "pottery")]


async def test_the_migration_removes_the_contraction_topics_linked_before(
    graph: GraphClient, test_graph: GraphClient
) -> None:
    agent = (await create_agent(graph, AgentCreate(name="Contracted, linked before"))).id
    said, other, formless = [await _old_episode(test_graph, agent) for _ in range(3)]
    # Linked as the topic finder did before it skipped contractions; "letting" shares the stem
    # of "lets", and edges linked before word forms were kept have none.
    mentions = [
        ("topic:im", said, "im"), ("topic:let", said, "lets"), ("topic:that", said, "thats"),
        ("topic:didnt", other, None), ("topic:let", other, "letting"),
        ("topic:let", formless, None), ("topic:pottery", said, "pottery"),
    ]  # fmt: skip
    for key, episode, surface in mentions:
        await graph.write(
            "memory/episode_subjects/link_episode_subjects",
            agent_id=agent,
            subjects=[
                {"key": key, "kind": "topic", "episodes": [{"id": episode, "surface": surface}]}
            ],
        )
    migration = resource_dir("schema") / "V0032__drop_contraction_topics.cypher"
    statements = [s.text for s in file_statements(migration.read_text(encoding="utf-8"))]

    for _ in range(2):  # idempotent
        for statement in statements:
            await graph.run_autocommit(statement, "re-run V0032")
        rows = await test_graph.read("probe/topic_surfaces", agent_id=agent)
        assert [(r["key"], r["surface"]) for r in rows] == [
            ("topic:let", "letting"),
            ("topic:let", None),  # formless, of a stem "letting" shares: kept
            ("topic:pottery", "pottery"),
        ]
        counts = await test_graph.read("probe/topic_counts", agent_id=agent)
        assert {r["key"]: r["episodes"] for r in counts} == {"topic:let": 2, "topic:pottery": 1}
