"""``credence serve`` freezes what it imported before it serves (``freeze_startup_objects``), and
takes only a port that exists."""

from __future__ import annotations

import gc
from typing import Any

import pytest
import uvicorn
from typer.testing import CliRunner

from app.cli import servers
from app.cli.main import app
from app.config import get_settings


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


@pytest.mark.parametrize("port", ["0", "65536", "99999", "-1"])
def test_a_port_outside_1_to_65535_is_refused_before_serving(
    port: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    served: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: served.append(options))

    result = CliRunner().invoke(app, ["serve", "--port", port])

    assert result.exit_code == 2, result.output
    assert "--port" in result.output
    assert served == []


def test_the_app_is_built_for_the_address_it_is_served_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Served on 0.0.0.0 (with keys), /mcp refused every remote request as a DNS-rebinding
    guard built for CREDENCE_API_HOST's loopback default (421 "Invalid Host header")."""
    served: list[Any] = []
    monkeypatch.setenv("CREDENCE_API_KEYS", '{"admin-key": ["*"]}')
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: served.append((app, options)))
    get_settings.cache_clear()
    try:
        servers.serve(host="0.0.0.0", port=8999)
    finally:
        get_settings.cache_clear()

    [(served_app, options)] = served
    assert options["host"] == "0.0.0.0"
    assert served_app.state.settings.api_host == "0.0.0.0"
