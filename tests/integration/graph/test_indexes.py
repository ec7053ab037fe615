"""The vector and fulltext indexes of schema/ answer agent-scoped queries on the real server."""

from __future__ import annotations

import math
import random
import uuid

from app.graph.client import GraphClient


def _unit_vector(seed: int) -> list[float]:
    rng = random.Random(seed)
    raw = [rng.gauss(0, 1) for _ in range(384)]
    norm = math.sqrt(sum(x * x for x in raw))
    return [x / norm for x in raw]


async def test_vector_search_is_scoped_to_the_agent_inside_the_index(
    test_graph: GraphClient, agent_id: str
) -> None:
    other_agent = f"other-{uuid.uuid4()}"
    target = _unit_vector(1)
    # The other agent owns the exact match and many near copies; a global top-k then post-filter
    # would find none of ours.
    beliefs = [
        {
            "id": str(uuid.uuid4()),
            "agent_id": other_agent,
            "statement": "other",
            "embedding": target,
        }
        for _ in range(30)
    ]
    mine = [
        {
            "id": str(uuid.uuid4()),
            "agent_id": agent_id,
            "statement": f"mine {i}",
            "embedding": _unit_vector(100 + i),
        }
        for i in range(5)
    ]
    await test_graph.write("probe/create_beliefs", beliefs=beliefs + mine)

    rows = await test_graph.read(
        "probe/search_belief_vectors", agent_id=agent_id, vector=target, k=3
    )

    assert len(rows) == 3
    assert {row["agent_id"] for row in rows} == {agent_id}
    assert {row["id"] for row in rows} <= {belief["id"] for belief in mine}
    scores = [row["score"] for row in rows]
    assert scores == sorted(scores, reverse=True)


async def test_vector_search_ranks_the_nearest_vector_first(
    test_graph: GraphClient, agent_id: str
) -> None:
    near = [x + 0.001 for x in _unit_vector(7)]
    beliefs = [
        {
            "id": f"{agent_id}-{i}",
            "agent_id": agent_id,
            "statement": str(i),
            "embedding": _unit_vector(i),
        }
        for i in range(10)
    ]
    beliefs.append(
        {"id": f"{agent_id}-near", "agent_id": agent_id, "statement": "near", "embedding": near}
    )
    await test_graph.write("probe/create_beliefs", beliefs=beliefs)

    rows = await test_graph.read(
        "probe/search_belief_vectors", agent_id=agent_id, vector=_unit_vector(7), k=2
    )

    assert [row["id"] for row in rows][:2] in (
        [f"{agent_id}-7", f"{agent_id}-near"],
        [f"{agent_id}-near", f"{agent_id}-7"],
    )
    assert rows[0]["score"] > 0.999


async def test_fulltext_search_is_scoped_to_the_agent(
    test_graph: GraphClient, agent_id: str
) -> None:
    other_agent = f"other-{uuid.uuid4()}"
    await test_graph.write(
        "probe/create_beliefs",
        beliefs=[
            {
                "id": str(uuid.uuid4()),
                "agent_id": agent_id,
                "statement": "Accruals are recognised at month end",
            },
            {
                "id": str(uuid.uuid4()),
                "agent_id": agent_id,
                "statement": "Revenue follows performance obligations",
            },
            {
                "id": str(uuid.uuid4()),
                "agent_id": other_agent,
                "statement": "Accruals are recognised at month end",
            },
        ],
    )

    rows = await test_graph.read(
        "probe/search_belief_fulltext", terms="accruals", agent_id=agent_id, k=10
    )

    assert len(rows) == 1
    assert rows[0]["agent_id"] == agent_id
