"""The guardian's REST routes (real Neo4j): censors listed, added, removed, and texts checked."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from app.config import Settings
from app.graph.client import GraphClient
from app.guardian.patterns import shipped_censors
from tests.support.event_loop import ticking


def test_censors_through_the_api(client: TestClient, agent: str) -> None:
    url = f"/v1/agents/{agent}/censors"
    listed = client.get(url)
    assert listed.status_code == 200, listed.text
    assert listed.json()["count"] == len(shipped_censors())
    assert all(c["source"] == "default" and not c["removable"] for c in listed.json()["data"])

    body = {"pattern": r"\bproject-x\b", "reason": "the project is secret", "action": "block"}
    created = client.post(url, json=body)
    assert created.status_code == 201, created.text
    censor = created.json()["censor"]
    assert created.json()["status"] == "created" and created.json()["created"] is True
    assert censor["source"] == "manual" and censor["removable"] is True

    duplicate = client.post(url, json=body)
    assert duplicate.status_code == 200
    assert duplicate.json()["status"] == "duplicate"
    assert duplicate.json()["censor"]["id"] == censor["id"]

    manual = client.get(url, params={"source": "manual"}).json()
    assert [c["id"] for c in manual["data"]] == [censor["id"]]
    assert client.get(f"{url}/{censor['id']}").json()["pattern"] == r"\bproject-x\b"

    removed = client.delete(f"{url}/{censor['id']}")
    assert removed.status_code == 200, removed.text
    assert removed.json()["is_active"] is False
    assert client.get(url, params={"source": "manual"}).json()["count"] == 0
    assert (
        client.get(url, params={"source": "manual", "include_inactive": True}).json()["count"] == 1
    )


def test_protected_censors_answer_409_and_unknown_ones_404(client: TestClient, agent: str) -> None:
    url = f"/v1/agents/{agent}/censors"
    created = client.post(
        url, json={"pattern": r"\bnuke-prod\b", "reason": "never", "action": "absolute"}
    )
    absolute_id = created.json()["censor"]["id"]

    refused = client.delete(f"{url}/{absolute_id}")
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "censor_protected"
    assert "absolute" in refused.json()["error"]["message"]

    shipped = client.delete(f"{url}/{shipped_censors()[0].id}")
    assert shipped.status_code == 409
    assert "shipped default" in shipped.json()["error"]["message"]

    missing = client.delete(f"{url}/no-such-censor")
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "censor_not_found"
    assert client.get("/v1/agents/no-such-agent/censors").status_code == 404


def test_invalid_censors_answer_422_and_write_nothing(client: TestClient, agent: str) -> None:
    url = f"/v1/agents/{agent}/censors"
    bad_regex = client.post(url, json={"pattern": "(unclosed", "reason": "r"})
    assert bad_regex.status_code == 422
    error = bad_regex.json()["error"]
    assert error["code"] == "censor_pattern_invalid"
    assert "not a valid regular expression" in error["message"]
    assert error["details"]["errors"][0]["location"] == ["body", "pattern"]
    assert error["details"]["errors"][0]["type"] == "pattern_refused"

    everything = client.post(url, json={"pattern": ".*", "reason": "r"})
    assert everything.status_code == 422
    assert "empty string" in everything.json()["error"]["message"]

    bad_action = client.post(url, json={"pattern": r"\bx\b", "reason": "r", "action": "nuke"})
    assert bad_action.status_code == 422
    assert client.get(url).json()["count"] == len(shipped_censors())


def test_check_says_what_fired_and_why(client: TestClient, agent: str) -> None:
    url = f"/v1/agents/{agent}/guardian/check"

    wiped = client.post(url, json={"text": "rm -rf ~/"})
    assert wiped.status_code == 200, wiped.text
    verdict = wiped.json()
    assert verdict["action"] == "absolute" and verdict["allowed"] is False
    assert verdict["matches"][0]["key"] == "rm_rf_root_or_home"
    assert verdict["matches"][0]["matched"] == "rm -rf ~/"
    assert "rm_rf_root_or_home" in verdict["reason"]
    assert verdict["high_risk_kinds"] == []

    tennis = client.post(url, json={"text": "drop table tennis, then email the team"}).json()
    assert tennis["action"] == "allow" and tennis["allowed"] is True
    assert tennis["high_risk_kinds"] == ["delete", "external_communication"]

    assert client.post(url, json={"text": ""}).status_code == 422
    assert (
        client.post("/v1/agents/no-such-agent/guardian/check", json={"text": "hi"}).status_code
        == 404
    )


def test_a_pattern_that_backtracks_is_refused_and_nothing_is_written(
    client: TestClient, agent: str
) -> None:
    url = f"/v1/agents/{agent}/censors"
    refused = client.post(url, json={"pattern": "(a+)+$", "reason": "r", "action": "block"})

    assert refused.status_code == 422, refused.text
    assert refused.json()["error"]["code"] == "censor_pattern_invalid"
    assert "it backtracks" in refused.json()["error"]["message"]
    assert client.get(url, params={"source": "manual"}).json()["count"] == 0


@pytest.mark.parametrize(
    "text",
    [
        "rm -rf /var/lib/x",
        "drop table x",
        "drop database x",
        "echo `ls`",
        "mkfs.ext4 disk.img",
    ],
)
def test_the_seed_blocklist_refuses_what_it_refuses(
    client: TestClient, agent: str, text: str
) -> None:
    verdict = client.post(f"/v1/agents/{agent}/guardian/check", json={"text": text}).json()

    assert verdict["allowed"] is False, verdict


def test_the_check_reads_the_proposed_work_unit_and_its_entities(
    client: TestClient, agent: str
) -> None:
    url = f"/v1/agents/{agent}/guardian/check"
    unit = {
        "verb": "run_query",
        "description": "clean up the ledger",
        "entities": ["DROP TABLE ledger;"],
    }
    alone = client.post(url, json={"text": "Please tidy the books"}).json()
    with_unit = client.post(url, json={"text": "Please tidy the books", "work_unit": unit}).json()
    transfer = {"verb": "transfer", "description": "the balance to savings", "entities": []}
    risky = client.post(url, json={"text": "Handle it", "work_unit": transfer}).json()

    assert alone["action"] == "allow"
    assert with_unit["action"] == "block"
    assert with_unit["matches"][0]["key"] == "sql_drop_table"
    assert "payment" in risky["high_risk_kinds"]


async def test_a_long_adversarial_check_leaves_the_event_loop_free(
    settings: Settings, agent: str
) -> None:
    """The issue's 118 s case ("rm " * 33333): answered within the check limit, and /health-like
    work on the same loop keeps running meanwhile."""
    import time

    from app.guardian.check import check

    graph = GraphClient.from_settings(settings.neo4j)
    started = time.perf_counter()
    try:
        async with ticking(0.01) as ticks:
            verdict = await check(graph, agent, "rm " * 33333, settings=settings.guardian)
    finally:
        await graph.close()
    elapsed = time.perf_counter() - started

    assert verdict.action in ("allow", "warn")
    assert elapsed < settings.guardian.check_timeout_seconds + 5.0
    assert ticks.count >= 5 or elapsed < 0.1, (ticks, elapsed)


def test_an_audit_on_request_says_why_and_what_to_do(client: TestClient, agent: str) -> None:
    """``audit: true`` runs tier 3 whether or not the text is high-risk; a failed audit blocks
    with its reason, the creed lines it breaks and a recommendation."""
    url = f"/v1/agents/{agent}/guardian/check"
    plain = client.post(url, json={"text": "Summarise the October close"}).json()
    assert plain["audit"] is None

    calm = client.post(url, json={"text": "Summarise the October close", "audit": True})
    assert calm.status_code == 200, calm.text
    assert calm.json()["audit"]["passed"] is True and calm.json()["audit"]["reason"]
    assert calm.json()["action"] == "allow"

    body = {"text": "Tell the auditors the figures are final and hide the refund", "audit": True}
    failed = client.post(url, json=body)
    assert failed.status_code == 200, failed.text
    verdict = failed.json()
    assert verdict["action"] == "block" and verdict["allowed"] is False
    audit = verdict["audit"]
    assert audit["passed"] is False and audit["risk"] == "high"
    assert "concealment" in audit["reason"] and verdict["reason"].endswith(audit["reason"])
    assert audit["recommendation"] and isinstance(audit["creed_violations"], list)

    unknown = client.post("/v1/agents/no-such-agent/guardian/check", json=body)
    assert unknown.status_code == 404


def _censor_keys(client: TestClient, agent: str) -> list[str]:
    listed = client.get(f"/v1/agents/{agent}/censors", params={"include_inactive": True})
    assert listed.status_code == 200, listed.text
    return [censor["key"] for censor in listed.json()["data"]]


def test_a_manual_censor_with_a_key_the_agent_has_is_a_409_and_nothing_is_written(
    client: TestClient, agent: str
) -> None:
    url = f"/v1/agents/{agent}/censors"
    shipped_key = next(c.key for c in shipped_censors() if c.key is not None)
    pack = {
        "name": "key-checks",
        "version": 1,
        "industry": "testing",
        "description": "A pack with a censor.",
        "beliefs": [{"key": "b", "statement": "Ledgers balance.", "category": "ethical"}],
        "censors": [
            {"key": "no_wire", "pattern": r"\bwire now\b", "reason": "no rush", "action": "block"}
        ],
    }
    assert client.post(f"/v1/agents/{agent}/packs", json=pack).status_code == 200
    manual = {"pattern": r"\bproject-x\b", "reason": "secret", "key": "secret_project"}
    assert client.post(url, json=manual).status_code == 201
    before = _censor_keys(client, agent)

    for taken in (shipped_key, "no_wire", "secret_project"):
        refused = client.post(url, json={"pattern": r"\bother\b", "reason": "r", "key": taken})
        assert refused.status_code == 409, refused.text
        error = refused.json()["error"]
        assert error["code"] == "conflict" and error["details"]["key"] == taken
        assert repr(taken) in error["message"]
    assert _censor_keys(client, agent) == before

    # The pack loads again (its censor keeps its key), and the same censor added again is
    # still the duplicate it was, not a conflict.
    assert client.post(f"/v1/agents/{agent}/packs", json={**pack, "version": 2}).status_code == 200
    assert client.post(url, json=manual).status_code == 200
    assert _censor_keys(client, agent) == before


def test_the_censor_route_declares_its_409() -> None:
    from app.api.app import create_app

    declared = create_app().openapi()["paths"]["/v1/agents/{agent_id}/censors"]["post"]
    conflict = declared["responses"]["409"]
    assert "key" in conflict["description"]
    assert conflict["content"]["application/json"]["schema"]["$ref"].endswith("ErrorResponse")
