"""Pack versions against what the agent holds (docs/packs.md §3): an older version is refused,
and what a person (or the agent) changed of a pack's beliefs since the pack gave them is kept
by a reload or an upgrade, and said, never undone."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from fastapi.testclient import TestClient

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.beliefs.mechanics import Mechanics
from app.beliefs.replay import compare_with_stored
from app.beliefs.revision import revise_belief
from app.embeddings.bundled import Pair
from app.embeddings.embedder import UnavailableEmbedder
from app.graph.client import GraphClient
from app.packs.loader import list_loaded_packs, load_pack
from app.reasoning.offline.reasoner import OfflineReasoner
from app.seeds.pack_schema import KnowledgePack

BELIEFS: list[dict[str, Any]] = [
    {"key": "a", "statement": "Alpha holds for the ledger.", "category": "contextual"},
    {
        "key": "b",
        "statement": "Beta holds for the ledger.",
        "category": "contextual",
        "supports": [{"key": "c", "weight": 0.7}],
    },
    {"key": "c", "statement": "Gamma holds for the ledger.", "category": "contextual"},
]


def _pack(version: int, beliefs: list[dict[str, Any]] = BELIEFS) -> dict[str, Any]:
    return {
        "name": "versioned-pack",
        "version": version,
        "industry": "testing",
        "description": "a pack whose versions the tests load",
        "beliefs": beliefs,
    }


def _load(client: TestClient, agent: str, document: dict[str, Any]) -> dict[str, Any]:
    response = client.post(f"/v1/agents/{agent}/packs", json=document)
    assert response.status_code == 200, response.text
    report: dict[str, Any] = response.json()
    return report


def _active(client: TestClient, agent: str) -> dict[str, dict[str, Any]]:
    beliefs = client.get(f"/v1/agents/{agent}/beliefs", params={"limit": 500}).json()["data"]
    return {belief["statement"]: belief for belief in beliefs if belief["is_active"]}


def test_an_older_version_is_refused_and_writes_nothing(client: TestClient, agent: str) -> None:
    _load(client, agent, _pack(3))
    before = _active(client, agent)

    older = _pack(2, [*BELIEFS[:2], {**BELIEFS[2], "statement": "Gamma, as version 2 had it."}])
    response = client.post(f"/v1/agents/{agent}/packs", json=older)

    assert response.status_code == 409, response.text
    error = response.json()["error"]
    assert error["code"] == "pack_version_older"
    assert error["details"]["loaded_version"] == 3 and error["details"]["version"] == 2
    assert "version 3" in error["message"] and "version 2" in error["message"]
    assert _active(client, agent) == before
    packs = client.get(f"/v1/agents/{agent}/packs").json()
    assert [(p["name"], p["version"]) for p in packs] == [("versioned-pack", 3)]


def _count(client: TestClient, agent: str, statement: str) -> int:
    """How many beliefs, active or not, the agent has with this statement."""
    found = 0
    for active in ("true", "false"):
        page = client.get(
            f"/v1/agents/{agent}/beliefs", params={"limit": 500, "active": active}
        ).json()
        found += sum(1 for belief in page["data"] if belief["statement"] == statement)
    return found


def _replay_differences(client: TestClient, agent: str) -> list[Any]:
    response = client.get(f"/v1/agents/{agent}/replay")
    assert response.status_code == 200, response.text
    differences: list[Any] = response.json()["differences"]
    return differences


def test_a_belief_a_person_deactivated_is_not_given_again(client: TestClient, agent: str) -> None:
    _load(client, agent, _pack(1))
    alpha = _active(client, agent)["Alpha holds for the ledger."]
    response = client.patch(f"/v1/agents/{agent}/beliefs/{alpha['id']}", json={"is_active": False})
    assert response.status_code == 200, response.text

    again = _load(client, agent, _pack(1))
    upgraded = _load(client, agent, _pack(2))

    assert (again["status"], again["created"], again["withheld"]) == ("unchanged", 0, ["a"])
    assert (upgraded["status"], upgraded["created"], upgraded["withheld"]) == ("upgraded", 0, ["a"])
    assert "Alpha holds for the ledger." not in _active(client, agent)
    assert _count(client, agent, "Alpha holds for the ledger.") == 1
    assert _replay_differences(client, agent) == []


def test_a_statement_a_person_edited_is_kept_by_reloads_and_upgrades(
    client: TestClient, agent: str
) -> None:
    _load(client, agent, _pack(1))
    gamma = _active(client, agent)["Gamma holds for the ledger."]
    edited = "Gamma holds for the ledger, as our auditors read it."
    response = client.patch(f"/v1/agents/{agent}/beliefs/{gamma['id']}", json={"statement": edited})
    assert response.status_code == 200, response.text

    again = _load(client, agent, _pack(1))
    assert (again["status"], again["superseded"], again["withheld"]) == ("unchanged", 0, [])
    assert _active(client, agent)[edited]["id"] == gamma["id"]

    # The pack changes the text too: the person's text stands, and the load says so.
    v2 = [*BELIEFS[:2], {**BELIEFS[2], "statement": "Gamma holds for the ledger in version 2."}]
    upgraded = _load(client, agent, _pack(2, v2))

    assert (upgraded["superseded"], upgraded["withheld"]) == (0, ["c"])
    active = _active(client, agent)
    assert active[edited]["id"] == gamma["id"]
    assert "Gamma holds for the ledger in version 2." not in active
    # Its supporter is still linked to it.
    beta = active["Beta holds for the ledger."]
    explanation = client.get(f"/v1/agents/{agent}/beliefs/{gamma['id']}/explanation").json()
    assert [link["id"] for link in explanation["support_chain"]] == [beta["id"]]
    assert _replay_differences(client, agent) == []


async def test_a_belief_the_agent_revised_is_not_given_again(
    client: TestClient, agent: str, graph: GraphClient
) -> None:
    _load(client, agent, _pack(1))
    gamma = _active(client, agent)["Gamma holds for the ledger."]
    outcome = await revise_belief(
        graph, Mechanics(), OfflineReasoner(), agent, gamma["id"], mode="manual"
    )
    [revision] = outcome.revisions

    again = _load(client, agent, _pack(1))
    upgraded = _load(client, agent, _pack(2))

    assert (again["status"], again["created"], again["withheld"]) == ("unchanged", 0, ["c"])
    assert (upgraded["created"], upgraded["superseded"], upgraded["withheld"]) == (0, 0, ["c"])
    assert _count(client, agent, "Gamma holds for the ledger.") == 1
    revised = client.get(f"/v1/agents/{agent}/beliefs/{revision.new_belief_id}").json()["belief"]
    assert revised["is_active"] is True
    assert _replay_differences(client, agent) == []


def test_a_key_a_version_dropped_comes_back_with_a_later_version(
    client: TestClient, agent: str
) -> None:
    _load(client, agent, _pack(1))
    dropped = _load(client, agent, _pack(2, BELIEFS[1:]))
    back = _load(client, agent, _pack(3))

    assert dropped["retired"] == ["a"]
    assert (back["created"], back["withheld"]) == (1, [])
    assert "Alpha holds for the ledger." in _active(client, agent)


class _HeldEmbedder(UnavailableEmbedder):
    """An embedder that finds no model, and holds the load calling it until let go: another load
    runs between this one's read of the agent and its transaction."""

    def __init__(self) -> None:
        super().__init__("held by the test")
        self.entered = asyncio.Event()
        self.gate = asyncio.Event()

    async def embed(self, texts: Sequence[str], kind: Pair = "passage") -> None:
        self.entered.set()
        await self.gate.wait()


