"""The people finder kept per agent between turns (app/memory/people/name_index.py): reused
while the agent's (id, name) pairs are the same, built anew when they differ in any way."""

from __future__ import annotations

from app.memory.people.name_index import NameIndexes
from app.memory.people.names import find_mentions

PEOPLE = [("p1", "Maria Lopez"), ("p2", "Tomas Park")]
TEXT = "Maria said Tomas Park and Lena Berg would come"


def test_the_same_people_reuse_the_index_and_find_what_a_new_search_finds() -> None:
    indexes = NameIndexes()

    first = indexes.of("a1", PEOPLE)
    again = indexes.of("a1", list(PEOPLE))

    assert again is first
    assert first.mentions(TEXT) == find_mentions(TEXT, PEOPLE)


def test_any_change_to_the_people_builds_a_new_index() -> None:
    indexes = NameIndexes()
    first = indexes.of("a1", PEOPLE)
    changes = {
        "added": [*PEOPLE, ("p3", "Lena Berg")],
        "renamed": [("p1", "Maria Souza"), PEOPLE[1]],
        "removed": PEOPLE[:1],
        "reordered": PEOPLE[::-1],
        "another id": [("p9", "Maria Lopez"), PEOPLE[1]],
    }

    for change, people in changes.items():
        index = indexes.of("a1", people)
        assert index is not first, change
        assert index.mentions(TEXT) == find_mentions(TEXT, people), change
        assert indexes.of("a1", people) is index, change


def test_each_agent_has_its_own_index_and_the_least_recent_goes_first() -> None:
    indexes = NameIndexes(capacity=2)
    one = indexes.of("a1", PEOPLE)
    two = indexes.of("a2", PEOPLE)

    assert two is not one
    assert indexes.of("a1", PEOPLE) is one  # a1 read last: a2 goes when a3 comes
    indexes.of("a3", PEOPLE)
    assert indexes.of("a1", PEOPLE) is one
    assert indexes.of("a2", PEOPLE) is not two
