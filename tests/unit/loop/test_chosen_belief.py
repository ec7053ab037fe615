"""The belief a turn rests on (app/loop/activation.py ``chosen_belief``): of the beliefs found by
search at or above the relevance floor, the highest relevance weighted by strength."""

from __future__ import annotations

from typing import Any

from app.loop.activation import chosen_belief

FLOOR = 0.35
STRENGTH_FLOOR = 0.5


def _item(belief_id: str, strength: float, via: str = "search") -> dict[str, Any]:
    return {"id": belief_id, "strength": strength, "via": via}


def test_the_most_relevant_belief_is_chosen_not_the_first_found() -> None:
    # The search's order (the running model's) put the close first; the relevance model reads
    # the accrual belief nearer the message.
    items = [_item("close", 0.6), _item("accrual", 0.55)]
    relevance = {"close": 0.41, "accrual": 0.62}

    assert chosen_belief(items, relevance, FLOOR, STRENGTH_FLOOR) == "accrual"


def test_strength_weighs_as_the_belief_section_weighs_it() -> None:
    # 0.50 · (0.5 + 0.5 · 1.0) = 0.50 against 0.60 · (0.5 + 0.5 · 0.4) = 0.42.
    items = [_item("weak", 0.4), _item("strong", 1.0)]
    relevance = {"weak": 0.60, "strong": 0.50}

    assert chosen_belief(items, relevance, FLOOR, STRENGTH_FLOOR) == "strong"
    assert chosen_belief(items, relevance, FLOOR, 1.0) == "weak"  # strength ignored


def test_only_beliefs_found_by_search_at_or_above_the_floor_count() -> None:
    items = [_item("linked", 1.0, via="expansion"), _item("below", 1.0), _item("at", 0.2)]
    relevance = {"linked": 0.9, "below": 0.34, "at": FLOOR}

    assert chosen_belief(items, relevance, FLOOR, STRENGTH_FLOOR) == "at"
    assert chosen_belief(items[:2], relevance, FLOOR, STRENGTH_FLOOR) is None


def test_a_tie_keeps_the_first_found() -> None:
    items = [_item("first", 0.8), _item("second", 0.8)]
    relevance = {"first": 0.5, "second": 0.5}

    assert chosen_belief(items, relevance, FLOOR, STRENGTH_FLOOR) == "first"
