"""tools/neo4j/neo4j-local tells the truth: status before start, after start, after stop.

Runs a second, small server in its own home on its own ports, so the suite's server is untouched.
Needs what the launcher needs (a JDK 21+, Maven or the jar cache).
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support.launcher import Launcher
from tests.support.neo4j_server import pinned_version
from tools.serve.api_process import free_port as _free_port

# A second Neo4j or API processes of its own: out of the quick run (-m "not slow").
pytestmark = pytest.mark.slow


@pytest.fixture
def launcher(tmp_path: Path) -> Iterator[Launcher]:
    instance = Launcher(tmp_path / "neo4j-home", _free_port(), _free_port())
    yield instance
    instance("stop")


def test_status_is_truthful_before_start_after_start_and_after_stop(launcher: Launcher) -> None:
    before = launcher("status")
    assert before.returncode == 3, before.stdout + before.stderr
    assert "stopped" in before.stdout

    started = launcher("start")
    assert started.returncode == 0, started.stdout + started.stderr
    assert f"bolt://127.0.0.1:{launcher.bolt_port}" in started.stdout
    assert f"http://127.0.0.1:{launcher.http_port}/browser/" in started.stdout

    running = launcher("status")
    assert running.returncode == 0
    assert "running (pid" in running.stdout
    assert f"version: {pinned_version()}" in running.stdout
    assert f"127.0.0.1:{launcher.bolt_port} (answering: yes)" in running.stdout

    browser = httpx.get(f"http://127.0.0.1:{launcher.http_port}/browser/", timeout=10)
    assert browser.status_code == 200
    assert "<title>Neo4j Browser</title>" in browser.text

    again = launcher("start")
    assert again.returncode == 0
    assert "already running" in again.stdout

    stopped = launcher("stop")
    assert stopped.returncode == 0 and "stopped" in stopped.stdout
    after = launcher("status")
    assert after.returncode == 3
    assert "stopped" in after.stdout


def test_a_taken_port_is_a_clear_error(tmp_path: Path) -> None:
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        taken = squatter.getsockname()[1]
        launcher = Launcher(tmp_path / "home", taken, _free_port())

        result = launcher("start")

    assert result.returncode != 0
    assert f"port {taken} on 127.0.0.1 is already taken" in result.stderr
    assert "CREDENCE_NEO4J_BOLT_PORT" in result.stderr
