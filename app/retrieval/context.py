"""Relevance retrieval and the context of a query (docs/retrieval.md).

The query is embedded once (when embeddings work); each section is one Cypher query over the
agent-scoped vector and fulltext indexes (``cypher/retrieval/``, see ``searches.py``) with
reciprocal-rank fusion and the section's weighting done in the database. Sections run
concurrently; one that fails is logged and comes back empty with its error, the others still
answer. Items are kept in score order within the section's share of the frame's token budget
(``budget.py``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import partial
from typing import Any

from app.embeddings.embedder import Embedder
from app.errors import AgentNotFound
from app.graph.agent_scope import require_agent
from app.graph.causality import InvalidBookmark, bookmarks_to_wait_for
from app.graph.client import GraphClient
from app.retrieval.asked_people import KNOWN_SPEAKERS, AskedSpeakers
from app.retrieval.budget import fit_to_budget, section_budgets
from app.retrieval.decisions import decision_items
from app.retrieval.models import (
    Context,
    ContextRequest,
    FrameChoice,
    Section,
)
from app.retrieval.request_vectors import RequestVectors
from app.retrieval.searches import QUESTION_VECTOR_SECTIONS, Rows, SectionSearch
from app.retrieval.settings import RetrievalSettings
from app.text.lucene import lucene_terms

log = logging.getLogger(__name__)

NOTHING_TO_SEARCH = "no embeddings ({reason}): vector mode has nothing to search"
GRAPH_ONLY = "no embeddings ({reason}): fulltext and graph retrieval only"
SectionLoader = Callable[[], Awaitable[list[dict[str, Any]]]]
# Extra sections provided by other modules (working memory): (graph, agent_id, now) -> items.
ExtraSection = Callable[[GraphClient, str, datetime], Awaitable[list[dict[str, Any]]]]
FrameChooser = Callable[[GraphClient, str, str], Awaitable[FrameChoice | None]]


async def build_context(
    graph: GraphClient,
    embedder: Embedder,
    settings: RetrievalSettings,
    agent_id: str,
    request: ContextRequest,
    *,
    choose_frame: FrameChooser | None = None,
    extra_sections: dict[str, ExtraSection] | None = None,
    now: datetime | None = None,
) -> Context:
    """The context of ``request.q`` for one agent.

    Raises:
        AgentNotFound: no such agent.
        InvalidBookmark: the request's X-Credence-Bookmark is not one Neo4j can read.
    """
    now = now or graph.clock.now()
    if bookmarks_to_wait_for():
        # A bookmark Neo4j cannot read (InvalidBookmark, 422) would fail the frame and every
        # section alike, each logged: find out once, first, with the agent's existence.
        await require_agent(graph, agent_id)
    started = time.perf_counter()
    wanted = list(dict.fromkeys(request.sections))
    vectors = RequestVectors(embedder.embed_one)
    unembedded = _unembedded(graph, embedder, vectors, settings, agent_id, request, now)
    built_in = _searched(wanted, extra_sections or {})
    framing = asyncio.ensure_future(_frame(choose_frame, graph, agent_id, request.q))
    ahead = _Ahead.start(unembedded, built_in, vectors)
    try:
        embedded = await _embed_query(
            embedder,
            vectors,
            request,
            ahead.also,
            alone=not built_in & QUESTION_VECTOR_SECTIONS,
        )
        timings = {"embed": _ms_since(started)}
        search = replace(
            ahead.search,
            embedding=embedded.vector,
            stripped=embedded.stripped,
            embed_question=embedded.later,
        )
        loaded = await _load_sections(search, wanted, built_in, extra_sections or {})
        frame = await framing
    finally:
        _settle([framing, *ahead.futures(), *vectors.pending()])
    budget = request.budget_tokens or (
        frame.budget_tokens if frame else settings.default_budget_tokens
    )
    budgets = section_budgets(settings, budget, wanted)
    sections = {
        name: _fitted(loaded[name], budgets.get(name, 0), settings.chars_per_token)
        for name in wanted
    }
    if all(not section.items for section in sections.values()):
        # Empty everywhere may just mean no such agent: that is an error, not an empty context.
        await require_agent(graph, agent_id)
    timings.update({name: section.ms for name, section in sections.items()})
    timings["total"] = _ms_since(started)
    return Context(
        query=request.q,
        k=request.k,
        mode=request.mode,
        frame=frame,
        budget_tokens=budget,
        degraded=embedded.degraded_reason is not None,
        degraded_reason=embedded.degraded_reason,
        sections={name: sections[name] for name in wanted},
        timings_ms={name: round(ms, 2) for name, ms in timings.items()},
    )


def _searched(wanted: Collection[str], extra_sections: dict[str, ExtraSection]) -> set[str]:
    """The built-in searches a request runs: those of its wanted sections, and the episodes'
    when it wants people, whether or not it wants the episodes (the people section holds the
    people of the episodes found: the same whatever else is asked)."""
    built_in = set(wanted) - set(extra_sections)
    return built_in | {"episodes"} if "people" in built_in else built_in


@dataclass(frozen=True, slots=True)
class _Ahead:
    """What needs no query vector, started before the query is embedded so that it runs
    meanwhile: the look-up of the speakers a question names, the lexical reads of the belief,
    rule and episode sections (the episodes' waits for the speakers: it matches without their
    names), the embedding of a long query's last lines, and the text the episodes search with
    once the speakers are known (``also``: the question without the names it says, embedded
    with the question). ``search``: the request's search with them. (The frame starts too: it
    sets only the budget, applied once the sections are read.)"""

    search: SectionSearch
    also: str | None
    early: asyncio.Future[None] | None

    @classmethod
    def start(
        cls, unembedded: SectionSearch, built_in: Collection[str], vectors: RequestVectors
    ) -> _Ahead:
        speakers = unembedded.speakers_ahead(built_in)
        with_speakers = replace(unembedded, speakers=speakers)
        search = replace(
            with_speakers,
            ahead=with_speakers.read_ahead(built_in),
            tail=with_speakers.tail_ahead(built_in),
        )
        also = search.also_embedded(built_in)
        early = _episode_vector_early(search, speakers, also, vectors, built_in)
        return cls(search, also, early)

    def futures(self) -> list[asyncio.Future[Any]]:
        """Everything started, to settle when the request ends."""
        started = (self.search.speakers, self.search.tail, self.early)
        return [*self.search.ahead.values(), *(read for read in started if read)]


def _unembedded(
    graph: GraphClient,
    embedder: Embedder,
    vectors: RequestVectors,
    settings: RetrievalSettings,
    agent_id: str,
    request: ContextRequest,
    now: datetime,
) -> SectionSearch:
    """The request's search before its query is embedded."""
    return SectionSearch(
        graph=graph,
        settings=settings,
        agent_id=agent_id,
        text=request.q,
        k=request.k,
        mode=request.mode,
        now=now,
        embedding=None,
        terms=lucene_terms(request.q) if request.mode != "vector" else None,
        embedding_model=embedder.model_id,
        embed=vectors.vector,
        presumed=KNOWN_SPEAKERS.of(agent_id),
    )


