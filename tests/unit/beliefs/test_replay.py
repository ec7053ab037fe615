"""The replay of cascade events from the inputs they record (pure: app/beliefs/replay.py)."""

from __future__ import annotations

from typing import Any

from app.beliefs.mechanics import Mechanics
from app.beliefs.replay import differences_from_stored, replay_events


def _created(seq: int, belief_id: str, strength: float) -> dict[str, Any]:
    return {
        "seq": seq,
        "belief_id": belief_id,
        "kind": "manual",
        "action": "created",
        "new_strength": strength,
        "new_tension": 0.0,
    }


def _cascade(
    seq: int, old: float, inputs: list[tuple[str, float, float]], **extra: Any
) -> dict[str, Any]:
    weighted = sum(w * s for _, s, w in inputs)
    total = sum(w for _, _, w in inputs)
    return {
        "seq": seq,
        "belief_id": "top",
        "kind": "cascade",
        "old_strength": old,
        "new_strength": weighted / total,
        "old_tension": 0.0,
        "new_tension": 0.0,
        "supporter_ids": [i for i, _, _ in inputs],
        "supporter_strengths": [s for _, s, _ in inputs],
        "supporter_weights": [w for _, _, w in inputs],
        "supporter_count": len(inputs),
        "weighted_sum": weighted,
        "weight_sum": total,
        **extra,
    }


def _stored(strength: float, supporters: list[tuple[str, float]]) -> dict[str, Any]:
    return {
        "id": "top",
        "strength": strength,
        "tension": 0.0,
        "is_active": True,
        "is_distrusted": False,
        "contexts": [],
        "supporters": [{"id": i, "weight": w} for i, w in supporters],
    }


def test_a_truncated_list_is_checked_by_its_sums_and_its_listed_supporters() -> None:
    """60 supporters, 50 listed: the mean comes from the recorded sums; the listed ones must
    match the replay; the listed ones need not add up to the sums."""
    supporters = [(f"s{i:02}", 0.5 + i / 200, 1.0) for i in range(60)]
    events = [_created(1, "top", 0.5)] + [
        _created(2 + i, s, strength) for i, (s, strength, _) in enumerate(supporters)
    ]
    full = _cascade(62, 0.5, supporters)
    listed = {key: value[:50] for key, value in full.items() if isinstance(value, list)}
    event = {**full, **listed, "supporter_count": 60}

    replay = replay_events([*events, event], Mechanics())

    assert replay.problems == [] and replay.trusted_cascades == 0
    assert replay.beliefs["top"].strength == full["new_strength"]
    # Truncated: no claim on what a later supporter move should have re-derived.
    assert replay.beliefs["top"].derived_from is None


def test_a_missed_cascade_is_not_claimed_when_the_edges_changed_without_an_event() -> None:
    events = [
        _created(1, "a", 0.9),
        _created(2, "b", 0.3),
        _created(3, "top", 0.5),
        _cascade(4, 0.5, [("a", 0.9, 1.0), ("b", 0.3, 1.0)]),
        {**_created(5, "a", 0.9), "action": "deactivated", "kind": "manual", "old_strength": 0.9},
    ]
    replay = replay_events(events, Mechanics())
    assert replay.problems == []
    stale = "top: strength 0.6 was derived at seq 4 from 2 supporter(s), which now give 0.3"

    same_edges = differences_from_stored(replay, [_stored(0.6, [("a", 1.0), ("b", 1.0)])])
    assert len(same_edges) == 1 and same_edges[0].startswith(stale)
    # An edge re-weighed, or an active supporter the cascade did not count: edges changed
    # outside the log, so the replay cannot say what the mean should be.
    assert differences_from_stored(replay, [_stored(0.6, [("a", 1.0), ("b", 0.5)])]) == []
    assert differences_from_stored(replay, [_stored(0.6, [("a", 1.0), ("c", 1.0)])]) == []


def test_an_event_without_inputs_is_trusted_and_counted() -> None:
    event = _cascade(3, 0.5, [("a", 0.9, 1.0)])
    for key in [k for k in event if k.startswith("supporter_") or k.endswith("_sum")]:
        del event[key]
    event["new_strength"] = 0.7  # whatever it says

    replay = replay_events([_created(1, "a", 0.9), _created(2, "top", 0.5), event], Mechanics())

    assert replay.problems == [] and replay.trusted_cascades == 1
    assert replay.beliefs["top"].strength == 0.7


def _edge_event(
    seq: int, action: str, supporter: str, weight: float, strength: float
) -> dict[str, Any]:
    return {
        "seq": seq,
        "belief_id": "top",
        "kind": "manual",
        "action": action,
        "old_strength": strength,
        "new_strength": strength,
        "old_tension": 0.0,
        "new_tension": 0.0,
        "supporter_id": supporter,
        "weight": weight,
    }


def test_a_reweighed_support_without_its_cascade_is_named() -> None:
    """The edge event says what the belief now rests on: the cascade that should follow a
    re-weigh (or a removal) by hand and never ran is named; with it, all is consistent."""
    events = [
        _created(1, "top", 0.5),
        _created(2, "a", 0.9),
        _created(3, "b", 0.3),
        _cascade(4, 0.5, [("a", 0.9, 1.0), ("b", 0.3, 1.0)]),
        _edge_event(5, "support_reweighed", "a", 0.5, 0.6),
    ]
    stored = _stored(0.6, [("a", 0.5), ("b", 1.0)])

    skipped = differences_from_stored(replay_events(events, Mechanics()), [stored])
    events.append(_cascade(6, 0.6, [("a", 0.9, 0.5), ("b", 0.3, 1.0)]))
    done = differences_from_stored(
        replay_events(events, Mechanics()), [{**stored, "strength": 0.75 / 1.5}]
    )
    removed = differences_from_stored(
        replay_events([*events, _edge_event(7, "support_removed", "b", 1.0, 0.5)], Mechanics()),
        [{**stored, "strength": 0.5, "supporters": [{"id": "a", "weight": 0.5}]}],
    )

    assert skipped == [
        "top: strength 0.6 should be derived from 2 supporter(s) since seq 5 "
        f"(support_reweighed), which give {0.75 / 1.5}: no cascade re-derived it"
    ]
    assert done == []
    assert removed == [
        "top: strength 0.5 should be derived from 1 supporter(s) since seq 7 "
        "(support_removed), which give 0.9: no cascade re-derived it"
    ]
