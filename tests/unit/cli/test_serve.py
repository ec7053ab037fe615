"""``credence serve`` freezes what it imported before it serves (``freeze_startup_objects``)."""

from __future__ import annotations

import gc
from typing import Any

import pytest
import uvicorn

from app.cli import servers


def test_serve_freezes_the_imported_objects_before_it_serves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    frozen: list[int] = []

    def run(app: Any, **options: Any) -> None:
        frozen.append(gc.get_freeze_count())

    monkeypatch.setattr(uvicorn, "run", run)
    gc.unfreeze()
    try:
        servers.serve(host="127.0.0.1", port=8999)
    finally:
        gc.unfreeze()

    assert len(frozen) == 1
    assert frozen[0] > 10_000  # the modules, classes and functions of the app and its libraries