def _episode_vector_early(
    search: SectionSearch,
    speakers: asyncio.Future[AskedSpeakers] | None,
    also: str | None,
    vectors: RequestVectors,
    built_in: Collection[str],
) -> asyncio.Future[None] | None:
    """When the episodes search with the question without the names of its speakers, starts
    embedding that text as soon as the speakers are known, if it is not the one embedded first
    (``also``, else the question: the presumed speakers were not all of them, or not only):
    beside the first embedding, not after it (``request_vectors.py``). None when there is
    nothing to look up."""
    if speakers is None or not search.strips_names(built_in):
        return None
    first = also or search.text

    async def when_known() -> None:
        text = search.episode_vector_text((await speakers).names)
        if text != first:
            vectors.start(text)

    return asyncio.ensure_future(when_known())


def _settle(reads: Iterable[asyncio.Future[Any]]) -> None:
    """Cancels the reads still running (the context failed before its sections awaited them)
    and takes the failure of those that failed, so that none is left behind unretrieved."""
    for read in reads:
        if not read.done():
            read.cancel()
        elif not read.cancelled():
            read.exception()


@dataclass(frozen=True, slots=True)
class EmbeddedQuery:
    """The query's embedding (None in fulltext mode or when embeddings fail), the vector of the
    question without the names it says (``SectionSearch.also_embedded``: its text and vector,
    embedded at the same time; None when not wanted) and, when embeddings fail, why the context
    is degraded. ``later``: when ``vector`` is that of the question without the names (only
    that was embedded), what embeds the question itself if it is needed after all."""

    vector: list[float] | None
    stripped: tuple[str, list[float]] | None
    degraded_reason: str | None
    later: Callable[[], Awaitable[list[float] | None]] | None = None


