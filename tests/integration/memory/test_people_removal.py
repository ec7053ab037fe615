"""Deleting and merging people against the real Neo4j (docs/memory.md §2): through the API and
the CLI, the episodes that stay, the user models combined, the name index that forgets, and
nothing written on a refused request."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from app.cli.main import app as cli_app
from app.clock import Clock
from app.config import Settings
from app.graph.client import GraphClient, Transaction
from app.loop.activation import read_people_and_history
from app.loop.revisits import mark_told_in
from app.memory.people import store as people
from app.memory.people.name_index import kept_pairs


def _import(client: TestClient, agent: str, *episodes: tuple[str, str, str]) -> None:
    response = client.post(
        f"/v1/agents/{agent}/episodes",
        json={
            "episodes": [
                {"external_id": eid, "speaker": speaker, "text": text}
                for eid, speaker, text in episodes
            ]
        },
    )
    assert response.status_code in (200, 201), response.text


def _people(client: TestClient, agent: str) -> dict[str, dict[str, Any]]:
    listed = client.get(f"/v1/agents/{agent}/people", params={"sort": "name"}).json()
    return {p["name"]: p for p in listed["data"]}


async def _links(test_graph: GraphClient, agent: str) -> dict[str, tuple[list[str], list[str]]]:
    rows = await test_graph.read("probe/person_links", agent_id=agent)
    return {r["person"]: (r["episodes"], r["speaker_keys"]) for r in rows}


async def test_a_deleted_person_is_gone_and_their_episodes_stay_unlinked(
    client: TestClient, graph: GraphClient, test_graph: GraphClient, agent: str
) -> None:
    _import(
        client,
        agent,
        ("e1", "Bob", "The invoices for Acme are late."),
        ("e2", "Ann", "Bob and Ann approved the budget."),
    )
    bob = _people(client, agent)["Bob"]
    # The turn's name index knows Bob: it must not keep his name once he is deleted.
    mentions = await people.mentioned_people(graph, agent, "Bob said so")
    assert [m.person_id for m in mentions] == [bob["id"]]
    assert any(name == "Bob" for _, name in kept_pairs(agent) or ())

    deleted = client.delete(f"/v1/agents/{agent}/people/{bob['id']}")

    assert deleted.status_code == 200, deleted.text
    assert deleted.json() == {"id": bob["id"], "name": "Bob", "episodes_unlinked": 1}
    assert client.get(f"/v1/agents/{agent}/people/{bob['id']}").status_code == 404
    assert set(_people(client, agent)) == {"Ann"}
    assert not any(name == "Bob" for _, name in kept_pairs(agent) or ())
    listed = client.get(f"/v1/agents/{agent}/episodes").json()
    assert sorted(e["external_id"] for e in listed) == ["e1", "e2"]
    links = await _links(test_graph, agent)
    assert links == {"Ann": (["e2"], ["ann"])}
    mentions = await people.mentioned_people(graph, agent, "Bob said so")
    assert bob["id"] not in [m.person_id for m in mentions]


def test_deleting_an_unknown_person_or_agent_is_a_404_and_writes_nothing(
    client: TestClient, agent: str
) -> None:
    kept = client.post(f"/v1/agents/{agent}/people", json={"name": "Kim"}).json()

    unknown = client.delete(f"/v1/agents/{agent}/people/no-such-person")
    no_agent = client.delete(f"/v1/agents/test-no-such-agent/people/{kept['id']}")

    assert unknown.status_code == 404
    assert unknown.json()["error"]["code"] == "person_not_found"
    assert no_agent.status_code == 404
    assert no_agent.json()["error"]["code"] == "agent_not_found"
    assert client.get(f"/v1/agents/{agent}/people/{kept['id']}").json() == kept


async def test_a_merged_person_moves_into_the_survivor(
    client: TestClient, test_graph: GraphClient, agent: str
) -> None:
    url = f"/v1/agents/{agent}/people"
    _import(
        client,
        agent,
        ("c1", "Bob", "The invoices for Acme are late."),
        ("c2", "Bob", "The invoices need approval."),
        ("i1", "Bob Jones", "Quarterly invoices are posted."),
    )
    found = _people(client, agent)
    bob, jones = found["Bob"], found["Bob Jones"]
    client.patch(
        f"{url}/{bob['id']}",
        json={"trust": 0.3, "seniority": "director", "preferences": {"tone": "brief", "a": 1}},
    )
    client.patch(
        f"{url}/{jones['id']}",
        json={
            "preferences": {"tone": "long"},
            "email": "bob@example.com",
            "context_relevance": 0.2,
        },
    )

    merged = client.post(f"{url}/{jones['id']}/merge", json={"other_id": bob["id"]})

    assert merged.status_code == 200, merged.text
    body = merged.json()
    assert (body["merged_id"], body["episodes_moved"]) == (bob["id"], 2)
    person = body["person"]
    assert (person["id"], person["name"], person["email"]) == (
        jones["id"],
        "Bob Jones",
        "bob@example.com",
    )
    # Documented combination: the survivor's values win, gaps filled from the other, counts
    # added, the relationship value's parts the higher of the two, trust the lower.
    assert person["seniority"] == "director" and person["authority"] == 0.8
    assert person["preferences"] == {"tone": "long", "a": 1}
    assert person["trust"] == 0.3
    assert person["interaction_count"] == bob["interaction_count"] + jones["interaction_count"]
    assert person["context_relevance"] == max(bob["context_relevance"], 0.2)
    assert person["relationship_value"] == pytest.approx(
        0.6 * 0.8 + 0.2 * person["interaction_frequency"] + 0.2 * person["context_relevance"]
    )
    assert client.get(f"{url}/{bob['id']}").status_code == 404
    assert set(_people(client, agent)) == {"Bob Jones"}
    links = await _links(test_graph, agent)
    assert links == {"Bob Jones": (["c1", "c2", "i1"], ["bob jones"] * 3)}
    shown = client.get(f"{url}/{jones['id']}").json()
    assert "invoic" in [t["stem"] for t in shown["topics"]]
    assert [t["count"] for t in shown["topics"] if t["stem"] == "invoic"] == [3]
    spoken = client.get(f"/v1/agents/{agent}/episodes", params={"speaker": "bob jones"}).json()
    assert len(spoken) == 3


def test_a_refused_merge_writes_nothing_and_names_the_field(
    client: TestClient, agent: str, other_agent: str
) -> None:
    url = f"/v1/agents/{agent}/people"
    ann = client.post(url, json={"name": "Ann", "preferences": {"tone": "brief"}}).json()
    bob = client.post(url, json={"name": "Bob", "seniority": "vp"}).json()
    foreign = client.post(f"/v1/agents/{other_agent}/people", json={"name": "Eve"}).json()

    itself = client.post(f"{url}/{ann['id']}/merge", json={"other_id": ann["id"]})
    unknown_other = client.post(f"{url}/{ann['id']}/merge", json={"other_id": "nobody"})
    unknown_survivor = client.post(f"{url}/nobody/merge", json={"other_id": bob["id"]})
    other_agents = client.post(f"{url}/{ann['id']}/merge", json={"other_id": foreign["id"]})
    missing = client.post(f"{url}/{ann['id']}/merge", json={})
    blank = client.post(f"{url}/{ann['id']}/merge", json={"other_id": ""})

    assert itself.status_code == 422
    assert itself.json()["error"]["details"]["errors"] == [
        {
            "location": ["body", "other_id"],
            "message": "is the person merged into",
            "type": "same_person",
        }
    ]
    for response in (unknown_other, unknown_survivor, other_agents):
        assert response.status_code == 404, response.text
        assert response.json()["error"]["code"] == "person_not_found"
    for response in (missing, blank):
        assert response.status_code == 422
        locations = [e["location"] for e in response.json()["error"]["details"]["errors"]]
        assert locations == [["body", "other_id"]]
    assert client.get(f"{url}/{ann['id']}").json() == ann
    assert client.get(f"{url}/{bob['id']}").json() == bob
    assert client.get(f"/v1/agents/{other_agent}/people/{foreign['id']}").json() == foreign


def test_delete_and_merge_declare_their_statuses(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    deletion = paths["/v1/agents/{agent_id}/people/{person_id}"]["delete"]["responses"]
    merger = paths["/v1/agents/{agent_id}/people/{person_id}/merge"]["post"]["responses"]
    assert {"200", "404", "422", "503"} <= set(deletion)
    assert {"200", "400", "404", "422", "503"} <= set(merger)


def test_people_delete_and_merge_from_the_terminal(
    cli: CliRunner, monkeypatch: pytest.MonkeyPatch, client: TestClient, agent: str
) -> None:
    monkeypatch.setenv("CREDENCE_AGENT_ID", agent)
    url = f"/v1/agents/{agent}/people"
    ann = client.post(url, json={"name": "Ann"}).json()
    ann_lee = client.post(url, json={"name": "Ann Lee"}).json()
    gone = client.post(url, json={"name": "Zed"}).json()

    refused = cli.invoke(cli_app, ["people", "delete", "Zed"], input="n\n")
    deleted = cli.invoke(cli_app, ["people", "delete", gone["id"], "--yes"])
    merged = cli.invoke(cli_app, ["people", "merge", "ann lee", "Ann"])
    itself = cli.invoke(cli_app, ["people", "merge", "Ann Lee", ann_lee["id"]])
    unknown = cli.invoke(cli_app, ["people", "delete", "Nobody", "--yes"])

    assert refused.exit_code != 0
    assert deleted.exit_code == 0, deleted.output
    assert re.search(rf"deleted person {gone['id']}: Zed", deleted.output)
    assert merged.exit_code == 0, merged.output
    assert f"merged {ann['id']} into {ann_lee['id']}" in merged.output
    assert itself.exit_code == 1 and "merged into itself" in itself.output
    assert unknown.exit_code == 1 and "person_not_found" in unknown.output
    assert set(_people(client, agent)) == {"Ann Lee"}


def test_merging_namesakes_by_name_says_which_ids_to_name(
    cli: CliRunner, monkeypatch: pytest.MonkeyPatch, client: TestClient, agent: str
) -> None:
    """A name stands for the oldest of that name: two people named alike cannot be told apart by
    it, and the CLI says which ids to name instead (it answered the merge's `same_person`)."""
    monkeypatch.setenv("CREDENCE_AGENT_ID", agent)
    url = f"/v1/agents/{agent}/people"
    first = client.post(url, json={"name": "Bob Jones"}).json()
    second = client.post(url, json={"name": "bob jones"}).json()
    assert first["id"] != second["id"]

    by_name = cli.invoke(cli_app, ["people", "merge", "Bob Jones", "Bob Jones"])
    by_id = cli.invoke(cli_app, ["people", "merge", "Bob Jones", second["id"]])

    assert by_name.exit_code == 1
    assert second["id"] in by_name.output and "name it by its id" in by_name.output
    assert by_id.exit_code == 0, by_id.output
    assert f"merged {second['id']} into {first['id']}" in by_id.output


async def test_a_merged_name_stays_an_alias_of_the_survivor(
    client: TestClient, graph: GraphClient, test_graph: GraphClient, agent: str, settings: Settings
) -> None:
    """After "Bob" is merged into "Bob Jones", the name "Bob" keeps pointing at Bob Jones: an
    import by that speaker, a turn's speaker, a look-up by name and the name index find him, and
    no new "Bob" is born."""
    url = f"/v1/agents/{agent}/people"
    _import(client, agent, ("a1", "Bob", "The invoices are late."), ("a2", "Bob Jones", "Hi."))
    found = _people(client, agent)
    bob, jones = found["Bob"], found["Bob Jones"]
    client.post(f"{url}/{jones['id']}/merge", json={"other_id": bob["id"]})

    _import(client, agent, ("a3", "bob", "The invoices are paid."))

    assert set(_people(client, agent)) == {"Bob Jones"}
    links = await _links(test_graph, agent)
    assert links == {"Bob Jones": (["a1", "a2", "a3"], ["bob jones"] * 3)}
    looked_up = await people.find_person(graph, agent, "BOB")
    assert looked_up is not None and looked_up.id == jones["id"]
    turn, _ = await read_people_and_history(graph, settings, agent, None, "Bob")
    assert [s["id"] for s in turn.speakers] == [jones["id"]]
    mentions = await people.mentioned_people(graph, agent, "Bob said so")
    assert [m.person_id for m in mentions] == [jones["id"]]


async def test_an_alias_does_not_override_a_person_of_that_name(
    client: TestClient, graph: GraphClient, test_graph: GraphClient, agent: str, settings: Settings
) -> None:
    """A person who has the name wins over a person who holds it as an alias (documented rule)."""
    url = f"/v1/agents/{agent}/people"
    jones = client.post(url, json={"name": "Bob Jones"}).json()
    bob = client.post(url, json={"name": "Bob"}).json()
    client.post(f"{url}/{jones['id']}/merge", json={"other_id": bob["id"]})
    other_bob = client.post(url, json={"name": "Bob"}).json()

    _import(client, agent, ("b1", "Bob", "Hello."))

    links = await _links(test_graph, agent)
    assert links["Bob"] == (["b1"], ["bob"])
    looked_up = await people.find_person(graph, agent, "bob")
    assert looked_up is not None and looked_up.id == other_bob["id"]
    turn, _ = await read_people_and_history(graph, settings, agent, None, "Bob")
    assert [s["id"] for s in turn.speakers] == [other_bob["id"]]


async def test_a_revision_told_to_both_merged_people_is_told_once(
    client: TestClient, test_graph: GraphClient, agent: str
) -> None:
    """Both people were told of one revision: the survivor keeps one TOLD edge, the earlier."""
    url = f"/v1/agents/{agent}/people"
    jones = client.post(url, json={"name": "Bob Jones"}).json()
    bob = client.post(url, json={"name": "Bob"}).json()
    await test_graph.write(
        "probe/tell_revision",
        agent_id=agent,
        revision_id=f"{agent}-r1",
        told=[
            {"person_id": jones["id"], "episode_id": "late", "at": "2026-01-05T00:00:00Z"},
            {"person_id": bob["id"], "episode_id": "early", "at": "2026-01-02T00:00:00Z"},
        ],
    )

    client.post(f"{url}/{jones['id']}/merge", json={"other_id": bob["id"]})

    rows = await test_graph.read("probe/told_edges", agent_id=agent)
    assert [(r["person_id"], r["episode_id"]) for r in rows] == [(jones["id"], "early")]


async def test_a_deleted_speakers_turns_do_not_match_a_later_namesake(
    client: TestClient, test_graph: GraphClient, agent: str
) -> None:
    """The deleted person's turns keep their speaker as written but no speaker key a name makes:
    a later "Bob" does not meet them as his (episodes by speaker, retrieval's speaker match)."""
    _import(client, agent, ("d1", "Bob", "The invoices are late."))
    bob = _people(client, agent)["Bob"]
    client.delete(f"/v1/agents/{agent}/people/{bob['id']}")

    _import(client, agent, ("d2", "Bob", "I am new here."))

    spoken = client.get(f"/v1/agents/{agent}/episodes", params={"speaker": "Bob"}).json()
    assert [e["external_id"] for e in spoken] == ["d2"]
    kept = client.get(f"/v1/agents/{agent}/episodes").json()
    old = next(e for e in kept if e["external_id"] == "d1")
    assert old["speaker"] == "Bob" and old["speaker_key"] != "bob"
    links = await _links(test_graph, agent)
    assert links["Bob"] == (["d2"], ["bob"])


async def test_a_revision_told_to_a_merged_name_is_told_to_the_survivor(
    client: TestClient, graph: GraphClient, test_graph: GraphClient, agent: str, clock: Clock
) -> None:
    """A turn by the alias "Bob" marks the revision told to Bob Jones (loop/revisits)."""
    url = f"/v1/agents/{agent}/people"
    jones = client.post(url, json={"name": "Bob Jones"}).json()
    bob = client.post(url, json={"name": "Bob"}).json()
    client.post(f"{url}/{jones['id']}/merge", json={"other_id": bob["id"]})
    await test_graph.write(
        "probe/tell_revision", agent_id=agent, revision_id=f"{agent}-r2", told=[]
    )

    async def work(tx: Transaction) -> None:
        await mark_told_in(tx, agent, "bob", [f"{agent}-r2"], "turn", clock.now())

    await graph.write_transaction(work, action="telling")

    rows = await test_graph.read("probe/told_edges", agent_id=agent)
    assert [(r["person_id"], r["episode_id"]) for r in rows] == [(jones["id"], "turn")]


async def test_aliases_follow_merges_and_a_key_is_one_persons(
    client: TestClient, graph: GraphClient, agent: str
) -> None:
    """A merged person's own aliases move with them; a later merge of another person of an
    aliased name takes the alias (a key is one person's alias only); deleting the holder forgets
    it."""
    url = f"/v1/agents/{agent}/people"
    jones, bob, bobby, smith, bob_again = (
        client.post(url, json={"name": name}).json()
        for name in ("Bob Jones", "Bob", "Bobby", "Bob Smith", "bob")
    )
    client.post(f"{url}/{bob['id']}/merge", json={"other_id": bobby["id"]})
    client.post(f"{url}/{jones['id']}/merge", json={"other_id": bob["id"]})

    async def holder(name: str) -> str | None:
        found = await people.find_person(graph, agent, name)
        return None if found is None else found.id

    assert await holder("Bobby") == jones["id"]
    assert await holder("bob") == bob_again["id"]  # a person of that name wins
    client.post(f"{url}/{smith['id']}/merge", json={"other_id": bob_again["id"]})
    assert await holder("bob") == smith["id"]  # the latest merge took the alias
    assert await holder("bobby") == jones["id"]
    client.delete(f"{url}/{jones['id']}")
    assert await holder("bobby") is None


def _merge_bobs(client: TestClient, agent: str) -> dict[str, Any]:
    """Bobby O merged into Bob, then Bob into Bob Jones: Bob Jones, known as both."""
    url = f"/v1/agents/{agent}/people"
    jones, bob, bobby = (
        client.post(url, json={"name": name}).json() for name in ("Bob Jones", "Bob", "Bobby O")
    )
    client.post(f"{url}/{bob['id']}/merge", json={"other_id": bobby["id"]})
    client.post(f"{url}/{jones['id']}/merge", json={"other_id": bob["id"]})
    merged: dict[str, Any] = jones
    return merged


def test_a_persons_aliases_are_shown_as_written(
    cli: CliRunner, monkeypatch: pytest.MonkeyPatch, client: TestClient, agent: str
) -> None:
    """The names merged into a person are shown as they were written: the person, the list and
    the CLI."""
    monkeypatch.setenv("CREDENCE_AGENT_ID", agent)
    jones = _merge_bobs(client, agent)

    shown = client.get(f"/v1/agents/{agent}/people/{jones['id']}").json()
    listed = _people(client, agent)
    shown_by_cli = cli.invoke(cli_app, ["people", "show", "bobby o"])

    assert shown["aliases"] == ["Bobby O", "Bob"]
    assert listed["Bob Jones"]["aliases"] == ["Bobby O", "Bob"]
    assert shown_by_cli.exit_code == 0, shown_by_cli.output
    assert "also known as: Bobby O, Bob" in shown_by_cli.output


async def test_a_mention_by_an_alias_carries_the_name_as_written(
    client: TestClient, graph: GraphClient, agent: str, settings: Settings
) -> None:
    """A mention found through an alias carries the alias as written ("Bob"), not its key."""
    jones = _merge_bobs(client, agent)

    mentions = await people.mentioned_people(graph, agent, "Bob said so")
    turn, _ = await read_people_and_history(graph, settings, agent, None, "Bobby O")

    assert [(m.name, m.person_id) for m in mentions] == [("Bob", jones["id"])]
    assert [name for pid, name in turn.names if pid == jones["id"]][1:] == ["Bobby O", "Bob"]


async def test_an_alias_is_added_and_removed_by_hand(
    client: TestClient, graph: GraphClient, test_graph: GraphClient, agent: str
) -> None:
    """An alias given by hand means the person; taken away (a mistaken merge), the name means
    nobody: a turn by it is a new person, and the survivor keeps the episodes it had."""
    url = f"/v1/agents/{agent}/people"
    _import(client, agent, ("m1", "Bob", "The invoices are late."))
    jones = client.post(url, json={"name": "Bob Jones"}).json()
    bob = _people(client, agent)["Bob"]
    client.post(f"{url}/{jones['id']}/merge", json={"other_id": bob["id"]})

    added = client.post(f"{url}/{jones['id']}/aliases", json={"name": "  Bobby   J "})
    again = client.post(f"{url}/{jones['id']}/aliases", json={"name": "bobby j"})
    found = await people.find_person(graph, agent, "BOBBY J")
    removed = client.delete(f"{url}/{jones['id']}/aliases/BOB")
    missing = client.delete(f"{url}/{jones['id']}/aliases/bob")
    _import(client, agent, ("m2", "Bob", "I am another Bob."))

    assert added.status_code == 200, added.text
    assert added.json()["aliases"] == ["Bob", "Bobby J"]
    assert again.status_code == 200 and again.json()["aliases"] == ["Bob", "Bobby J"]
    assert found is not None and found.id == jones["id"]
    assert removed.status_code == 200, removed.text
    assert removed.json()["aliases"] == ["Bobby J"]
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "alias_not_found"
    assert "'bob'" in missing.json()["error"]["message"]
    links = await _links(test_graph, agent)
    assert links["Bob Jones"] == (["m1"], ["bob jones"])
    assert links["Bob"] == (["m2"], ["bob"])
    assert _people(client, agent)["Bob"]["id"] != jones["id"]


def test_an_alias_that_means_someone_else_is_refused(client: TestClient, agent: str) -> None:
    """A name another person has, as their name or an alias, is refused with a 409 naming them;
    the person's own name is a 422 at ["body", "name"]; unknown ids are 404s; nothing written."""
    url = f"/v1/agents/{agent}/people"
    jones, ann, ann_lee = (
        client.post(url, json={"name": name}).json() for name in ("Bob Jones", "Ann", "Ann Lee")
    )
    client.post(f"{url}/{ann_lee['id']}/aliases", json={"name": "Annie"})

    by_name = client.post(f"{url}/{jones['id']}/aliases", json={"name": "ANN"})
    by_alias = client.post(f"{url}/{jones['id']}/aliases", json={"name": "annie"})
    own = client.post(f"{url}/{jones['id']}/aliases", json={"name": "bob  JONES"})
    blank = client.post(f"{url}/{jones['id']}/aliases", json={"name": " "})
    nobody = client.post(f"{url}/nobody/aliases", json={"name": "Rob"})
    no_agent = client.delete(f"/v1/agents/{agent}-none/people/{jones['id']}/aliases/Rob")

    assert by_name.status_code == 409, by_name.text
    error = by_name.json()["error"]
    assert error["code"] == "alias_taken"
    assert error["details"]["holders"] == [{"id": ann["id"], "name": "Ann"}]
    assert ann["id"] in error["message"] and "Ann" in error["message"]
    assert by_alias.status_code == 409
    assert by_alias.json()["error"]["details"]["holders"] == [
        {"id": ann_lee["id"], "name": "Ann Lee"}
    ]
    assert own.status_code == 422
    assert own.json()["error"]["details"]["errors"][0]["location"] == ["body", "name"]
    assert own.json()["error"]["details"]["errors"][0]["type"] == "own_name"
    assert blank.status_code == 422
    assert nobody.status_code == 404 and nobody.json()["error"]["code"] == "person_not_found"
    assert no_agent.status_code == 404
    assert client.get(f"{url}/{jones['id']}").json()["aliases"] == []


def test_alias_edits_declare_their_statuses(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    added = paths["/v1/agents/{agent_id}/people/{person_id}/aliases"]["post"]["responses"]
    removed = paths["/v1/agents/{agent_id}/people/{person_id}/aliases/{name}"]["delete"]
    assert {"200", "404", "409", "422", "503"} <= set(added)
    assert "alias_taken" in added["409"]["description"]
    assert {"200", "404", "422", "503"} <= set(removed["responses"])
    assert "alias_not_found" in removed["responses"]["404"]["description"]


def test_people_alias_and_unalias_from_the_terminal(
    cli: CliRunner, monkeypatch: pytest.MonkeyPatch, client: TestClient, agent: str
) -> None:
    monkeypatch.setenv("CREDENCE_AGENT_ID", agent)
    url = f"/v1/agents/{agent}/people"
    jones = client.post(url, json={"name": "Bob Jones"}).json()
    client.post(url, json={"name": "Ann"})

    added = cli.invoke(cli_app, ["people", "alias", "bob jones", "Bobby"])
    taken = cli.invoke(cli_app, ["people", "alias", "Bob Jones", "ann"])
    removed = cli.invoke(cli_app, ["people", "unalias", "bobby", "BOBBY"])
    missing = cli.invoke(cli_app, ["people", "unalias", "Bob Jones", "Bobby"])

    assert added.exit_code == 0, added.output
    assert f"Bob Jones ({jones['id']}) is also known as: Bobby" in added.output
    assert taken.exit_code == 1 and "alias_taken" in taken.output
    assert removed.exit_code == 0, removed.output
    assert "is also known as: no other name" in removed.output
    assert missing.exit_code == 1 and "alias_not_found" in missing.output


async def test_a_name_someone_has_is_not_mentioned_as_an_alias(
    client: TestClient, graph: GraphClient, agent: str, settings: Settings
) -> None:
    """A second "Bob" merged into Bob Jones leaves "bob" his alias while the first Bob has the
    name: "Bob" in a text (and a turn's names) means that Bob only (a person who has the name
    wins over an alias), not Bob Jones too."""
    url = f"/v1/agents/{agent}/people"
    bob = client.post(url, json={"name": "Bob"}).json()
    other_bob = client.post(url, json={"name": "bob"}).json()
    jones = client.post(url, json={"name": "Bob Jones"}).json()
    merged = client.post(f"{url}/{jones['id']}/merge", json={"other_id": other_bob["id"]})
    assert merged.status_code == 200, merged.text

    mentions = await people.mentioned_people(graph, agent, "I met Bob today")
    turn, _ = await read_people_and_history(graph, settings, agent, None, "Bob Jones")

    assert [m.person_id for m in mentions] == [bob["id"]]
    assert [name for pid, name in turn.names if pid == jones["id"]] == ["Bob Jones"]
    assert client.get(f"{url}/{jones['id']}").json()["aliases"] == ["bob"]


def test_a_name_or_alias_that_shows_nothing_is_refused(client: TestClient, agent: str) -> None:
    """A zero-width space is no name: a 422 naming the field, nothing written."""
    url = f"/v1/agents/{agent}/people"
    person = client.post(url, json={"name": "Dana Fox"}).json()
    for path, body in (
        (url, {"name": "\u200b"}),
        (f"{url}/{person['id']}/aliases", {"name": "\u200b\u200d"}),
    ):
        refused = client.post(path, json=body)
        assert refused.status_code == 422, refused.text
        assert refused.json()["error"]["details"]["errors"][0]["location"] == ["body", "name"]
    assert client.get(f"{url}/{person['id']}").json()["aliases"] == []
