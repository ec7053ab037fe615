"""Which names an agent's questions were found to say as speakers (app/retrieval/asked_people.py
``KnownSpeakers``): the presumption that lets a question's vector be embedded once."""

from __future__ import annotations

from app.retrieval.asked_people import KnownSpeakers


def test_nothing_is_known_of_an_agent_before_a_look_up() -> None:
    assert KnownSpeakers().of("agent") is None


def test_a_look_up_teaches_the_speakers_it_found_and_forgets_those_it_did_not() -> None:
    known = KnownSpeakers()

    known.record("agent", ["kate", "rome"], ["kate"])
    known.record("agent", ["tom"], ["tom"])
    assert known.of("agent") == frozenset({"kate", "tom"})

    known.record("agent", ["tom", "paris"], [])  # Tom's turns are gone
    assert known.of("agent") == frozenset({"kate"})
    assert known.of("another agent") is None


def test_it_keeps_the_agents_asked_about_most_recently_and_a_bounded_number_of_names() -> None:
    known = KnownSpeakers(agents=2, names=3)

    known.record("a", ["x"], ["x"])
    known.record("b", ["y"], ["y"])
    known.record("a", ["z"], ["z"])
    known.record("c", ["w"], ["w"])
    assert known.of("b") is None
    assert known.of("a") == frozenset({"x", "z"})

    known.record("a", ["p", "q"], ["p", "q"])  # would make four: not learned
    assert known.of("a") == frozenset({"x", "z"})


def test_the_speakers_read_at_a_first_look_up_are_presumed_until_a_look_up_says_otherwise() -> None:
    known = KnownSpeakers(names=3)
    assert not known.seen("agent")

    known.seed("agent", ["kate", "tom"])
    known.record("agent", ["kate", "rome"], ["kate"])
    assert known.seen("agent")
    assert known.of("agent") == frozenset({"kate", "tom"})

    known.record("agent", ["tom"], [])  # Tom's turns are gone
    assert known.of("agent") == frozenset({"kate"})

    known.seed("crowded", ["a", "b", "c", "d"])  # more than the names kept: none learned
    assert known.seen("crowded")
    assert known.of("crowded") is None
