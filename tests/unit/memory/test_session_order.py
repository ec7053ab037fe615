"""The order of a session's episodes: new episodes appended or stitched in, the NEXT edges to add
and remove, and what each vector embeds (app/memory/session_order.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from app.memory.session_order import Placed, embedding_text, plan_order, search_text

T0 = datetime(2024, 5, 1, 10, 0, tzinfo=UTC)


def _at(minutes: int) -> datetime:
    return T0 + timedelta(minutes=minutes)


def _stored(eid: str, minutes: int, seq: int, session: str = "s") -> Placed:
    return Placed(eid, session, _at(minutes), seq, f"Ann: {eid}")


def _new(eid: str, minutes: int, position: int, session: str | None = "s") -> Placed:
    return Placed(eid, session, _at(minutes), position, f"Ann: {eid}")


def test_search_text_names_a_person_but_not_a_role() -> None:
    assert search_text("Caroline", "I went hiking.") == "Caroline: I went hiking."
    assert search_text("assistant", "Glad to help.") == "Glad to help."
    assert search_text("User", "Hi") == "Hi"
    assert search_text(None, "Hi") == "Hi"
    assert embedding_text(None, "Ann: b") == "Ann: b"
    assert embedding_text("Bob: a", "Ann: b") == "Bob: a\nAnn: b"


def test_a_new_session_is_chained_in_time_order_then_arrival() -> None:
    plan = plan_order([], [_new("b", 5, 0), _new("a", 1, 1), _new("c", 5, 2)])

    assert plan.seq == {"a": 0, "b": 1, "c": 2}
    assert plan.link == [("a", "b"), ("b", "c")] and plan.unlink == []
    assert plan.embed == {"a": "Ann: a", "b": "Ann: a\nAnn: b", "c": "Ann: b\nAnn: c"}
    assert plan.restitched(["a", "b", "c"]) == []


def test_later_episodes_are_appended_after_the_stored_ones() -> None:
    stored = [_stored("a", 0, 0), _stored("b", 1, 1)]

    plan = plan_order(stored, [_new("c", 2, 0), _new("d", 2, 1)])

    assert plan.seq == {"c": 2, "d": 3}
    assert plan.link == [("b", "c"), ("c", "d")] and plan.unlink == []
    assert plan.embed == {"c": "Ann: b\nAnn: c", "d": "Ann: c\nAnn: d"}


def test_equal_times_keep_the_order_of_arrival() -> None:
    plan = plan_order([_stored("a", 0, 0)], [_new("b", 0, 0)])

    assert plan.link == [("a", "b")]


def test_an_earlier_episode_is_stitched_in_and_its_successor_re_embedded() -> None:
    stored = [_stored("a", 0, 0), _stored("c", 10, 1)]

    plan = plan_order(stored, [_new("b", 5, 0)])

    assert plan.unlink == [("a", "c")]
    assert sorted(plan.link) == [("a", "b"), ("b", "c")]
    assert plan.embed == {"b": "Ann: a\nAnn: b", "c": "Ann: b\nAnn: c"}
    assert plan.restitched(["b"]) == ["c"]


def test_an_episode_before_the_first_becomes_the_head() -> None:
    plan = plan_order([_stored("b", 5, 0)], [_new("a", 0, 0)])

    assert plan.link == [("a", "b")] and plan.unlink == []
    assert plan.embed == {"a": "Ann: a", "b": "Ann: a\nAnn: b"}


def test_sessions_stay_apart_and_sessionless_episodes_have_no_neighbours() -> None:
    stored = [_stored("x1", 0, 0, session="x")]

    plan = plan_order(
        stored,
        [_new("y1", 1, 0, session="y"), _new("x2", 1, 1, session="x"), _new("z", 1, 2, None)],
    )

    assert plan.link == [("x1", "x2")]
    assert plan.seq == {"y1": 0, "x2": 1, "z": None}
    assert plan.embed == {"y1": "Ann: y1", "x2": "Ann: x1\nAnn: x2", "z": "Ann: z"}
