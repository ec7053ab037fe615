"""The identity document has a stated bound (docs/memory.md §6): whatever the graph holds, its
markdown (the system prompt of every Claude call) stays within MAX_MARKDOWN_CHARS. The worst
case is built here: every text it lists at its longest, every section over its count."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from app.agents.identity import (
    CONFLICTS,
    CREED,
    ITEM_CHARS,
    MAX_MARKDOWN_CHARS,
    REVISIONS,
    RULES,
    read_identity,
)
from app.graph.client import GraphClient
from app.memory.self_model import (
    CapabilitySeed,
    IdentityUpdate,
    add_capabilities,
    add_knowledge_gaps,
    update_identity,
)

LONG = 2000  # the longest statement, rule, gap, creed item or goal the API takes
T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


def _text(label: str, length: int = LONG) -> str:
    return (label + " " + "x" * length)[:length]


async def _worst_case_agent(test_graph: GraphClient, graph: GraphClient) -> str:
    agent_id = f"test-{uuid.uuid4()}"
    creed = [_text(f"creed {n:02d}") for n in range(CREED + 10)]
    await test_graph.write(
        "memory/create_agent_with_creed", id=agent_id, agent_name="N" * 200, creed=creed
    )
    await update_identity(graph, agent_id, IdentityUpdate(identity_goal=_text("goal")))
    domains = [_text(f"domain {n}", 200) for n in range(12)]
    beliefs = [
        {
            "id": f"{agent_id}-b{n:03d}",
            "agent_id": agent_id,
            "statement": _text(f"belief {n:03d}"),
            "strength": 0.99 - n / 1000,
            "tension": 0.5,
            "category": "contextual",
            "domain": domains[n % len(domains)],
            "is_active": True,
        }
        for n in range(60)
    ]
    await test_graph.write("probe/create_beliefs", beliefs=beliefs)
    pairs = [
        {"a": beliefs[2 * n]["id"], "b": beliefs[2 * n + 1]["id"], "strength": 0.6}
        for n in range(CONFLICTS + 5)
    ]
    await test_graph.write("probe/create_contradictions", pairs=pairs)
    revisions = [
        {
            "revision": {
                "id": f"{agent_id}-r{n:02d}",
                "agent_id": agent_id,
                "at": T0 + timedelta(minutes=n),
                "mode": "evidence",
                "old_statement": _text(f"old {n:02d}"),
                "new_statement": _text(f"new {n:02d}"),
            },
            "old_id": beliefs[n]["id"],
            "new_id": beliefs[n + 1]["id"],
            "parent_id": None,
        }
        for n in range(REVISIONS + 5)
    ]
    await test_graph.write("probe/create_revisions", revisions=revisions)
    rules = [
        {
            "id": f"{agent_id}-rule{n:02d}",
            "agent_id": agent_id,
            "trigger_concept": _text(f"trigger {n:02d}", 200),
            "content": _text(f"rule {n:02d}"),
            "created_at": T0 + timedelta(minutes=n),
            "is_active": True,
        }
        for n in range(RULES + 5)
    ]
    await test_graph.write("probe/create_rules", rules=rules)
    await add_knowledge_gaps(graph, agent_id, [_text(f"gap {n:03d}") for n in range(100)])
    await add_capabilities(
        graph, agent_id, [CapabilitySeed(domain=_text(f"cap {n}", 120)) for n in range(8)]
    )
    return agent_id


async def test_the_identity_document_of_the_worst_case_stays_within_its_bound(
    test_graph: GraphClient, graph: GraphClient
) -> None:
    agent_id = await _worst_case_agent(test_graph, graph)

    document = await read_identity(graph, agent_id)

    assert len(document.markdown) <= MAX_MARKDOWN_CHARS, len(document.markdown)
    # Every section still shows its newest or most important items, shortened with a marker,
    # and says how many it left out.
    assert document.terminal_creed[0].startswith("creed 00")
    assert len(document.terminal_creed) == CREED and document.terminal_creed_not_shown == 10
    assert all(len(item) <= ITEM_CHARS for item in document.terminal_creed)
    assert "[shortened: 2,000 characters]" in document.terminal_creed[0]
    assert [(r.new_statement or "")[:6] for r in document.recent_revisions][:2] == [
        "new 09",
        "new 08",
    ]
    assert document.recent_revisions_not_shown == 5
    assert [r.content[:7] for r in document.recent_rules][:2] == ["rule 14", "rule 13"]
    assert document.recent_rules_not_shown == 5
    assert len(document.open_conflicts) == CONFLICTS and document.open_conflicts_not_shown == 5
    assert "- (10 further creed items not shown)" in document.markdown
    assert "- (5 less tense open conflicts not shown)" in document.markdown
    assert "- (5 older revisions not shown)" in document.markdown
    assert "- (5 older rules not shown)" in document.markdown
    assert "- (90 older gaps not shown)" in document.markdown
