"""Enrichment at birth through a directory MCP server (docs/packs.md §4), on the real Neo4j with
a real stdio server built with the SDK (tests/support/directory_server.py)."""

from __future__ import annotations

import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.agents.enrichment import DirectoryAnswer, plan_enrichment, write_enrichment
from app.agents.models import BirthProfile
from app.agents.settings import EnrichmentSettings
from app.api.app import create_app
from app.clock import Clock
from app.config import Settings
from app.graph.client import GraphClient
from app.memory.people.models import Person
from app.memory.settings import MemoryMechanics
from app.tools.settings import ToolSettings
from tests.support import directory_server

ROOT = Path(__file__).resolve().parents[3]
# Starting a Python MCP server takes seconds on a loaded machine: the limit of the ordinary
# births is generous; the slow directory's test sets its own.
TIMEOUT_S = 60.0
DANA = {"name": "Dana Reyes", "email": "dana.reyes@acme.example"}
AUTHORITY = MemoryMechanics().authority_by_seniority


def directory(*flags: str, **fields: Any) -> dict[str, Any]:
    """The request's ``enrichment``: the test directory over stdio."""
    return {
        "command": sys.executable,
        "args": ["-m", "tests.support.directory_server", *flags],
        "cwd": str(ROOT),
        "timeout_s": TIMEOUT_S,
        **fields,
    }


def _name() -> str:
    return f"Enriched {uuid.uuid4()}"


def _people(client: TestClient, agent_id: str) -> dict[str, dict[str, Any]]:
    response = client.get(f"/v1/agents/{agent_id}/people", params={"limit": 100})
    assert response.status_code == 200, response.text
    return {person["name"]: person for person in response.json()["data"]}


async def _agents_named(test_graph: GraphClient, name: str) -> int:
    rows = await test_graph.read("probe/count_agents_named", agent_name=name)
    return int(rows[0]["agents"])


async def _lines(test_graph: GraphClient, agent_id: str) -> list[tuple[str, str, str]]:
    rows = await test_graph.read("probe/reporting_lines", agent_id=agent_id)
    return [(row["person"], row["manager"], row["source"]) for row in rows]


def _birth(client: TestClient, name: str, expect: int = 201, **fields: Any) -> dict[str, Any]:
    response = client.post("/v1/agents", json={"name": name, "packs": [], **fields})
    assert response.status_code == expect, response.text
    body: dict[str, Any] = response.json()
    return body


async def test_enrichment_writes_the_people_with_their_authority_and_reporting_lines(
    client: TestClient, test_graph: GraphClient
) -> None:
    born = _birth(client, _name(), profile=DANA, enrichment=directory())

    enrichment = born["birth"]["enrichment"]
    assert enrichment["provider"] == "directory_server.lookup_person"
    assert enrichment["found"] is True
    assert enrichment["filled"] == ["role", "seniority", "company", "industry"]
    principal = born["birth"]["principal"]
    assert (principal["role"], principal["seniority"]) == ("Controller", "director")
    assert principal["authority"] == AUTHORITY["director"]
    assert principal["birth_source"] == "full"
    assert born["industry"] == "manufacturing"
    people = _people(client, born["id"])
    expected = {
        person["name"]: person
        for person in directory_server.PEOPLE
        if person["name"] != "Dana Reyes"
    }
    assert set(people) == {"Dana Reyes", *expected}
    for name, entry in expected.items():
        person = people[name]
        assert person["birth_source"] == "enrichment"
        assert (person["email"], person["role"]) == (entry["email"], entry["title"])
        assert person["seniority"] == entry["seniority"]
        assert person["authority"] == AUTHORITY[entry["seniority"]]
    assert sorted(person["name"] for person in enrichment["people"]) == sorted(expected)
    assert enrichment["reporting_lines"] == 4
    assert await _lines(test_graph, born["id"]) == [
        ("Dana Reyes", "Maria Lopez", "enrichment"),
        ("Priya Shah", "Dana Reyes", "enrichment"),
        ("Sam Okafor", "Dana Reyes", "enrichment"),
        ("Tom Becker", "Dana Reyes", "enrichment"),  # named by name, not email
    ]
    beliefs = client.get(f"/v1/agents/{born['id']}/beliefs").json()
    assert any(
        "Controller at Acme Manufacturing" in belief["statement"] for belief in beliefs["data"]
    )