async def test_a_load_that_another_load_overtook_gives_each_belief_once(
    graph: GraphClient,
) -> None:
    """Each load reads what the agent holds before its transaction (vectors are made outside
    it); one that finds it changed under the agent's lock works the load out again."""
    many = [
        {"key": f"k{i}", "statement": f"Statement {i} holds.", "category": "contextual"}
        for i in range(5)
    ]
    pack = KnowledgePack.model_validate(_pack(1, many))
    agent = await create_agent(graph, AgentCreate(name="concurrent loads"))
    held = _HeldEmbedder()

    overtaken = asyncio.create_task(load_pack(graph, held, Mechanics(), agent.id, pack))
    await held.entered.wait()
    first = await load_pack(graph, None, Mechanics(), agent.id, pack)
    held.gate.set()
    second = await overtaken

    assert (first.status, second.status, second.created) == ("loaded", "unchanged", 0)
    [summary] = await list_loaded_packs(graph, agent.id)
    assert (summary.beliefs, summary.superseded) == (len(many), 0)
    assert await compare_with_stored(graph, Mechanics(), agent.id) == []


def test_a_restated_belief_starts_under_the_strength_cap_as_a_new_one_does(
    client: TestClient, agent: str
) -> None:
    """A version that restates a belief gives the agent a new belief (its successor): it starts
    under the birth strength cap, the pack's figure kept as its prior, as every belief a pack
    gives does (docs/packs.md §2), never at the pack's own figure."""
    cap = Mechanics().birth_strength_cap
    assert cap is not None and cap < 0.9
    strong = {"key": "s", "statement": "Strong holds for the ledger.", "category": "contextual"}
    _load(client, agent, _pack(1, [*BELIEFS, {**strong, "strength": 0.9}]))
    restated = {**strong, "statement": "Strong holds for the ledger, restated.", "strength": 0.9}

    report = _load(client, agent, _pack(2, [*BELIEFS, restated]))

    assert report["superseded"] == 1
    successor = _active(client, agent)["Strong holds for the ledger, restated."]
    assert successor["strength"] == cap
    assert successor["prior_strength"] == 0.9
    assert _replay_differences(client, agent) == []


