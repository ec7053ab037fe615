"""`credence demo`'s closing lines name Neo4j Browser where the launcher serves it: on ports of
one's own (CREDENCE_NEO4J_HTTP_PORT) the address printed is that port's, not 7474's."""

from __future__ import annotations

import pytest

from app.cli.demo import browser_url


def test_browser_is_on_the_launchers_http_port(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CREDENCE_NEO4J_HTTP_PORT", "7481")
    assert browser_url() == "http://127.0.0.1:7481/browser/"


def test_browser_defaults_to_7474(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CREDENCE_NEO4J_HTTP_PORT", raising=False)
    assert browser_url() == "http://127.0.0.1:7474/browser/"
