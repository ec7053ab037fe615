"""Building the loop's services once per process (the API's lifespan, the CLI's chat)."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.agents.identity import IdentityCache, shared_identity_cache
from app.clock import Clock, SystemClock
from app.embeddings.embedder import Embedder, shared_embedder
from app.graph.client import GraphClient
from app.loop.builtin_executors import WorkingMemoryExecutor
from app.loop.executors import Executor, ExecutorRegistry
from app.loop.guarding import Guard
from app.loop.settings import LoopConfig
from app.reasoning.factory import make_reasoner
from app.reasoning.protocol import Reasoner


@dataclass(frozen=True, slots=True)
class LoopServices:
    """What a turn runs on; built once per process (the API's lifespan, the CLI)."""

    graph: GraphClient
    settings: LoopConfig
    reasoner: Reasoner
    embedder: Embedder
    executors: ExecutorRegistry
    guard: Guard
    # The agent's identity document, the system prompt of every Claude call of a turn.
    identity: IdentityCache = field(default_factory=shared_identity_cache)
    # When this process last swept each agent's idle sessions (time.monotonic()).
    idle_sweeps: dict[str, float] = field(default_factory=dict)
    # "Now" for the turn, working memory and sessions (the period-end contexts follow it).
    clock: Clock = field(default_factory=SystemClock)


def default_executors(
    graph: GraphClient, settings: LoopConfig, clock: Clock | None = None
) -> ExecutorRegistry:
    """The executors that ship with Credence (working memory); deployments register more."""
    shipped: list[Executor] = [WorkingMemoryExecutor(graph, settings.memory, clock)]
    return ExecutorRegistry(shipped)


def build_loop_services(
    graph: GraphClient,
    settings: LoopConfig,
    *,
    embedder: Embedder | None = None,
    reasoner: Reasoner | None = None,
    executors: ExecutorRegistry | None = None,
    clock: Clock | None = None,
) -> LoopServices:
    """Everything a turn runs on: Claude when a key is set (offline otherwise), the shared
    embedder, the shipped executors and the guardian.

    Raises:
        ReasonerNotConfigured: provider "claude" without an API key.
    """
    embedder = embedder or shared_embedder(settings.embeddings)
    clock = clock or SystemClock()
    return LoopServices(
        clock=clock,
        graph=graph,
        settings=settings,
        reasoner=reasoner or make_reasoner(settings.reasoner, embedder),
        embedder=embedder,
        executors=executors or default_executors(graph, settings, clock),
        guard=Guard(graph, settings.guardian),
    )
