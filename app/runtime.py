"""The composition root: one :class:`Runtime` per process, built by whatever starts the process
(the API's lifespan, ``credence mcp``, the CLI's commands) and nowhere else.

It owns what a process holds once: the graph client, the embedder, the reasoner, the executors,
the guardian's guard, the identity cache, the research sources, and per-process state such as
when each agent's idle sessions were last swept. It hands out the services the packages run on
(the loop's, research's); no other module constructs them, so a per-process rule (the idle-sweep
throttle) holds across every request of the process.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

from app.agents.identity import IdentityCache
from app.agents.store import find_default_agent
from app.clock import Clock, clock_starting_at
from app.config import Settings
from app.embeddings.embedder import Embedder, shared_embedder
from app.graph.client import GraphClient
from app.loop.background import settle_background
from app.loop.builtin_executors import WorkingMemoryExecutor
from app.loop.executors import Executor, ExecutorRegistry
from app.loop.guarding import Guard
from app.loop.pending_memories import PendingCallMemories
from app.loop.services import LoopServices
from app.reasoning.factory import make_reasoner, offline_judge
from app.reasoning.protocol import Reasoner
from app.research.services import ResearchServices
from app.research.settings import for_offline_judge
from app.research.sources.registry import SourceRegistry, build_source_registry
from app.retrieval.services import RetrievalServices
from app.scheduler.scheduler import Scheduler
from app.tools.clients import McpClients
from app.tools.executor import McpToolExecutor


def default_executors(
    graph: GraphClient,
    settings: Settings,
    clock: Clock | None = None,
    mcp_clients: McpClients | None = None,
) -> ExecutorRegistry:
    """The executors that ship with Credence: working memory, and, given the process's MCP
    clients, the tools of the agent's connected MCP servers (``call_tool``); deployments
    register more."""
    shipped: list[Executor] = [WorkingMemoryExecutor(graph, settings.memory, clock)]
    if mcp_clients is not None:
        shipped.append(McpToolExecutor(graph, mcp_clients))
    return ExecutorRegistry(shipped)


class Runtime:
    """Everything a process runs on, built once.

    Args:
        graph: the process's graph client; closed by :meth:`aclose` only when the runtime
            opened it (:meth:`open`).
        embedder, reasoner, executors, research_sources: the shipped ones when not given
            (Claude when a key is set, else the offline reasoner).
        clock: the time turns write (an instant in tests).
        monotonic: the seconds the idle-sweep throttle counts (a test's own counter).

    Raises:
        ReasonerNotConfigured: provider "claude" without an API key.
    """

    def __init__(
        self,
        settings: Settings,
        graph: GraphClient,
        *,
        embedder: Embedder | None = None,
        reasoner: Reasoner | None = None,
        executors: ExecutorRegistry | None = None,
        research_sources: SourceRegistry | None = None,
        clock: Clock | None = None,
        monotonic: Callable[[], float] | None = None,
        owns_graph: bool = False,
    ) -> None:
        self.settings = settings
        self.graph = graph
        self.embedder = embedder or shared_embedder(settings.embeddings)
        self._reasoner = reasoner or make_reasoner(settings.reasoner, self.embedder)
        # "Now" for the loop, working memory and sessions: CREDENCE_CLOCK_START, else the system's.
        self.clock: Clock = clock or clock_starting_at(settings.clock_start)
        # The MCP servers connected to agents: one session each in this process (tool calls),
        # closed by :meth:`aclose`.
        self.mcp_clients = McpClients(settings.tools)
        self.executors = executors or default_executors(
            graph, settings, self.clock, self.mcp_clients
        )
        self.research_sources = research_sources or build_source_registry(
            graph, self.embedder, settings.retrieval, self.mcp_clients
        )
        self.guard = Guard(graph, settings.guardian)
        self.identity = IdentityCache()
        self.monotonic: Callable[[], float] = monotonic or time.monotonic
        # When this process last swept each agent's idle sessions (``monotonic()`` seconds).
        self.idle_sweeps: dict[str, float] = {}
        self.call_memories = PendingCallMemories()
        self._owns_graph = owns_graph
        self._loop = self._build_loop()
        self._research = self._build_research()
        self._retrieval = RetrievalServices(graph, self.embedder, settings.retrieval, self.clock)
        # Background work between turns (docs/loop.md §14): started by the API's lifespan when
        # CREDENCE_SCHEDULER__ENABLED, by ``credence worker``; tests call its ``tick``.
        self.scheduler = Scheduler(lambda: self._loop, settings.scheduler)

    @classmethod
    def open(
        cls,
        settings: Settings,
        *,
        reasoner: Reasoner | None = None,
        clock: Clock | None = None,
        monotonic: Callable[[], float] | None = None,
    ) -> Runtime:
        """A runtime over a graph client of its own (closed by :meth:`aclose`).

        Raises:
            ReasonerNotConfigured: provider "claude" without an API key (before connecting).
        """
        embedder = shared_embedder(settings.embeddings)
        reasoner = reasoner or make_reasoner(settings.reasoner, embedder)
        # One clock for the loop and for the times the graph writes ($now in app/graph/client.py).
        clock = clock or clock_starting_at(settings.clock_start)
        graph = GraphClient.from_settings(settings.neo4j, clock=clock)
        return cls(
            settings,
            graph,
            embedder=embedder,
            reasoner=reasoner,
            clock=clock,
            monotonic=monotonic,
            owns_graph=True,
        )

    @property
    def reasoner(self) -> Reasoner:
        return self._reasoner

    @property
    def loop(self) -> LoopServices:
        """What a turn runs on (the same for every turn of the process)."""
        return self._loop

    @property
    def research(self) -> ResearchServices:
        """What an investigation's steps run on, with every registered source."""
        return self._research

    @property
    def retrieval(self) -> RetrievalServices:
        """What ``/context``, ``credence context`` and the MCP recall tools run on."""
        return self._retrieval

    def use_reasoner(self, reasoner: Reasoner) -> None:
        """Replaces the reasoner every service hands on from now (a bench's mocked Claude, a
        test's failing one); the per-process state stays."""
        self._reasoner = reasoner
        self._loop = replace(self._loop, reasoner=reasoner)
        self._research = self._build_research()

    async def default_agent_id(self) -> str | None:
        """The default agent's id (the oldest agent named CREDENCE_DEFAULT_AGENT); None when
        there is none or no default is configured."""
        return await find_default_agent(self.graph, self.settings.default_agent)

    async def aclose(self) -> None:
        """Stops the scheduler, waits for the turns' background work that must not be lost,
        then closes the MCP sessions, the graph client (when the runtime opened it) and the
        reasoner's client."""
        try:
            await self.scheduler.stop()
            # The memories of tool calls, written after their answers, are written first.
            await settle_background()
            await self.mcp_clients.aclose()
            if self._owns_graph:
                await self.graph.close()
        finally:
            close = getattr(self._reasoner, "aclose", None)
            if close is not None:
                await close()

    def _build_loop(self) -> LoopServices:
        return LoopServices(
            graph=self.graph,
            settings=self.settings,
            reasoner=self._reasoner,
            embedder=self.embedder,
            executors=self.executors,
            guard=self.guard,
            identity=self.identity,
            idle_sweeps=self.idle_sweeps,
            clock=self.clock,
            monotonic=self.monotonic,
            tool_offers=self.mcp_clients.offers,
            call_memories=self.call_memories,
        )

    def _build_research(self) -> ResearchServices:
        settings = self.settings
        return ResearchServices(
            graph=self.graph,
            reasoner=self._reasoner,
            embedder=self.embedder,
            mechanics=settings.mechanics,
            loop=settings.loop,
            retrieval=settings.retrieval,
            research=for_offline_judge(
                settings.research, offline_judge(self._reasoner).model is not None
            ),
            sources=self.research_sources,
        )