async def _embed_query(
    embedder: Embedder,
    vectors: RequestVectors,
    request: ContextRequest,
    also: str | None,
    *,
    alone: bool,
) -> EmbeddedQuery:
    """The query embedded (and ``also``, another text, at the same time: each alone, as a
    batch of one, since the int8 model's vectors depend on the batch they are embedded in).
    ``alone``: no wanted section reads the question's own vector but the episodes, which search
    with ``also`` when the names it leaves out are speakers (nearly always): only ``also`` is
    embedded, the question itself later if the episodes need it (one model run instead of two
    on the request's path)."""
    if request.mode == "fulltext":
        return EmbeddedQuery(None, None, None)
    if also and alone:
        vector = await vectors.vector(also)
        if vector is not None:
            return EmbeddedQuery(vector, (also, vector), None, partial(vectors.vector, request.q))
    texts = [request.q, *([also] if also and not alone else [])]
    vector, *others = await asyncio.gather(*(vectors.vector(text) for text in texts))
    other = others[0] if others else None
    if vector is not None:
        return EmbeddedQuery(vector, (also, other) if also and other is not None else None, None)
    reason = embedder.status().reason
    if request.mode == "vector":
        return EmbeddedQuery(None, None, NOTHING_TO_SEARCH.format(reason=reason))
    return EmbeddedQuery(None, None, GRAPH_ONLY.format(reason=reason))


async def _frame(
    choose_frame: FrameChooser | None, graph: GraphClient, agent_id: str, text: str
) -> FrameChoice | None:
    """The frame chosen for the query; a chooser that fails costs only the frame's budget."""
    if choose_frame is None:
        return None
    try:
        return await choose_frame(graph, agent_id, text)
    except AgentNotFound:
        return None  # the context's own check says so, once, as the request's answer
    except Exception:
        log.exception("frame selection failed; using the default budget")
        return None


@dataclass(frozen=True, slots=True)
class Loaded:
    """A section's rows as read (before its budget), or its error, and how long it took."""

    rows: Rows
    error: str | None
    ms: float


async def _load_sections(
    search: SectionSearch,
    wanted: Sequence[str],
    searched: Collection[str],
    extra_sections: dict[str, ExtraSection],
) -> dict[str, Loaded]:
    """Every wanted section read, concurrently (``searched``: the built-in searches run, the
    episodes' for the people too, ``_searched``); one no loader provides comes back as an
    error."""
    loaders = _loaders(search, searched, extra_sections)
    results = await asyncio.gather(
        *(_load_section(search, name, loaders[name]) for name in wanted if name in loaders)
    )
    sections = dict(results)
    for name in wanted:
        if name not in sections:
            sections[name] = Loaded([], f"section {name!r} is not available in this process", 0.0)
    return sections


def _loaders(
    search: SectionSearch, searched: Collection[str], extra_sections: dict[str, ExtraSection]
) -> dict[str, SectionLoader]:
    """The loader of each section: the built-in searches, then the extra sections (which may
    replace them), except that a searched episode section is always the built-in search."""
    # The episode search starts first and runs once: its section (when wanted) and the people
    # section (the people of the episodes found, whether or not the episodes are wanted) share
    # its result.
    episodes = asyncio.ensure_future(search.episodes()) if "episodes" in searched else None
    loaders: dict[str, SectionLoader] = {
        "beliefs": search.beliefs,
        "episodes": search.episodes,
        "rules": search.rules,
        "people": partial(search.people, episodes),
        "conflicts": search.conflicts,
        "decisions": partial(
            decision_items,
            search.graph,
            search.agent_id,
            search.text,
            search.k,
            scan=search.settings.decision_scan,
        ),
    }
    for name, loader in extra_sections.items():
        loaders[name] = partial(loader, search.graph, search.agent_id, search.now)
    if episodes is not None:
        loaders["episodes"] = partial(_result_of, episodes)
    return loaders


async def _result_of(task: asyncio.Task[Rows]) -> Rows:
    return await task


async def _load_section(
    search: SectionSearch, name: str, load: SectionLoader
) -> tuple[str, Loaded]:
    """One section's rows, or its error (an unknown agent is raised)."""
    begun = time.perf_counter()
    try:
        rows = await load()
    except (AgentNotFound, InvalidBookmark):
        raise
    except Exception as error:
        log.exception("context section %s failed for agent %s", name, search.agent_id)
        return name, Loaded([], f"{type(error).__name__}: {error}", _ms_since(begun))
    return name, Loaded(rows, None, _ms_since(begun))


def _fitted(loaded: Loaded, budget: int, chars_per_token: float) -> Section:
    """A section's items kept in score order within its budget, or its error."""
    if loaded.error is not None:
        return Section(error=loaded.error, budget_tokens=budget, ms=loaded.ms)
    kept, used, dropped = fit_to_budget(loaded.rows, budget, chars_per_token)
    return Section(
        items=kept, tokens=used, budget_tokens=budget, dropped_for_budget=dropped, ms=loaded.ms
    )


def _ms_since(begun: float) -> float:
    return (time.perf_counter() - begun) * 1000
