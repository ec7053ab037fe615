"""McpClients keeps a connection's lock only while the connection has a server or someone holds
or waits for the lock: closing connections does not leave one lock per key behind."""

from __future__ import annotations

import asyncio
import sys

import pytest

from app.errors import ToolServerFailed
from app.tools.clients import McpClients, ServerSpec
from app.tools.settings import ToolSettings


def _spec(key: str) -> ServerSpec:
    # A stdio "server" that exits at once: its start fails without any network or MCP server.
    return ServerSpec(
        key=key, name="gone", transport="stdio", command=sys.executable, args=("-c", "pass")
    )


async def test_closing_a_connection_drops_its_lock() -> None:
    clients = McpClients(ToolSettings(start_timeout_s=20.0))
    for n in range(3):
        spec = _spec(f"agent-{n}/gone")
        with pytest.raises(ToolServerFailed):
            await clients.list_tools(spec)
        await clients.close(spec.key)
    assert clients._locks == {}
    await clients.aclose()


async def test_a_lock_held_while_its_connection_closes_is_dropped_on_release() -> None:
    clients = McpClients(ToolSettings())
    key = "agent/held"
    entered, release = asyncio.Event(), asyncio.Event()

    async def hold() -> None:
        async with clients._held(key):
            entered.set()
            await release.wait()

    holder = asyncio.create_task(hold())
    await asyncio.wait_for(entered.wait(), 5.0)
    await clients.close(key)
    assert key in clients._locks  # still held: kept for its holder and waiters
    release.set()
    await holder
    assert clients._locks == {}
