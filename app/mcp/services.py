"""What the MCP tools run on: the process's graph client, settings, embedder, reasoner and
executors (the API's, over HTTP; opened by ``credence mcp`` over stdio)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from app.clock import Clock, SystemClock
from app.config import Settings
from app.embeddings.embedder import Embedder
from app.graph.client import GraphClient
from app.loop.executors import ExecutorRegistry
from app.loop.guarding import Guard
from app.loop.services import LoopServices
from app.reasoning.protocol import Reasoner


@dataclass(frozen=True, slots=True)
class McpServices:
    graph: GraphClient
    settings: Settings
    embedder: Embedder
    reasoner: Reasoner
    executors: ExecutorRegistry
    # The agent a call without ``agent_id`` talks to (``credence mcp --agent``); when unset,
    # the default agent (CREDENCE_DEFAULT_AGENT).
    default_agent_id: str | None = None
    clock: Clock = field(default_factory=SystemClock)

    def loop(self) -> LoopServices:
        return LoopServices(
            graph=self.graph,
            settings=self.settings,
            reasoner=self.reasoner,
            embedder=self.embedder,
            executors=self.executors,
            guard=Guard(self.graph, self.settings.guardian),
            clock=self.clock,
        )


# Read at each call: over HTTP the graph client only exists once the API's lifespan started.
ServicesProvider = Callable[[], McpServices]
