"""A speaker's key collapses runs of white space, as a person's name key does (docs/memory.md
§2): "Bob  Jones" is the speaker Bob Jones, written now and re-keyed by V0034."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient

from app.graph.catalog import file_statements
from app.graph.client import GraphClient
from app.memory.people import store as people
from app.resources import resource_dir

T0 = datetime(2026, 4, 1, 9, 0, tzinfo=UTC)


def test_a_speaker_with_inner_white_space_is_the_same_speaker(
    client: TestClient, agent: str
) -> None:
    response = client.post(
        f"/v1/agents/{agent}/episodes",
        json={
            "episodes": [
                {"external_id": "a", "speaker": "Bob  Jones", "text": "Invoices are late."},
                {"external_id": "b", "speaker": "bob jones", "text": "Invoices are posted."},
                {"external_id": "c", "speaker": "BOB \u00a0JONES", "text": "Invoices are paid."},
            ]
        },
    )
    assert response.status_code in (200, 201), response.text

    listed = client.get(f"/v1/agents/{agent}/people").json()
    assert [p["name"] for p in listed["data"]] == ["Bob Jones"]
    for asked in ("Bob Jones", "bob  JONES"):
        spoken = client.get(f"/v1/agents/{agent}/episodes", params={"speaker": asked}).json()
        assert sorted(e["external_id"] for e in spoken) == ["a", "b", "c"]
        assert {e["speaker_key"] for e in spoken} == {"bob jones"}


async def test_the_migration_rekeys_speakers_and_keeps_people_who_then_share_a_key(
    graph: GraphClient, test_graph: GraphClient
) -> None:
    agent = f"test-{uuid.uuid4()}"
    await test_graph.write(
        "probe/create_old_speaker_keys",
        agent_id=agent,
        episodes=[
            {"id": f"{agent}-e1", "speaker": "Bob  Jones", "speaker_key": "bob  jones"},
            {"id": f"{agent}-e2", "speaker": "Ann\u00a0Lee ", "speaker_key": "ann\u00a0lee "},
            {"id": f"{agent}-e3", "speaker": "Kim", "speaker_key": "kim"},
        ],
        people=[
            {"id": f"{agent}-p1", "name": "Bob Jones", "name_key": "bob jones", "created_at": T0},
            {
                "id": f"{agent}-p2",
                "name": "Bob  Jones",
                "name_key": "bob  jones",
                "created_at": T0 + timedelta(days=1),
            },
        ],
    )
    migration = resource_dir("schema") / "V0034__collapse_speaker_and_name_keys.cypher"
    statements = [s.text for s in file_statements(migration.read_text(encoding="utf-8"))]
    assert len(statements) == 2
    for _ in range(2):  # idempotent
        for statement in statements:
            await graph.run_autocommit(statement, "re-run V0034")
        rows = await test_graph.read("probe/episode_speaker_keys", agent_id=agent)
        assert [r["speaker_key"] for r in rows] == ["bob jones", "ann lee", "kim"]
        found = await test_graph.read("probe/person_name_keys", agent_id=agent)
        # Both kept (people may share a name), the older is the one a name finds.
        assert [(r["id"], r["name_key"]) for r in found] == [
            (f"{agent}-p1", "bob jones"),
            (f"{agent}-p2", "bob jones"),
        ]
        person = await people.find_person(graph, agent, "bob  jones")
        assert person is not None and person.id == f"{agent}-p1"
