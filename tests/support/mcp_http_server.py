"""A small MCP server over streamable HTTP, built with the SDK, for the tests of Credence as an
MCP client (tools as executors): ``python -m tests.support.mcp_http_server --port 8765``.

Tools: ``echo`` (read-only), ``add``, ``fail`` (answers ``isError``), ``sleep`` (holds the
call for as long as asked: a hanging server), ``repeat`` (read-only, an optional integer) and
``search`` (read-only: the documents of ``DOCUMENTS`` that share a word with the query, as a
JSON list of title, url, text, published). With ``--token T`` every request must carry
``Authorization: Bearer T`` (a header the connection's secret holds), else 401.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from typing import Any

import uvicorn
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

DOCUMENTS = [
    {
        "title": "Tide tables",
        "url": "https://tides.example/spring",
        "text": "Spring tides peak a day or two after the full and the new moon.",
        "published": "2025-03-14",
    },
    {
        "title": "Neap tides",
        "url": "https://tides.example/neap",
        "text": "Neap tides come at the first and the last quarter of the moon.",
        "published": "2025-03-15",
    },
    {
        "title": "Invoices",
        "url": "https://ledger.example/invoices",
        "text": "Supplier invoices above 10,000 need two approvals.",
        "published": "2024-11-02",
    },
]


def search_documents(query: str) -> list[dict[str, str]]:
    words = {word.strip("?.,!").lower() for word in query.split() if len(word) > 3}
    return [
        document
        for document in DOCUMENTS
        if words & {word.strip("?.,!").lower() for word in document["text"].split()}
    ]


# What the tools that write have written in this server process.
WRITES: dict[str, int] = {}


def build_server() -> MCPServer:
    server: MCPServer = MCPServer("credence-test-tools", version="1.0")

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    def echo(text: str) -> str:
        """Echoes the text back."""
        return text

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False))
    def add(a: int, b: int) -> int:
        """Adds two integers."""
        return a + b

    @server.tool()
    def fail(reason: str = "asked to fail") -> str:
        """Always fails with the reason given."""
        raise ToolError(reason)

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    async def sleep(seconds: float) -> str:
        """Waits that many seconds, then answers."""
        await asyncio.sleep(seconds)
        return f"slept {seconds}s"

    @server.tool()
    async def slow_write(seconds: float) -> str:
        """Writes (counts one more write at once), then waits that many seconds to answer: a
        tool that may destroy (no annotations) whose outcome a timeout leaves unknown."""
        WRITES["slow_write"] = WRITES.get("slow_write", 0) + 1
        await asyncio.sleep(seconds)
        return "written"

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    def writes() -> int:
        """How many times slow_write has written since the server started."""
        return WRITES.get("slow_write", 0)

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    def repeat(text: str, times: int | None = None) -> str:
        """Repeats the text the given number of times."""
        # An optional integer: ``anyOf`` in its schema, which the offline route fills with a
        # string (tests/integration/tools/test_tool_routing.py).
        return " ".join([text] * (times or 1))

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    def search(query: str) -> str:
        """Searches the documents for the query's words."""
        return json.dumps(search_documents(query))

    return server


class _BearerToken:
    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app, self.token = app, token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = dict(scope.get("headers") or [])
            if headers.get(b"authorization", b"").decode() != f"Bearer {self.token}":
                await JSONResponse({"error": "unauthorized"}, status_code=401)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def build_app(token: str | None = None) -> Any:
    app = build_server().streamable_http_app(stateless_http=True, json_response=True)
    return _BearerToken(app, token) if token else app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--token", default=None)
    arguments = parser.parse_args()
    uvicorn.run(
        build_app(arguments.token), host="127.0.0.1", port=arguments.port, log_level="warning"
    )


if __name__ == "__main__":
    main()
