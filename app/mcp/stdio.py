"""``credence mcp``: the server over stdio, as Claude Desktop and Claude Code launch it.

Stdout carries the protocol only; logs go to stderr.
"""

from __future__ import annotations

from app.clock import clock_starting_at
from app.config import Settings
from app.embeddings.embedder import shared_embedder
from app.graph.client import GraphClient
from app.loop.services import default_executors
from app.mcp.server import build_server
from app.mcp.services import McpServices
from app.reasoning.factory import make_reasoner


async def serve_stdio(settings: Settings, agent_id: str | None = None) -> None:
    """Serves until the client closes stdin.

    Args:
        agent_id: the agent of calls that name none (else the default agent).
    """
    graph = GraphClient.from_settings(settings.neo4j)
    clock = clock_starting_at(settings.clock_start)
    embedder = shared_embedder(settings.embeddings)
    reasoner = make_reasoner(settings.reasoner, embedder)
    services = McpServices(
        graph=graph,
        settings=settings,
        embedder=embedder,
        reasoner=reasoner,
        executors=default_executors(graph, settings, clock),
        default_agent_id=agent_id,
        clock=clock,
    )
    try:
        await build_server(lambda: services).run_stdio_async()
    finally:
        await graph.close()
        close = getattr(reasoner, "aclose", None)
        if close is not None:
            await close()
