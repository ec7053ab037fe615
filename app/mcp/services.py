"""What the MCP tools run on: the process's runtime (the API's, over HTTP; opened by ``credence
mcp`` over stdio) and the agent a call without ``agent_id`` talks to."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from app.config import Settings
from app.embeddings.embedder import Embedder
from app.graph.client import GraphClient
from app.loop.services import LoopServices
from app.reasoning.protocol import Reasoner
from app.runtime import Runtime


@dataclass(frozen=True, slots=True)
class McpServices:
    runtime: Runtime
    # The agent a call without ``agent_id`` talks to (``credence mcp --agent``); when unset,
    # the default agent (CREDENCE_DEFAULT_AGENT).
    default_agent_id: str | None = None

    @property
    def graph(self) -> GraphClient:
        return self.runtime.graph

    @property
    def settings(self) -> Settings:
        return self.runtime.settings

    @property
    def embedder(self) -> Embedder:
        return self.runtime.embedder

    @property
    def reasoner(self) -> Reasoner:
        return self.runtime.reasoner

    def loop(self) -> LoopServices:
        """The process's loop services (one idle-sweep clock for every call)."""
        return self.runtime.loop


# Read at each call: over HTTP the runtime only exists once the API's lifespan started.
ServicesProvider = Callable[[], McpServices]
