"""What a turn runs on. Built once per process by the composition root (app/runtime.py), never
per request: the idle-sweep clock below is per-process state."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from app.agents.identity import IdentityCache
from app.clock import Clock, SystemClock
from app.embeddings.embedder import Embedder
from app.graph.client import GraphClient
from app.loop.executors import ExecutorRegistry
from app.loop.guarding import Guard
from app.loop.pending_memories import PendingCallMemories
from app.loop.settings import LoopConfig
from app.reasoning.protocol import Reasoner
from app.tools.offers import ToolOffers


@dataclass(frozen=True, slots=True)
class LoopServices:
    """What a turn runs on; one per process (app/runtime.py builds it)."""

    graph: GraphClient
    settings: LoopConfig
    reasoner: Reasoner
    embedder: Embedder
    executors: ExecutorRegistry
    guard: Guard
    # The agent's identity document, the system prompt of every Claude call of a turn.
    identity: IdentityCache = field(default_factory=IdentityCache)
    # When this process last swept each agent's idle sessions (``monotonic()`` seconds).
    idle_sweeps: dict[str, float] = field(default_factory=dict)
    # The time the turn writes (an instant in tests).
    clock: Clock = field(default_factory=SystemClock)
    # The seconds the idle-sweep throttle counts (injectable, so a test need not sleep).
    monotonic: Callable[[], float] = time.monotonic
    # The agents' connected tools, offered to the reasoner for a message that may ask for one
    # (the runtime passes its MCP clients' cache, which connecting and removing servers clear).
    tool_offers: ToolOffers = field(default_factory=ToolOffers)
    # The memories of this process's tool calls still being written, by agent (a turn waits
    # for its agent's before it activates).
    call_memories: PendingCallMemories = field(default_factory=PendingCallMemories)
