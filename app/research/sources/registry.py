"""The research sources of a process, by name, and one search across them.

``build_source_registry`` makes the registry Credence ships (``graph``: the agent's beliefs,
episodes and rules; ``corpus``: the documents a user loaded); deployments and tests
``register`` more. ``search_all`` asks every source (or the named ones) concurrently and returns
their passages tagged with the source, interleaved rank by rank (scores of different sources do
not compare), without repeats of the same (kind, ref). A source that fails is reported beside
the passages, not raised: one broken source does not stop an investigation's search; so is
each part of a source that failed (``tools/<connection>.<tool>``: one marked tool).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Iterable, Sequence

from pydantic import BaseModel, Field

from app.embeddings.embedder import Embedder
from app.errors import AgentNotFound, ResearchSourceNameTaken, UnknownResearchSource
from app.graph.agent_scope import require_agent
from app.graph.client import GraphClient
from app.research.sources.corpus import CorpusSource
from app.research.sources.graph_source import GraphSource
from app.research.sources.protocol import (
    Passage,
    ResearchSource,
    SourceAnswer,
    failure_text,
)
from app.research.sources.tool_source import ToolSearchSource
from app.retrieval.settings import RetrievalSettings
from app.tools.clients import McpClients

log = logging.getLogger(__name__)

DEFAULT_LIMIT_PER_SOURCE = 5


class SourcedPassage(Passage):
    """A passage with the name of the source that found it."""

    source: str


class SourceSearch(BaseModel):
    """What a search across sources found, and which sources failed (name → why; a part of a
    source that failed alone, ``<source>/<part>`` → why)."""

    query: str
    sources: list[str] = Field(description="The sources asked, in order.")
    passages: list[SourcedPassage]
    failures: dict[str, str] = Field(default_factory=dict)


class SourceRegistry:
    """Research sources by unique name, in registration order."""

    def __init__(self, sources: Iterable[ResearchSource] = ()) -> None:
        self._sources: dict[str, ResearchSource] = {}
        for source in sources:
            self.register(source)

    def register(self, source: ResearchSource, *, replace: bool = False) -> None:
        """Adds ``source`` under its name.

        Raises:
            ResearchSourceNameTaken: the name is taken (and ``replace`` is false).
        """
        if source.name in self._sources and not replace:
            raise ResearchSourceNameTaken(source.name)
        self._sources[source.name] = source

    def unregister(self, name: str) -> None:
        """Removes the source called ``name`` (nothing when there is none)."""
        self._sources.pop(name, None)

    def names(self) -> list[str]:
        return list(self._sources)

    def get(self, name: str) -> ResearchSource:
        """The source called ``name``.

        Raises:
            UnknownResearchSource: no source has that name.
        """
        if name not in self._sources:
            raise UnknownResearchSource([name], self.names())
        return self._sources[name]

    def select(self, names: Sequence[str] | None = None) -> list[ResearchSource]:
        """The named sources (all when ``names`` is None or empty), each once, in order.

        Raises:
            UnknownResearchSource: some names are not registered (all of them listed).
        """
        if not names:
            return list(self._sources.values())
        unknown = [name for name in dict.fromkeys(names) if name not in self._sources]
        if unknown:
            raise UnknownResearchSource(unknown, self.names())
        return [self._sources[name] for name in dict.fromkeys(names)]

    async def search_all(
        self,
        agent_id: str,
        query: str,
        limit_per_source: int = DEFAULT_LIMIT_PER_SOURCE,
        *,
        sources: Sequence[str] | None = None,
    ) -> SourceSearch:
        """Asks the sources (all, or those named) for at most ``limit_per_source`` passages
        each about ``query`` and merges them: rank by rank in source order, the first of each
        (kind, ref) kept.

        Raises:
            UnknownResearchSource: a named source is not registered.
            AgentNotFound: no such agent (as a source reports it).
        """
        chosen = self.select(sources)
        results = await asyncio.gather(
            *(source.search(agent_id, query, limit=limit_per_source) for source in chosen),
            return_exceptions=True,
        )
        found: list[list[SourcedPassage]] = []
        failures: dict[str, str] = {}
        for source, result in zip(chosen, results, strict=True):
            if isinstance(result, AgentNotFound):
                raise result
            if isinstance(result, BaseException):
                if not isinstance(result, Exception):
                    raise result
                log.warning("research source %s failed: %s", source.name, result)
                failures[source.name] = failure_text(result)
                found.append([])
                continue
            if isinstance(result, SourceAnswer):
                # Each part that failed while others answered, named "<source>/<part>".
                for part, why in result.failed_parts.items():
                    failures[f"{source.name}/{part}"] = why
                result = result.passages
            found.append(
                [
                    SourcedPassage(**passage.model_dump(), source=source.name)
                    for passage in result[:limit_per_source]
                ]
            )
        return SourceSearch(
            query=query,
            sources=[source.name for source in chosen],
            passages=_interleave(found),
            failures=failures,
        )


def _interleave(per_source: list[list[SourcedPassage]]) -> list[SourcedPassage]:
    merged: list[SourcedPassage] = []
    seen: set[tuple[str, str]] = set()
    for rank in itertools.zip_longest(*per_source):
        for passage in rank:
            if passage is None or (passage.kind, passage.ref) in seen:
                continue
            seen.add((passage.kind, passage.ref))
            merged.append(passage)
    return merged


def build_source_registry(
    graph: GraphClient,
    embedder: Embedder,
    retrieval: RetrievalSettings | None = None,
    clients: McpClients | None = None,
) -> SourceRegistry:
    """The sources Credence ships: ``graph`` (beliefs, episodes, rules), ``corpus`` (the
    loaded documents) and, given the process's MCP sessions, ``tools`` (the connected tools
    marked as search sources), over the process's graph client and embedder."""
    sources: list[ResearchSource] = [
        GraphSource(graph, embedder, retrieval),
        CorpusSource(graph, embedder, retrieval),
    ]
    if clients is not None:
        sources.append(ToolSearchSource(graph, clients))
    return SourceRegistry(sources)


async def search_agent_sources(
    graph: GraphClient,
    registry: SourceRegistry,
    agent_id: str,
    query: str,
    limit_per_source: int = DEFAULT_LIMIT_PER_SOURCE,
    *,
    sources: Sequence[str] | None = None,
) -> SourceSearch:
    """``registry.search_all`` for an agent that must exist (what the REST search answers).

    Raises:
        UnknownResearchSource: a named source is not registered.
        AgentNotFound: no such agent.
    """
    registry.select(sources)
    await require_agent(graph, agent_id)
    return await registry.search_all(agent_id, query, limit_per_source, sources=sources)
