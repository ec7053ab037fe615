"""Fixtures for tools as executors: the real API on the real Neo4j (offline reasoner), real MCP
servers (mcp-server-sqlite in .venv-mcp, mcp-server-time, the streamable-HTTP test server)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from app.config import Settings
from tests.support.agents import MakeAgent

ROOT = Path(__file__).resolve().parents[3]
SQLITE_SERVER = ROOT / ".venv-mcp" / "bin" / "mcp-server-sqlite"
TIME_SERVER = Path(sys.executable).parent / "mcp-server-time"
HTTP_TOKEN = "test-token-do-not-log"


def sqlite_server() -> Path:
    if not SQLITE_SERVER.exists():
        pytest.fail(
            f"{SQLITE_SERVER} is missing: `make install` creates .venv-mcp with mcp-server-sqlite",
            pytrace=False,
        )
    return SQLITE_SERVER


def tool_settings(settings: Settings, **tools: Any) -> Settings:
    return settings.model_copy(
        update={"tools": settings.tools.model_copy(update=tools), "default_agent": ""}
    )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def http_server() -> Iterator[str]:
    """The streamable-HTTP test server (tests/support/mcp_http_server.py), with a bearer token."""
    port = _free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.support.mcp_http_server",
            "--port",
            str(port),
            "--token",
            HTTP_TOKEN,
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/mcp"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(url, timeout=1)
            break
        except httpx.HTTPError:
            time.sleep(0.2)
    yield url
    # Calls of `sleep` may still hold it: graceful shutdown would wait for them.
    process.kill()
    process.wait(10)


@dataclass
class ToolAgent:
    client: TestClient
    id: str

    def post(self, path: str, body: dict[str, Any], expect: int = 200) -> Any:
        response = self.client.post(f"/v1/agents/{self.id}{path}", json=body)
        assert response.status_code == expect, response.text
        return response.json() if response.content else None

    def get(self, path: str, **params: Any) -> Any:
        response = self.client.get(f"/v1/agents/{self.id}{path}", params=params)
        assert response.status_code == 200, response.text
        return response.json()

    def connect_ledger(self, db: Path, name: str = "ledger") -> dict[str, Any]:
        body = {
            "name": name,
            "transport": "stdio",
            "command": str(sqlite_server()),
            "args": ["--db-path", str(db)],
        }
        added: dict[str, Any] = self.post("/connections", body, expect=201)
        return added

    def call(self, connection: str, tool: str, arguments: dict[str, Any], **extra: Any) -> Any:
        return self.post(
            "/actions", {"connection": connection, "tool": tool, "arguments": arguments, **extra}
        )

    def approve(self, approval_id: str, client: TestClient | None = None) -> Any:
        response = (client or self.client).post(
            f"/v1/agents/{self.id}/approvals/{approval_id}",
            json={"action": "approve", "speaker": "Dana"},
        )
        assert response.status_code == 200, response.text
        return response.json()


@pytest.fixture
def agent(client: TestClient, make_agent: MakeAgent) -> ToolAgent:
    """The tool tests' agent: a fresh one (``make_agent``) with short-hands over the session's
    API."""
    return ToolAgent(client, make_agent("Tool user"))
