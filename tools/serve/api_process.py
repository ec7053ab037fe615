"""`credence serve` as a subprocess on a free loopback port: for the tests and the benches that need
a real server (MCP over HTTP, fuzzing the OpenAPI document, HTTP load, the process's memory).

Imported by both ``tests/`` and ``bench/`` (neither imports the other)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

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
    reasoner, no default agent (so no birth at start-up), no API keys, and ``extra``
    (CREDENCE_... = value)."""
    return {
        **os.environ,
        "CREDENCE_NEO4J_URI": settings.neo4j_uri,
        "CREDENCE_NEO4J_USER": settings.neo4j_user,
        "CREDENCE_NEO4J_PASSWORD": settings.neo4j_password.get_secret_value(),
        "CREDENCE_DEFAULT_AGENT": "",
        "CREDENCE_REASONER__PROVIDER": "offline",
        "CREDENCE_API_KEYS": "{}",
        **extra,
    }


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def running_api(env: dict[str, str], start_timeout_s: float = 180.0) -> Iterator[str]:
    """Starts the API with ``env`` and yields its base URL once /health answers; stops it after."""
    port = free_port()
    process = subprocess.Popen(
        [credence_command(), "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + start_timeout_s
        while True:
            try:
                if httpx.get(f"{base}/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                _, stderr = process.communicate()
                raise ApiDidNotStart(f"the API did not start: {stderr.decode()[-2000:]}")
            time.sleep(0.3)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=30)