def test_a_version_s_new_figures_for_a_kept_belief_are_applied_each_an_event(
    client: TestClient, agent: str
) -> None:
    """A version that keeps a statement but gives it another category, domain, importance or
    core flag is followed (it was reported `upgraded` while nothing changed), each change a
    `pack` event on the belief; an importance a person set stays until the pack's figure
    changes, as a SUPPORTS weight a person set does."""
    _load(client, agent, _pack(1))
    beliefs = _active(client, agent)
    alpha, beta = beliefs["Alpha holds for the ledger."], beliefs["Beta holds for the ledger."]
    client.patch(f"/v1/agents/{agent}/beliefs/{beta['id']}", json={"importance": 0.3})
    v2 = [
        {**BELIEFS[0], "category": "ethical", "domain": "ledgers", "importance": 0.9,
         "is_core": True},
        *BELIEFS[1:],
    ]  # fmt: skip

    report = _load(client, agent, _pack(2, v2))

    assert (report["kept"], report["superseded"]) == (3, 0)
    after = _active(client, agent)
    moved = after["Alpha holds for the ledger."]
    assert moved["id"] == alpha["id"]
    assert (moved["category"], moved["domain"], moved["importance"], moved["is_core"]) == (
        "ethical",
        "ledgers",
        0.9,
        True,
    )
    assert after["Beta holds for the ledger."]["importance"] == 0.3
    detail = client.get(f"/v1/agents/{agent}/beliefs/{alpha['id']}").json()
    [event] = [e for e in detail["events"] if e.get("action") == "updated"]
    assert event["kind"] == "pack"
    assert "importance 0.5 -> 0.9" in event["note"] and "versioned-pack v2" in event["note"]
    assert _replay_differences(client, agent) == []


def test_the_pack_list_tells_superseded_beliefs_from_others_no_longer_held(
    client: TestClient, agent: str
) -> None:
    """`superseded` counts the pack's beliefs a revision replaced; one a version dropped or a
    person deactivated is `inactive` (both were counted as superseded)."""
    _load(client, agent, _pack(1))
    restated = {**BELIEFS[2], "statement": "Gamma holds for the ledger, restated."}
    _load(client, agent, _pack(2, [BELIEFS[1], restated]))

    [summary] = client.get(f"/v1/agents/{agent}/packs").json()

    assert (summary["beliefs"], summary["superseded"], summary["inactive"]) == (2, 1, 1)
