"""`credence serve` as a subprocess on a free loopback port: for the tests and the benches that need
a real server (MCP over HTTP, fuzzing the OpenAPI document, HTTP load, the process's memory).

Imported by both ``tests/`` and ``bench/`` (neither imports the other)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import httpx

from app.config import Settings


class ApiDidNotStart(RuntimeError):
    """The server exited, or did not answer /health in time (its stderr's tail in the message)."""


def credence_command() -> str:
    """The installed `credence` script next to this interpreter (what a client launches)."""
    script = Path(sys.executable).parent / "credence"
    if not script.is_file():
        raise ApiDidNotStart(f"no credence script at {script}: install the project first")
    return str(script)


def server_env(settings: Settings, **extra: str) -> dict[str, str]:
    """The environment of a server for a test or a bench: the Neo4j of ``settings``, the offline
    reasoner, no default agent (so no birth at start-up), no API keys, no scheduler (background
    work on the wall clock would touch every agent of the shared graph), and ``extra``
    (CREDENCE_... = value)."""
    return {
        **os.environ,
        "CREDENCE_NEO4J_URI": settings.neo4j_uri,
        "CREDENCE_NEO4J_USER": settings.neo4j_user,
        "CREDENCE_NEO4J_PASSWORD": settings.neo4j_password.get_secret_value(),
        "CREDENCE_DEFAULT_AGENT": "",
        "CREDENCE_REASONER__PROVIDER": "offline",
        "CREDENCE_API_KEYS": "{}",
        "CREDENCE_SCHEDULER__ENABLED": "false",
        **extra,
    }


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def running_api(
    env: dict[str, str], start_timeout_s: float = 180.0, wait_for: str = "/health"
) -> Iterator[str]:
    """Starts the API with ``env`` and yields its base URL once ``wait_for`` answers 200 (/health:
    the process serves; /ready: Neo4j reachable and migrated, the model loaded); stops it after.

    The server's stderr goes to a temporary file, not a pipe: a pipe nobody reads fills after
    64 kB of logs and then blocks the server's event loop on its next log line."""
    port = free_port()
    with tempfile.TemporaryFile() as stderr:
        process = subprocess.Popen(
            [credence_command(), "serve", "--port", str(port)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            _wait_for(process, f"{base}{wait_for}", start_timeout_s, stderr)
            yield base
        finally:
            process.terminate()
            process.wait(timeout=30)


def _wait_for(
    process: subprocess.Popen[bytes], url: str, timeout_s: float, stderr: IO[bytes]
) -> None:
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            process.wait(timeout=30)
            stderr.seek(0)
            tail = stderr.read().decode(errors="replace")[-2000:]
            raise ApiDidNotStart(f"the API did not start: {tail}")
        time.sleep(0.3)
