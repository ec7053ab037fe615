"""The belief and revision lists page in the database (count, sort, skip and limit, then only
the page projected): a page anywhere in the list is the same slice of the whole list, in the same
order, with the same count, for every sort and filter (real Neo4j)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

import pytest

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.beliefs import history, store
from app.graph.client import GraphClient

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
# (skip, limit): the first page, pages in the middle, one running past the end, one beyond it.
PAGES = [(0, 7), (11, 9), (20, 1), (33, 10), (60, 5)]
WHOLE = 1000


def _beliefs(agent: str, count: int) -> list[dict[str, Any]]:
    """Beliefs with ties in created_at and in tension (so the id breaks them), both activities,
    three categories, and vectors on some."""
    return [
        {
            "id": f"{uuid.uuid4()}",
            "agent_id": agent,
            "statement": f"Belief {i}: {'the ledger' if i % 3 else 'the payroll'} balances.",
            "category": ("contextual", "ethical", "relational")[i % 3],
            "strength": 0.5,
            "tension": (0.0, 0.2, 0.4, 0.6, 0.8)[i % 5],
            "importance": 0.5,
            "is_core": False,
            "is_immutable": False,
            "is_distrusted": False,
            "reinforcement_count": 0,
            "is_active": i % 4 != 0,
            "is_invalidated": i % 6 == 0,
            "created_at": START + timedelta(minutes=i % 7),
            "embedding": [0.1] * 384 if i % 2 else None,
        }
        for i in range(count)
    ]


def _reference(rows: list[dict[str, Any]], sort: str) -> list[str]:
    """The documented order: most tense first (with sort='tension'), then newest, then by id."""
    ordered = sorted(rows, key=lambda r: r["id"])
    ordered.sort(key=lambda r: r["created_at"], reverse=True)
    if sort == "tension":
        ordered.sort(key=lambda r: r["tension"], reverse=True)
    return [r["id"] for r in ordered]


@pytest.mark.parametrize(
    ("filters", "keep"),
    [
        ({"active": None}, lambda r: True),
        ({"active": True}, lambda r: r["is_active"]),
        ({"active": None, "category": "ethical"}, lambda r: r["category"] == "ethical"),
        ({"active": None, "text": "LEDGER"}, lambda r: "ledger" in r["statement"]),
        ({"active": None, "min_tension": 0.4}, lambda r: r["tension"] >= 0.4),
        ({"active": None, "invalidated": True}, lambda r: r["is_invalidated"]),
    ],
)
@pytest.mark.parametrize("sort", ["newest", "tension"])
async def test_a_belief_page_is_the_same_slice_of_the_whole_list(
    graph: GraphClient,
    test_graph: GraphClient,
    filters: dict[str, Any],
    keep: Callable[[dict[str, Any]], bool],
    sort: Literal["newest", "tension"],
) -> None:
    agent = (await create_agent(graph, AgentCreate(name="pager"))).id
    rows = _beliefs(agent, 45)
    await test_graph.write("probe/create_beliefs", beliefs=rows)
    expected = _reference([r for r in rows if keep(r)], sort)

    whole = await store.list_beliefs(graph, agent, sort=sort, limit=WHOLE, **filters)

    assert [b.id for b in whole.data] == expected and whole.count == len(expected)
    for skip, limit in PAGES:
        page = await store.list_beliefs(graph, agent, sort=sort, skip=skip, limit=limit, **filters)
        assert [b.id for b in page.data] == expected[skip : skip + limit], (skip, limit)
        assert page.count == len(expected)
        assert page.data == whole.data[skip : skip + limit]


async def test_a_revision_page_is_the_same_slice_of_the_whole_list(
    graph: GraphClient, test_graph: GraphClient
) -> None:
    agent = (await create_agent(graph, AgentCreate(name="revision pager"))).id
    beliefs = _beliefs(agent, 46)
    await test_graph.write("probe/create_beliefs", beliefs=beliefs)
    revisions: list[dict[str, Any]] = []
    for i in range(23):
        revision = {
            "id": str(uuid.uuid4()),
            "agent_id": agent,
            "at": START + timedelta(hours=i % 6),
            "mode": ("threshold", "cascade", "manual")[i % 3],
            "old_statement": beliefs[2 * i]["statement"],
            "new_statement": beliefs[2 * i + 1]["statement"],
            "trigger_tension": 0.9,
            "depth": i % 2,
            "reasoner": "offline",
        }
        revisions.append(
            {
                "revision": revision,
                "old_id": beliefs[2 * i]["id"],
                "new_id": beliefs[2 * i + 1]["id"],
                "parent_id": revisions[-1]["revision"]["id"] if i % 2 else None,
            }
        )
    await test_graph.write("probe/create_revisions", revisions=revisions)
    ordered = sorted((r["revision"] for r in revisions), key=lambda r: r["id"])
    ordered.sort(key=lambda r: r["at"], reverse=True)
    expected = [r["id"] for r in ordered]

    whole = await history.list_revisions(graph, agent, 0, WHOLE)

    assert [r.id for r in whole.data] == expected and whole.count == 23
    by_id = {r["revision"]["id"]: r for r in revisions}
    for summary in whole.data:
        row = by_id[summary.id]
        assert (summary.old_belief_id, summary.new_belief_id) == (row["old_id"], row["new_id"])
        assert summary.parent_revision_id == row["parent_id"]
    for skip, limit in PAGES:
        page = await history.list_revisions(graph, agent, skip, limit)
        assert page.data == whole.data[skip : skip + limit], (skip, limit)
        assert page.count == 23
