"""A turn finds the agent's people its message names with an index of their names kept between
turns (app/memory/people/name_index.py): built once while the people stay the same, and never
stale: a person added or renamed through the REST API is found by the very next turn (REST,
real Neo4j, offline reasoner)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from app.memory.people.names import KnownNames
from tests.integration.loop.conftest import Agent

ZELDA = "Please remember that Zelda Quill reviews the audit on Friday"
BOTH = "Please remember that Zelda Quill and Odo Brandt review the audit on Friday"


def _present(turn: dict[str, Any]) -> set[str]:
    return {person["name"] for person in turn["memory"]["people_present"]}


def _person(agent: Agent, name: str) -> str:
    made = agent.client.post(f"/v1/agents/{agent.id}/people", json={"name": name})
    assert made.status_code == 201, made.text
    person_id: str = made.json()["id"]
    return person_id


def test_the_index_of_names_is_built_once_while_the_people_stay_the_same(
    agent: Agent, monkeypatch: pytest.MonkeyPatch
) -> None:
    zelda = _person(agent, "Zelda Quill")
    built: list[list[tuple[str, str]]] = []
    build = KnownNames.__init__

    def counted(finder: KnownNames, known: Iterable[tuple[str, str]]) -> None:
        pairs = list(known)
        built.append(pairs)
        build(finder, pairs)

    monkeypatch.setattr(KnownNames, "__init__", counted)

    # Names no one new (a new name would be micro-born: the people would change).
    turns = [agent.chat(ZELDA) for _ in range(3)]

    assert [_present(turn) for turn in turns] == [{"Zelda Quill"}] * 3
    # The agent's people indexed by the first turn only (others index a turn's own speakers).
    assert len([pairs for pairs in built if (zelda, "Zelda Quill") in pairs]) == 1


def test_a_person_added_or_renamed_through_the_api_is_found_by_the_next_turn(
    agent: Agent,
) -> None:
    zelda = _person(agent, "Zelda Quill")
    before = agent.chat(ZELDA)
    _person(agent, "Odo Brandt")
    added = agent.chat(BOTH)
    renamed = agent.client.patch(
        f"/v1/agents/{agent.id}/people/{zelda}", json={"name": "Greta Marsh"}
    )
    assert renamed.status_code == 200, renamed.text
    after_rename = agent.chat(ZELDA)
    by_new_name = agent.chat("Please remember that Greta Marsh reviews the audit on Friday")

    assert _present(before) == {"Zelda Quill"}
    assert _present(added) == {"Zelda Quill", "Odo Brandt"}
    assert _present(after_rename) == set()
    assert _present(by_new_name) == {"Greta Marsh"}
