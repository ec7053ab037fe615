"""V0035 brings data written before the code recorded it to what the code reads now
(docs/packs.md §3, docs/memory.md §2): what a pack gave its beliefs, one TOLD edge per revision
and person, and the tombstone of a person deleted before tombstones. Each test writes the old
shape, runs the migration twice (idempotent) and checks the new one."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi.testclient import TestClient

from app.graph.catalog import file_statements
from app.graph.client import GraphClient
from app.resources import resource_dir

MIGRATION = "V0035__record_pack_figures_and_people_history.cypher"
BELIEFS: list[dict[str, Any]] = [
    {"key": "a", "statement": "Alpha holds for the ledger.", "category": "contextual"},
    {"key": "b", "statement": "Beta holds for the ledger.", "category": "contextual"},
    {"key": "c", "statement": "Gamma holds for the ledger.", "category": "contextual"},
]
PACK = {
    "name": "recorded-pack",
    "industry": "testing",
    "description": "a pack loaded before its figures were recorded",
    "beliefs": BELIEFS,
}


async def _migrate(graph: GraphClient) -> None:
    text = (resource_dir("schema") / MIGRATION).read_text(encoding="utf-8")
    for statement in file_statements(text):
        await graph.run_autocommit(statement.text, "re-run V0035")


def _load(client: TestClient, agent: str, version: int) -> dict[str, Any]:
    response = client.post(f"/v1/agents/{agent}/packs", json={**PACK, "version": version})
    assert response.status_code == 200, response.text
    report: dict[str, Any] = response.json()
    return report


def _edit(client: TestClient, agent: str, belief_id: str, **changes: object) -> None:
    response = client.patch(f"/v1/agents/{agent}/beliefs/{belief_id}", json=changes)
    assert response.status_code == 200, response.text


async def test_a_pack_s_old_beliefs_record_what_the_pack_gave_and_keep_the_edits(
    client: TestClient, agent: str, graph: GraphClient, test_graph: GraphClient
) -> None:
    _load(client, agent, 1)
    rows = client.get(f"/v1/agents/{agent}/beliefs", params={"limit": 50}).json()["data"]
    ids = {row["statement"]: row["id"] for row in rows}
    alpha, beta = ids["Alpha holds for the ledger."], ids["Beta holds for the ledger."]
    gamma = ids["Gamma holds for the ledger."]
    _edit(client, agent, gamma, statement="Gamma, as our auditors read it.")
    _edit(client, agent, gamma, statement="Gamma, as our auditors read it now.")
    _edit(client, agent, beta, importance=0.3)
    _edit(client, agent, beta, importance=0.4)
    # An edit of both notes the statement only: after a statement's edit the importance the pack
    # gave is not known (alpha's, gamma's).
    _edit(client, agent, alpha, statement="Alpha, reworded.", importance=0.8)
    await test_graph.write("probe/forget_pack_figures", agent_id=agent)

    for _ in range(2):  # idempotent
        await _migrate(graph)
        found = await test_graph.read("probe/pack_given_figures", agent_id=agent)
        assert [(r["key"], r["pack_statement"], r["pack_importance"]) for r in found] == [
            ("a", "Alpha holds for the ledger.", None),
            ("b", "Beta holds for the ledger.", 0.5),
            ("c", "Gamma holds for the ledger.", None),
        ]

    # The same version again: the person's text and importance stand (without the records the
    # edited statement was compared with itself and superseded by the pack's, and the
    # importance set back to the pack's).
    report = _load(client, agent, 2)
    assert report["superseded"] == 0
    after = await test_graph.read("probe/pack_given_figures", agent_id=agent)
    assert [(r["key"], r["statement"]) for r in after][1:] == [
        ("b", "Beta holds for the ledger."),
        ("c", "Gamma, as our auditors read it now."),
    ]
    assert after[1]["importance"] == 0.4


async def test_a_revision_told_to_two_merged_people_keeps_the_earliest_telling(
    graph: GraphClient, test_graph: GraphClient
) -> None:
    agent = f"test-{uuid.uuid4()}"
    survivor, other = f"{agent}-p1", f"{agent}-p2"
    await test_graph.write(
        "probe/create_old_speaker_keys",
        agent_id=agent,
        episodes=[],
        people=[
            {"id": survivor, "name": "Bob Jones", "name_key": "bob jones", "created_at": None},
            {"id": other, "name": "Ann Lee", "name_key": "ann lee", "created_at": None},
        ],
    )
    # As a merge copied them: the survivor's own telling and the merged person's, both now the
    # survivor's; a telling with no time comes after one with a time.
    await test_graph.write(
        "probe/tell_revision",
        agent_id=agent,
        revision_id=f"{agent}-r1",
        told=[
            {"person_id": survivor, "episode_id": "late", "at": "2026-04-02T09:00:00Z"},
            {"person_id": survivor, "episode_id": "zearly", "at": "2026-04-01T09:00:00Z"},
            {"person_id": other, "episode_id": "once", "at": "2026-04-03T09:00:00Z"},
        ],
    )
    await test_graph.write(
        "probe/tell_revision",
        agent_id=agent,
        revision_id=f"{agent}-r2",
        told=[
            {"person_id": other, "episode_id": "untimed", "at": None},
            {"person_id": other, "episode_id": "timed", "at": "2026-04-05T09:00:00Z"},
        ],
    )

    for _ in range(2):  # idempotent
        await _migrate(graph)
        rows = await test_graph.read("probe/told_edges", agent_id=agent)
        assert [(r["person_id"], r["episode_id"]) for r in rows] == [
            (survivor, "zearly"),
            (other, "once"),
            (other, "timed"),
        ]


async def test_the_turns_of_a_person_deleted_before_tombstones_get_one(
    graph: GraphClient, test_graph: GraphClient
) -> None:
    agent = f"test-{uuid.uuid4()}"

    def episode(name: str, speaker: str, key: str | None) -> dict[str, Any]:
        return {"id": f"{agent}-{name}", "speaker": speaker, "speaker_key": key}

    await test_graph.write(
        "probe/create_old_speaker_keys",
        agent_id=agent,
        episodes=[
            episode("e1", "Bob Jones", "bob jones"),  # the deleted Bob's: no speaker edge
            episode("e2", "Bob Jones", "bob jones"),  # the later Bob's
            episode("e3", "Kim", "kim"),  # a deleted Kim's, no namesake since
            episode("e4", "Assistant", "assistant"),  # the agent's own
            episode("e5", "user", "user"),  # a turn with no speaker (keyed by V0034)
            episode("e6", "user", None),  # one written since
            episode("e7", "Zed", " deleted person x"),  # already a tombstone
        ],
        people=[{"id": f"{agent}-bob", "name": "Bob Jones", "name_key": "bob jones",
                 "created_at": None}],
    )  # fmt: skip
    await test_graph.write(
        "probe/link_speakers",
        agent_id=agent,
        links=[{"episode_id": f"{agent}-e2", "person_id": f"{agent}-bob"}],
    )
    tombstone = " deleted person (before V0035)"

    for _ in range(2):  # idempotent
        await _migrate(graph)
        rows = await test_graph.read("probe/episode_speaker_keys", agent_id=agent)
        assert [r["speaker_key"] for r in rows] == [
            tombstone,
            "bob jones",
            tombstone,
            "assistant",
            "user",
            None,
            " deleted person x",
        ]