async def test_what_the_request_gives_wins_over_the_directory(client: TestClient) -> None:
    profile = {**DANA, "role": "Acting CFO", "seniority": "vp", "industry": "saas"}
    born = _birth(client, _name(), profile=profile, enrichment=directory())

    assert born["birth"]["enrichment"]["filled"] == ["company"]
    principal = born["birth"]["principal"]
    assert (principal["role"], principal["seniority"]) == ("Acting CFO", "vp")
    assert born["industry"] == "saas"


async def test_a_second_birth_is_idempotent(
    client: TestClient, graph: GraphClient, test_graph: GraphClient
) -> None:
    first = _birth(client, _name(), profile=DANA, enrichment=directory())
    second = _birth(client, _name(), profile=DANA, enrichment=directory())

    def shape(agent_id: str) -> dict[str, tuple[Any, ...]]:
        return {
            name: (p["email"], p["role"], p["seniority"], p["authority"], p["birth_source"])
            for name, p in _people(client, agent_id).items()
        }

    assert shape(first["id"]) == shape(second["id"])
    assert len(shape(first["id"])) == 5
    assert await _lines(test_graph, first["id"]) == await _lines(test_graph, second["id"])
    # The same answer written again into the first agent (as a retried write would) adds
    # nobody and no line.
    before = _people(client, first["id"])
    answer = DirectoryAnswer.model_validate(directory_server.lookup(DANA["email"], None))
    plan = plan_enrichment("directory.lookup_person", BirthProfile.model_validate(DANA), answer)
    principal = Person.model_validate(first["birth"]["principal"])
    written = await write_enrichment(graph, first["id"], principal, plan)
    assert len(written.people) == 4 and written.reporting_lines == 4
    after = _people(client, first["id"])
    assert {name: p["id"] for name, p in after.items()} == {
        name: p["id"] for name, p in before.items()
    }
    assert len(await _lines(test_graph, first["id"])) == 4


async def test_an_unknown_principal_gets_nothing_and_birth_continues(client: TestClient) -> None:
    profile = {"name": "Robin Nobody", "email": "robin@elsewhere.example", "role": "Analyst"}
    born = _birth(client, _name(), profile=profile, enrichment=directory())

    enrichment = born["birth"]["enrichment"]
    assert (enrichment["found"], enrichment["filled"], enrichment["people"]) == (False, [], [])
    assert set(_people(client, born["id"])) == {"Robin Nobody"}
    assert born["beliefs"] > 0 and born["birth_source"] == "full"


@pytest.mark.parametrize(
    ("flags", "fields", "status", "code", "says"),
    [
        (["--fail"], {}, 502, "enrichment_failed", "backend is unavailable"),
        (["--invalid"], {}, 502, "enrichment_failed", "answer.people.0.seniority"),
        ([], {"tool": "find_people"}, 502, "enrichment_failed", "no tool 'find_people'"),
        (["--delay", "120"], {"timeout_s": 3.0}, 504, "enrichment_timed_out", "within 3 s"),
    ],
    ids=["tool-error", "invalid-answer", "no-such-tool", "slow"],
)
async def test_a_failing_directory_is_a_clear_error_and_writes_nothing(
    client: TestClient,
    test_graph: GraphClient,
    flags: list[str],
    fields: dict[str, Any],
    status: int,
    code: str,
    says: str,
) -> None:
    name = _name()
    body = _birth(client, name, status, profile=DANA, enrichment=directory(*flags, **fields))

    assert body["error"]["code"] == code
    assert says in body["error"]["message"] and "nothing was written" in body["error"]["message"]
    assert await _agents_named(test_graph, name) == 0


