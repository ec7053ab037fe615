"""The MCP client side of Credence, one per process: a session per connected server, started on
first use, kept open, restarted after it died or hung, closed at shutdown.

Each server's transport and session live in a task of their own (the SDK's transports are
context managers that must be entered and left in one task); turns call through the session
from their own tasks. Every wait has a limit (start, list, call): a slow or dead server is a
:class:`~app.errors.ToolServerFailed` with a clear message, never a hung turn. A server that
timed out or broke its transport is closed, so the next use starts it again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from app.errors import ToolServerFailed
from app.tools.offers import ToolOffers
from app.tools.settings import ToolSettings

if TYPE_CHECKING:
    # The MCP SDK (~0.4 s to import) is imported where a server is started or a tool listed,
    # so a process that connects to none (``credence status``, ...) never loads it.
    import mcp_types as types
    from mcp.client.session import ClientSession

log = logging.getLogger(__name__)
CONNECTION_TTL_S = 5.0


@dataclass(frozen=True, slots=True)
class ServerSpec:
    """How to reach one connected server, secrets included (never logged: ``repr`` hides them)."""

    key: str
    name: str
    transport: str
    command: str | None = None
    args: tuple[str, ...] = ()
    cwd: str | None = None
    url: str | None = None
    env: dict[str, str] = field(default_factory=dict, repr=False, hash=False)
    headers: dict[str, str] = field(default_factory=dict, repr=False, hash=False)

    def fingerprint(self) -> tuple[Any, ...]:
        """Changes when anything that reaches the server changes (then it is restarted)."""
        return (
            self.transport,
            self.command,
            self.args,
            self.cwd,
            self.url,
            tuple(sorted(self.env.items())),
            tuple(sorted(self.headers.items())),
        )


class SecretStore:
    """The secret values of connections (environment and header values), in this process only.

    A value the store does not hold comes from this process's environment variable of the same
    name, so a deployment can keep its secrets where it keeps its others.
    """

    def __init__(self) -> None:
        self._values: dict[tuple[str, str], tuple[dict[str, str], dict[str, str]]] = {}

    def put(self, agent_id: str, name: str, env: dict[str, str], headers: dict[str, str]) -> None:
        self._values[(agent_id, name)] = (dict(env), dict(headers))

    def forget(self, agent_id: str, name: str) -> None:
        self._values.pop((agent_id, name), None)

    def resolve(
        self, agent_id: str, name: str, env_names: list[str], header_names: list[str]
    ) -> tuple[dict[str, str], dict[str, str]]:
        env, headers = self._values.get((agent_id, name), ({}, {}))
        resolved_env = {
            key: env[key] if key in env else os.environ[key]
            for key in env_names
            if key in env or key in os.environ
        }
        resolved_headers = {
            key: headers[key] if key in headers else os.environ[key]
            for key in header_names
            if key in headers or key in os.environ
        }
        return resolved_env, resolved_headers


class _Server:
    """One running server: its transport and session in a task of their own."""

    def __init__(self, spec: ServerSpec) -> None:
        self.spec = spec
        self.session: ClientSession | None = None
        self._ready = asyncio.Event()
        self._stop = asyncio.Event()
        self._error: BaseException | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def alive(self) -> bool:
        return self._task is not None and not self._task.done() and self.session is not None

    async def start(self, timeout_s: float) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())
        try:
            await asyncio.wait_for(self._ready.wait(), timeout_s)
        except TimeoutError:
            await self.close()
            raise ToolServerFailed(
                self.spec.name, "start", f"no answer within {timeout_s:g} s"
            ) from None
        if self._error is not None or self.session is None:
            cause = self._error
            await self.close()
            raise ToolServerFailed(self.spec.name, "start", _describe(cause)) from cause

    async def _run(self) -> None:
        from mcp.client.session import ClientSession  # imported here: see TYPE_CHECKING above

        try:
            async with AsyncExitStack() as stack:
                streams = await stack.enter_async_context(self._transport(stack))
                read, write = streams[0], streams[1]
                session = await stack.enter_async_context(ClientSession(read, write))
                await session.initialize()
                self.session = session
                self._ready.set()
                await self._stop.wait()
        except Exception as error:  # reported by start(); a later death shows on the next call
            self._error = error
        finally:
            self.session = None
            self._ready.set()

    def _transport(self, stack: AsyncExitStack) -> contextlib.AbstractAsyncContextManager[Any]:
        # The SDK's transports, imported when a server starts (see TYPE_CHECKING above).
        from mcp.client.stdio import StdioServerParameters, stdio_client
        from mcp.client.streamable_http import streamable_http_client
        from mcp.shared._httpx_utils import create_mcp_http_client

        spec = self.spec
        if spec.transport == "stdio":
            errlog = stack.enter_context(open(os.devnull, "w"))  # noqa: PTH123, SIM115
            parameters = StdioServerParameters(
                command=spec.command or "",
                args=list(spec.args),
                env=spec.env or None,
                cwd=spec.cwd,
            )
            return stdio_client(parameters, errlog=errlog)
        http = create_mcp_http_client(headers=spec.headers or None)
        stack.push_async_callback(http.aclose)
        return streamable_http_client(spec.url or "", http_client=http)

    async def close(self) -> None:
        self._stop.set()
        task = self._task
        if task is None or task.done():
            return
        try:
            await asyncio.wait_for(asyncio.shield(task), 10.0)
        except (TimeoutError, Exception):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task


def _describe(error: BaseException | None) -> str:
    if error is None:
        return "the session closed"
    inner = getattr(error, "exceptions", None)
    if inner:  # an exception group from the transport's task group: its first cause speaks
        return _describe(inner[0])
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


class McpClients:
    """Sessions to the connected MCP servers of this process, by connection key."""

    def __init__(self, settings: ToolSettings) -> None:
        self.settings = settings
        self.secrets = SecretStore()
        # Stored connections read by the executor, by key, with when they were read: a call
        # reads its connection at most every ``CONNECTION_TTL_S`` (a removal in this process
        # forgets it at once; a turn never calls a removed connection's tool, whose CAN_USE
        # it reads first).
        self.connection_rows: dict[str, tuple[float, dict[str, Any]]] = {}
        # The agents' tools as turns offer them to the reasoner (app/tools/offers.py).
        self.offers = ToolOffers()
        self._servers: dict[str, _Server] = {}
        # One lock per connection key while it has a server or someone asks for it, with how
        # many hold it or wait for it: a closed connection's lock is dropped once no one does.
        self._locks: dict[str, asyncio.Lock] = {}
        self._lock_users: dict[str, int] = {}

    @contextlib.asynccontextmanager
    async def _held(self, key: str) -> AsyncIterator[None]:
        """Holds ``key``'s lock (one start of its server at a time)."""
        lock = self._locks.setdefault(key, asyncio.Lock())
        self._lock_users[key] = self._lock_users.get(key, 0) + 1
        try:
            async with lock:
                yield
        finally:
            self._lock_users[key] -= 1
            if not self._lock_users[key]:
                del self._lock_users[key]
                if key not in self._servers:  # closed while it was held
                    self._locks.pop(key, None)

    async def _session(self, spec: ServerSpec) -> ClientSession:
        async with self._held(spec.key):
            server = self._servers.get(spec.key)
            same = server is not None and server.spec.fingerprint() == spec.fingerprint()
            if server is not None and server.alive and same and server.session is not None:
                return server.session
            if server is not None:
                await server.close()
            server = _Server(spec)
            self._servers[spec.key] = server
            await server.start(self.settings.start_timeout_s)
            assert server.session is not None
            return server.session

    async def list_tools(self, spec: ServerSpec) -> list[types.Tool]:
        """Every tool the server offers (all pages).

        Raises:
            ToolServerFailed: it did not start or answer in time.
        """
        import mcp_types  # imported here: see TYPE_CHECKING above

        session = await self._session(spec)
        tools: list[types.Tool] = []
        cursor: str | None = None
        try:
            async with asyncio.timeout(self.settings.list_timeout_s):
                while True:
                    params = mcp_types.PaginatedRequestParams(cursor=cursor) if cursor else None
                    page = await session.list_tools(params=params)
                    tools += page.tools
                    cursor = page.next_cursor
                    if not cursor:
                        return tools
        except TimeoutError:
            await self.close(spec.key)
            raise ToolServerFailed(
                spec.name, "list its tools", f"no answer within {self.settings.list_timeout_s:g} s"
            ) from None
        except Exception as error:
            await self.close(spec.key)
            raise ToolServerFailed(spec.name, "list its tools", _describe(error)) from error

    async def call(
        self, spec: ServerSpec, tool: str, arguments: dict[str, Any]
    ) -> types.CallToolResult:
        """One call of ``tool``; a server that hangs past the call limit is closed.

        Raises:
            ToolServerFailed: it did not start, answer in time, or its transport broke.
        """
        session = await self._session(spec)
        limit = self.settings.call_timeout_s
        try:
            async with asyncio.timeout(limit):
                return await session.call_tool(tool, arguments)
        except TimeoutError:
            await self.close(spec.key)
            raise ToolServerFailed(
                spec.name, f"answer {tool}", f"no answer within {limit:g} s (timed out)"
            ) from None
        except Exception as error:
            await self.close(spec.key)
            raise ToolServerFailed(spec.name, f"answer {tool}", _describe(error)) from error

    def running(self) -> list[str]:
        return sorted(key for key, server in self._servers.items() if server.alive)

    async def close(self, key: str) -> None:
        self.connection_rows.pop(key, None)
        self.offers.forget(key.partition("/")[0])
        server = self._servers.pop(key, None)
        if key not in self._lock_users:
            self._locks.pop(key, None)
        if server is not None:
            await server.close()

    async def aclose(self) -> None:
        """Closes every server of this process (the lifespan's shutdown)."""
        for key in list(self._servers):
            await self.close(key)
