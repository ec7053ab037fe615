"""A pack's rules across its versions (docs/packs.md §3): a version that drops a rule retires it
(kept, never deleted), every reader of rules leaves it out, and a version that brings the key
back makes the same rule active again (real Neo4j, through the API)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from fastapi.testclient import TestClient

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.graph.catalog import file_statements
from app.graph.client import GraphClient
from app.memory import rules
from app.resources import resource_dir

WIRE = "Call the payee back on a known number before releasing any wire transfer."
MATCH = "Match every vendor invoice to its purchase order before it is paid."


def _document(version: int, rules: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "name": "rule-lifecycle",
        "version": version,
        "industry": "testing",
        "description": "A pack whose rules change between versions.",
        "beliefs": [{"key": "b", "statement": "Ledgers balance.", "category": "ethical"}],
        "rules": rules,
    }


RULES = [
    {"key": "match", "trigger_concept": "vendor invoice", "content": MATCH},
    {"key": "wire", "trigger_concept": "wire transfer payee", "content": WIRE},
]


def _listed(client: TestClient, agent: str) -> dict[str, dict[str, Any]]:
    response = client.get(f"/v1/agents/{agent}/rules")
    assert response.status_code == 200, response.text
    return {rule["content"]: rule for rule in response.json()["data"]}


def _retrieved(client: TestClient, agent: str, mode: str) -> list[str]:
    response = client.get(
        f"/v1/agents/{agent}/context",
        params={"q": "wire transfer payee call back", "section": "rules", "mode": mode},
    )
    assert response.status_code == 200, response.text
    return [item["content"] for item in response.json()["sections"]["rules"]["items"]]


def _identity_rules(client: TestClient, agent: str) -> list[str]:
    response = client.get(f"/v1/agents/{agent}/identity")
    assert response.status_code == 200, response.text
    return sorted(rule["content"] for rule in response.json()["recent_rules"])


def test_a_new_version_that_drops_a_rule_retires_it(client: TestClient, agent: str) -> None:
    url = f"/v1/agents/{agent}/packs"
    assert client.post(url, json=_document(1, RULES)).status_code == 200
    wire = _listed(client, agent)[WIRE]
    for mode in ("vector", "fulltext"):
        assert WIRE in _retrieved(client, agent, mode)

    upgraded = client.post(url, json=_document(2, RULES[:1]))

    assert upgraded.status_code == 200, upgraded.text
    assert upgraded.json()["retired_rules"] == ["wire"]
    assert upgraded.json()["rules"] == 1
    # Every reader leaves the retired rule out: the list, the context's rule section (both
    # halves), the identity document.
    assert list(_listed(client, agent)) == [MATCH]
    for mode in ("vector", "fulltext", "fused"):
        assert WIRE not in _retrieved(client, agent, mode)
    assert _identity_rules(client, agent) == [MATCH]
    # Kept for history, with when and by which version.
    kept = client.get(f"/v1/agents/{agent}/rules/{wire['id']}")
    assert kept.status_code == 200, kept.text
    assert kept.json()["is_active"] is False
    assert kept.json()["retired_in_version"] == 2
    assert kept.json()["deactivated_at"] is not None
    refused = client.post(f"/v1/agents/{agent}/rules/{wire['id']}/validate")
    assert refused.status_code == 409, refused.text
    assert refused.json()["error"]["code"] == "rule_retired"
    unvalidated = client.get(f"/v1/agents/{agent}/rules/{wire['id']}").json()
    assert unvalidated["validation_count"] == 0
    # An unchanged reload retires nothing more.
    again = client.post(url, json=_document(2, RULES[:1]))
    assert again.json()["retired_rules"] == []

    restored = client.post(url, json=_document(3, RULES))

    assert restored.status_code == 200, restored.text
    assert restored.json()["retired_rules"] == []
    back = _listed(client, agent)[WIRE]
    assert back["id"] == wire["id"] and back["is_active"] is True
    assert back["retired_in_version"] is None and back["deactivated_at"] is None
    assert WIRE in _retrieved(client, agent, "fused")
    assert _identity_rules(client, agent) == sorted([MATCH, WIRE])
    validated = client.post(f"/v1/agents/{agent}/rules/{wire['id']}/validate")
    assert validated.status_code == 200 and validated.json()["validation_count"] == 1


async def test_a_rule_stored_before_the_flag_acts_and_the_migration_marks_it_active(
    graph: GraphClient, test_graph: GraphClient
) -> None:
    agent = (await create_agent(graph, AgentCreate(name="Rules before the flag"))).id
    rule = {
        "id": str(uuid.uuid4()),
        "agent_id": agent,
        "trigger_concept": "wire transfer",
        "content": WIRE,
        "source": "manual",
        "confidence": 0.8,
        "validation_count": 0,
        "created_at": datetime(2026, 1, 5, 9, 0, tzinfo=UTC),
    }
    await test_graph.write("probe/create_rules", rules=[rule])
    # Stored without is_active, as every rule was before V0033: it still acts.
    listed = await rules.list_rules(graph, agent, now=datetime(2026, 1, 6, tzinfo=UTC))
    assert [r.id for r in listed.data] == [rule["id"]] and listed.data[0].is_active

    migration = resource_dir("schema") / "V0033__record_rule_activity.cypher"
    statements = [s.text for s in file_statements(migration.read_text(encoding="utf-8"))]
    for _ in range(2):  # idempotent
        for statement in statements:
            await graph.run_autocommit(statement, "re-run V0033")
        rows = await test_graph.read("probe/rule_activity", agent_id=agent)
        assert [(row["id"], row["is_active"]) for row in rows] == [(rule["id"], True)]