async def test_a_lookup_the_tools_schema_refuses_is_not_sent_and_fails_naming_the_argument(
    client: TestClient, test_graph: GraphClient
) -> None:
    """Enrichment called its tool without the input-schema check every other call passes: the
    server refused it (``answered an error``) with its own text, nothing naming the argument."""
    name = _name()
    body = _birth(client, name, 502, profile=DANA, enrichment=directory("--employee-id"))

    error = body["error"]
    assert error["code"] == "enrichment_failed"
    assert error["message"] == (
        "enrichment through directory_server.lookup_person failed: the tool refuses the "
        "lookup's arguments (email, name): arguments: 'employee_id' is a required property; "
        "nothing was written"
    )
    assert error["details"]["errors"] == [
        {
            "location": ["arguments"],
            "message": "'employee_id' is a required property",
            "type": "schema_error",
        }
    ]
    assert await _agents_named(test_graph, name) == 0


async def test_enrich_without_a_provider_is_a_422_naming_the_field(
    client: TestClient, test_graph: GraphClient
) -> None:
    name = _name()
    body = _birth(client, name, 422, profile=DANA, enrich=True)

    assert body["error"]["code"] == "enrichment_not_configured"
    assert body["error"]["details"]["errors"][0]["location"] == ["body", "enrich"]
    assert "CREDENCE_ENRICHMENT__COMMAND" in body["error"]["message"]
    no_profile = _birth(client, name, 422, enrich=True)
    assert no_profile["error"]["code"] == "enrichment_not_configured"
    assert "needs a profile" in no_profile["error"]["message"]
    contradiction = _birth(client, name, 422, profile=DANA, enrich=False, enrichment=directory())
    assert "enrich is false" in contradiction["error"]["message"]
    assert await _agents_named(test_graph, name) == 0
    # Without enrich (the default) a birth needs no directory.
    plain = _birth(client, name, profile=DANA)
    assert plain["birth"]["enrichment"] is None and plain["birth"]["enriched_by"] is None


@pytest.fixture(scope="module")
def directory_client(settings: Settings, clock: Clock) -> Iterator[TestClient]:
    """An API whose settings configure the test directory (CREDENCE_ENRICHMENT__*) and allow
    only the Python interpreter as a stdio command."""
    configured = settings.model_copy(
        update={
            "enrichment": EnrichmentSettings(
                command=sys.executable,
                args=["-m", "tests.support.directory_server"],
                cwd=str(ROOT),
                timeout_s=TIMEOUT_S,
            ),
            "tools": ToolSettings(stdio_commands=[sys.executable]),
        }
    )
    with TestClient(create_app(configured, clock=clock)) as test_client:
        yield test_client


async def test_the_configured_directory_enriches_a_birth_that_asks(
    directory_client: TestClient, test_graph: GraphClient
) -> None:
    born = _birth(directory_client, _name(), profile=DANA, enrich=True)

    assert born["birth"]["enriched_by"] == "directory_server.lookup_person"
    assert len(_people(directory_client, born["id"])) == 5
    # The allow-list of stdio commands holds for a directory named in the request.
    name = _name()
    refused = _birth(
        directory_client, name, 422, profile=DANA, enrichment=directory(command="/bin/sh")
    )
    assert refused["error"]["details"]["errors"][0]["location"] == [
        "body",
        "enrichment",
        "command",
    ]
    assert await _agents_named(test_graph, name) == 0


async def test_an_industry_the_directory_fills_in_that_no_pack_serves_is_left_out_and_said(
    client: TestClient,
) -> None:
    born = _birth(
        client,
        _name(),
        profile=DANA,
        packs=None,
        enrichment=directory("--industry", "Financial Services"),
    )

    enrichment = born["birth"]["enrichment"]
    assert born["industry"] == "accounting"  # the profile's own (the default): packs for it
    assert "industry" not in enrichment["filled"]
    [note] = enrichment["ignored"]
    assert "'financial_services'" in note and "kept 'accounting'" in note
    loaded = {report["pack"] for report in born["birth"]["packs"]}
    assert "gaap-fundamentals" in loaded
    # An industry a pack serves is filled in as before, with nothing ignored.
    served = _birth(client, _name(), profile=DANA, enrichment=directory())
    assert served["industry"] == "manufacturing"
    assert served["birth"]["enrichment"]["ignored"] == []
