"""A pack that brings its own domain skill (docs/packs.md §5): validated whole at load, stored
with the pack, used by the agent's turns (the pack loaded last wins), shown to the user."""

from __future__ import annotations

import copy
import re
from typing import Any

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from app.agents.models import AgentCreate
from app.agents.store import create_agent, find_agent_identity
from app.beliefs.mechanics import Mechanics
from app.cli.main import app as cli_app
from app.graph.client import GraphClient
from app.packs.loader import load_pack
from app.seeds.files import find_pack
from app.seeds.skills import stored_skill

PROCUREMENT = "procurement-basics"
# "Raise" is the accounting skill's escalate_issue; procurement's issue_purchase_order when the
# request's object is an order.
ORDER = "Please raise a purchase order for 40 laptops from Dell"
# "Onboard" is no request verb of the shipped skill: only the pack's skill makes it one.
ONBOARD = "Onboard the supplier Nordic Steel"


def _chat(client: TestClient, agent: str, message: str) -> dict[str, Any]:
    response = client.post(f"/v1/agents/{agent}/chat", json={"message": message})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def _verb(turn: dict[str, Any]) -> str | None:
    unit = turn.get("work_unit")
    return unit["verb"] if unit else None


def _skills(client: TestClient, agent: str) -> list[dict[str, Any]]:
    response = client.get(f"/v1/agents/{agent}/skills")
    assert response.status_code == 200, response.text
    skills: list[dict[str, Any]] = response.json()
    return skills


def _document(**changes: Any) -> dict[str, Any]:
    """The shipped procurement pack as a JSON document, with ``changes`` at the top level."""
    document = find_pack(PROCUREMENT).model_dump(mode="json")
    document.update(changes)
    return document


def test_a_turn_maps_a_request_to_the_verb_of_the_pack_skill(
    client: TestClient, agent: str, other_agent: str
) -> None:
    loaded = client.post(f"/v1/agents/{agent}/packs/{PROCUREMENT}/load")
    assert loaded.status_code == 200, loaded.text
    assert loaded.json()["skill"] == "procurement"

    with_skill = _chat(client, agent, ORDER)
    onboard = _chat(client, agent, ONBOARD)
    without = _chat(client, other_agent, ORDER)
    onboard_without = _chat(client, other_agent, ONBOARD)

    assert _verb(with_skill) == "issue_purchase_order"
    assert _verb(onboard) == "onboard_supplier"
    # The same requests under the shipped accounting skill.
    assert _verb(without) == "escalate_issue"
    assert _verb(onboard_without) is None


def test_the_skills_are_shown_with_the_one_in_force_first(
    client: TestClient, agent: str, other_agent: str
) -> None:
    assert [(s["name"], s["pack"], s["in_force"]) for s in _skills(client, other_agent)] == [
        ("accounting", None, True)
    ]
    assert client.post(f"/v1/agents/{agent}/packs/{PROCUREMENT}/load").status_code == 200

    skills = _skills(client, agent)
    packs = client.get(f"/v1/agents/{agent}/packs").json()

    assert [(s["name"], s["pack"], s["in_force"]) for s in skills] == [
        ("procurement", PROCUREMENT, True),
        ("accounting", None, False),
    ]
    assert "issue_purchase_order" in skills[0]["verbs"]
    assert skills[0]["criteria"] == [
        "authorization",
        "competition",
        "match",
        "segregation",
        "audit_trail",
    ]
    assert [(p["name"], p["skill"]) for p in packs] == [(PROCUREMENT, "procurement")]
    assert client.get("/v1/agents/ghost/skills").status_code == 404


def test_the_pack_loaded_last_that_brings_a_skill_wins(client: TestClient, agent: str) -> None:
    """Two packs with skills: the later load's is in force; loading the first again (even
    unchanged) puts it back; a version that drops its skill hands over to the other."""
    procurement = find_pack(PROCUREMENT).skill
    assert procurement is not None
    payroll_skill = procurement.model_copy(
        update={
            "name": "payroll",
            "vocabulary": [
                procurement.vocabulary[1].model_copy(update={"verb": "run_payroll"}),
            ],
        }
    ).model_dump(mode="json")
    # Without procurement's censors: a censor key names one censor (docs/packs.md §2).
    payroll = _document(name="payroll-basics", industry="payroll", skill=payroll_skill, censors=[])

    def in_force() -> str:
        return str(_skills(client, agent)[0]["name"])

    assert client.post(f"/v1/agents/{agent}/packs/{PROCUREMENT}/load").status_code == 200
    assert in_force() == "procurement"
    assert client.post(f"/v1/agents/{agent}/packs", json=payroll).status_code == 200
    assert in_force() == "payroll"
    # The payroll skill maps "raise ... order" to its one verb.
    assert _verb(_chat(client, agent, ORDER)) == "run_payroll"

    again = client.post(f"/v1/agents/{agent}/packs/{PROCUREMENT}/load")
    assert again.status_code == 200 and again.json()["status"] == "unchanged"
    assert in_force() == "procurement"
    assert _verb(_chat(client, agent, ORDER)) == "issue_purchase_order"

    dropped = _document(version=2, skill=None)
    upgraded = client.post(f"/v1/agents/{agent}/packs", json=dropped)
    assert upgraded.status_code == 200 and upgraded.json()["status"] == "upgraded"
    assert [s["name"] for s in _skills(client, agent)] == ["payroll", "accounting"]


