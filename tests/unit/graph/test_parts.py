"""A long query parameter in parts (app/graph/batches.py ``in_parts``): in order, each part
within the limit, an item over it alone, nothing left out."""

from __future__ import annotations

from app.graph.batches import in_parts


def test_items_go_in_order_in_parts_within_the_limit() -> None:
    sizes = [3, 4, 2, 9, 12, 1, 1, 5]

    parts = list(in_parts(sizes, lambda size: size, 10))

    assert parts == [[3, 4, 2], [9], [12], [1, 1, 5]]
    assert [size for part in parts for size in part] == sizes


def test_no_items_no_parts() -> None:
    assert list(in_parts([], len, 10)) == []