def test_a_bad_skill_is_a_422_naming_the_field_and_writes_nothing(
    client: TestClient, agent: str
) -> None:
    broken = copy.deepcopy(_document())
    broken["skill"]["vocabulary"][0]["verb"] = "Raise PO"
    broken["skill"]["criteria"] = []
    twice = copy.deepcopy(_document())
    twice["skill"]["vocabulary"][1]["verb"] = twice["skill"]["vocabulary"][0]["verb"]

    refused = client.post(f"/v1/agents/{agent}/packs", json=broken)
    refused_twice = client.post(f"/v1/agents/{agent}/packs", json=twice)

    assert refused.status_code == 422
    error = refused.json()["error"]
    assert error["code"] == "seed_file_invalid"
    locations = [item["location"] for item in error["details"]["errors"]]
    assert ["body", "skill", "vocabulary", 0, "verb"] in locations
    assert ["body", "skill", "criteria"] in locations
    assert "skill.vocabulary[0].verb" in error["message"]
    assert refused_twice.status_code == 422
    assert refused_twice.json()["error"]["details"]["errors"] == [
        {
            "location": ["body", "skill", "vocabulary", 1, "verb"],
            "message": "verb listed twice",
            "type": "duplicate",
        }
    ]
    # Nothing written: no pack, no belief, the shipped skill still in force.
    assert client.get(f"/v1/agents/{agent}/packs").json() == []
    assert client.get(f"/v1/agents/{agent}/beliefs").json()["count"] == 0
    assert [s["name"] for s in _skills(client, agent)] == ["accounting"]


def test_the_cli_loads_the_example_pack_and_shows_its_skill(
    cli: CliRunner, client: TestClient, agent: str
) -> None:
    loaded = cli.invoke(cli_app, ["packs", "load", PROCUREMENT, "--agent", agent])
    listed = cli.invoke(cli_app, ["packs", "list", "--agent", agent])
    skills = cli.invoke(cli_app, ["packs", "skills", "--agent", agent])

    assert loaded.exit_code == 0, loaded.output
    assert "skill procurement" in loaded.output
    assert listed.exit_code == 0, listed.output
    assert re.search(
        r"skill in force: procurement v1 \(from pack procurement-basics\)", listed.output
    )
    assert skills.exit_code == 0, skills.output
    assert "issue_purchase_order" in skills.output and "accounting" in skills.output


async def test_both_activations_read_the_skill_in_force(graph: GraphClient) -> None:
    """A turn's activation (agents/store/get_agent_identity) and a tool call's
    (loop/activation/get_tool_call_start) read the skill of the pack loaded last."""
    agent = await create_agent(graph, AgentCreate(name="skilled"))
    before = await find_agent_identity(graph, agent.id)
    await load_pack(graph, None, Mechanics(), agent.id, find_pack(PROCUREMENT))

    identity = await find_agent_identity(graph, agent.id)
    rows = await graph.read(
        "loop/activation/get_tool_call_start",
        agent_id=agent.id,
        qualified_name="none.such",
        session=None,
        limit=0,
        chain=[],
        successes_cap=1,
    )

    assert before is not None and before["skill"] is None
    assert identity is not None
    for stored in (identity["skill"], rows[0]["agent"]["skill"]):
        skill = stored_skill(stored)
        assert skill is not None and skill == find_pack(PROCUREMENT).skill


def test_a_turn_resumed_after_its_approval_works_under_the_pack_skill(
    client: TestClient, agent: str
) -> None:
    """Guidance shapes the unit the resumed turn runs: the offline reasoner maps it to the
    pack's verbs, as it maps a fresh turn's request."""
    assert client.post(f"/v1/agents/{agent}/packs/{PROCUREMENT}/load").status_code == 200
    turn = _chat(client, agent, ORDER)
    assert turn["approval"] is not None, turn

    resumed = client.post(
        f"/v1/agents/{agent}/approvals/{turn['approval']['id']}",
        json={"action": "answer", "text": "Raise a purchase order for 20 laptops from Lenovo"},
    )

    assert resumed.status_code == 200, resumed.text
    assert _verb(resumed.json()) == "issue_purchase_order"
