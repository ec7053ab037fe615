"""Relevance retrieval and the context of a query (DESIGN §7).

The query is embedded once (when embeddings work); each section is one Cypher query over the
agent-scoped vector and fulltext indexes (``cypher/retrieval/``) with reciprocal-rank fusion and
the section's weighting done in the database. Sections run concurrently; one that fails is logged
and comes back empty with its error, the others still answer. Items are kept in score order
within the section's share of the frame's token budget.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from app.embeddings.embedder import Embedder
from app.errors import AgentNotFound
from app.graph.agent_scope import require_agent
from app.graph.client import GraphClient
from app.retrieval.settings import RetrievalSettings
from app.text.lucene import agent_clause, lucene_terms

log = logging.getLogger(__name__)

SectionName = Literal["beliefs", "episodes", "rules", "people", "working_memory"]
ALL_SECTIONS: tuple[SectionName, ...] = (
    "beliefs",
    "episodes",
    "rules",
    "people",
    "working_memory",
)
Mode = Literal["fused", "vector", "fulltext"]
MAX_QUERY_CHARS = 8000


class ContextRequest(BaseModel):
    q: Annotated[str, Field(min_length=1, max_length=MAX_QUERY_CHARS)]
    k: Annotated[int, Field(ge=1, le=100)] = 10
    sections: list[SectionName] = Field(default_factory=lambda: list(ALL_SECTIONS))
    mode: Mode = "fused"
    budget_tokens: Annotated[int | None, Field(ge=100, le=200_000)] = None


class Section(BaseModel):
    items: list[dict[str, Any]] = Field(default_factory=list)
    tokens: int = 0
    budget_tokens: int = 0
    dropped_for_budget: int = 0
    error: str | None = None
    ms: float = 0.0


class FrameChoice(BaseModel):
    key: str
    name: str
    budget_tokens: int


class Context(BaseModel):
    query: str
    k: int
    mode: Mode
    frame: FrameChoice | None
    budget_tokens: int
    degraded: bool
    degraded_reason: str | None = None
    sections: dict[str, Section]
    timings_ms: dict[str, float]


SectionLoader = Callable[[], Awaitable[list[dict[str, Any]]]]
# Extra sections provided by other modules (working memory): (graph, agent_id, now) -> items.
ExtraSection = Callable[[GraphClient, str, datetime], Awaitable[list[dict[str, Any]]]]
FrameChooser = Callable[[GraphClient, str, str], Awaitable[FrameChoice | None]]


def _weights(settings: RetrievalSettings, mode: Mode) -> dict[str, float]:
    return {
        "rrf_k": settings.rrf_k,
        "vector_weight": settings.vector_weight if mode != "fulltext" else 0.0,
        "fulltext_weight": settings.fulltext_weight if mode != "vector" else 0.0,
    }


def estimate_tokens(item: dict[str, Any], chars_per_token: float) -> int:
    text = " ".join(
        str(item[key])
        for key in ("statement", "text", "content", "name", "role")
        if item.get(key) is not None
    )
    contradictions = item.get("contradictions") or []
    text += " ".join(str(c.get("statement", "")) for c in contradictions)
    return max(1, round(len(text) / chars_per_token))


def fit_to_budget(
    items: list[dict[str, Any]], budget: int, chars_per_token: float
) -> tuple[list[dict[str, Any]], int, int]:
    """Items in score order while they fit in ``budget`` tokens: (kept, tokens used, dropped)."""
    kept: list[dict[str, Any]] = []
    used = 0
    for item in items:
        cost = estimate_tokens(item, chars_per_token)
        if used + cost > budget:
            continue
        kept.append(item)
        used += cost
    return kept, used, len(items) - len(kept)


def section_budgets(
    settings: RetrievalSettings, total: int, names: Sequence[str]
) -> dict[str, int]:
    shares = {
        "beliefs": settings.budget_beliefs,
        "episodes": settings.budget_episodes,
        "rules": settings.budget_rules,
        "people": settings.budget_people,
        "working_memory": settings.budget_working_memory,
    }
    chosen = {name: shares[name] for name in names}
    total_share = sum(chosen.values()) or 1.0
    return {name: int(total * share / total_share) for name, share in chosen.items()}


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
    """
    now = now or datetime.now(UTC)
    timings: dict[str, float] = {}
    started = time.perf_counter()
    embedding: list[float] | None = None
    degraded_reason: str | None = None
    if request.mode != "fulltext":
        embedding = await embedder.embed_one(request.q)
        if embedding is None:
            reason = embedder.status().reason
            degraded_reason = (
                f"no embeddings ({reason}): vector mode has nothing to search"
                if request.mode == "vector"
                else f"no embeddings ({reason}): fulltext and graph retrieval only"
            )
    timings["embed"] = (time.perf_counter() - started) * 1000
    terms = lucene_terms(request.q) if request.mode != "vector" else None

    frame: FrameChoice | None = None
    if choose_frame is not None:
        try:
            frame = await choose_frame(graph, agent_id, request.q)
        except Exception:
            log.exception("frame selection failed; using the default budget")
    budget = request.budget_tokens or (
        frame.budget_tokens if frame else settings.default_budget_tokens
    )
    wanted = list(dict.fromkeys(request.sections))
    budgets = section_budgets(settings, budget, wanted)
    weights = _weights(settings, request.mode)
    common = {
        "agent_id": agent_id,
        "agent_clause": agent_clause(agent_id),
        "embedding": embedding,
        "terms": terms,
        "candidates": max(settings.candidates, request.k),
        "k": request.k,
    }

    async def beliefs() -> list[dict[str, Any]]:
        w = {
            **weights,
            "strength_floor": settings.belief_strength_floor,
            "expand_top": settings.expand_top,
            "expansion_factor": settings.expansion_factor,
        }
        return await graph.read("retrieval/search_beliefs", w=w, **common)

    async def episodes() -> list[dict[str, Any]]:
        w = {
            **weights,
            "interference_penalty": settings.interference_penalty,
            "success_multiplier": settings.success_multiplier,
            "recency_bonus_7d": settings.recency_bonus_7d,
            "recency_bonus_30d": settings.recency_bonus_30d,
        }
        return await graph.read(
            "retrieval/search_episodes",
            w=w,
            since_7d=now - timedelta(days=7),
            since_30d=now - timedelta(days=30),
            **common,
        )

    async def rules() -> list[dict[str, Any]]:
        return await graph.read("retrieval/search_rules", w=weights, **common)

    episode_task: asyncio.Task[list[dict[str, Any]]] | None = None

    async def people() -> list[dict[str, Any]]:
        episode_ids: list[str] = []
        if episode_task is not None:
            try:
                episode_ids = [row["id"] for row in await episode_task]
            except Exception:  # the episode section reports its own failure
                episode_ids = []
        return await graph.read(
            "retrieval/search_people",
            agent_id=agent_id,
            agent_clause=agent_clause(agent_id),
            terms=lucene_terms(request.q, max_terms=16),
            episode_ids=episode_ids,
            k=request.k,
        )

    loaders: dict[str, SectionLoader] = {
        "beliefs": beliefs,
        "episodes": episodes,
        "rules": rules,
        "people": people,
    }
    for name, loader in (extra_sections or {}).items():
        loaders[name] = _bind(loader, graph, agent_id, now)

    async def timed(name: str, load: SectionLoader) -> tuple[str, Section]:
        begun = time.perf_counter()
        try:
            rows = await load()
        except AgentNotFound:
            raise
        except Exception as error:
            log.exception("context section %s failed for agent %s", name, agent_id)
            return name, Section(
                error=f"{type(error).__name__}: {error}",
                budget_tokens=budgets.get(name, 0),
                ms=(time.perf_counter() - begun) * 1000,
            )
        kept, used, dropped = fit_to_budget(rows, budgets.get(name, 0), settings.chars_per_token)
        return name, Section(
            items=kept,
            tokens=used,
            budget_tokens=budgets.get(name, 0),
            dropped_for_budget=dropped,
            ms=(time.perf_counter() - begun) * 1000,
        )

    if "episodes" in wanted:
        episode_task = asyncio.ensure_future(episodes())

        async def episodes_shared() -> list[dict[str, Any]]:
            assert episode_task is not None
            return await episode_task

        loaders["episodes"] = episodes_shared
    results = await asyncio.gather(
        *(timed(name, loaders[name]) for name in wanted if name in loaders)
    )
    sections = dict(results)
    for name in wanted:
        if name not in sections:
            sections[name] = Section(error=f"section {name!r} is not available in this process")
    if all(not section.items for section in sections.values()):
        await require_agent(graph, agent_id)
    timings.update({name: section.ms for name, section in sections.items()})
    timings["total"] = (time.perf_counter() - started) * 1000
    return Context(
        query=request.q,
        k=request.k,
        mode=request.mode,
        frame=frame,
        budget_tokens=budget,
        degraded=degraded_reason is not None,
        degraded_reason=degraded_reason,
        sections={name: sections[name] for name in wanted},
        timings_ms={name: round(ms, 2) for name, ms in timings.items()},
    )


def _bind(loader: ExtraSection, graph: GraphClient, agent_id: str, now: datetime) -> SectionLoader:
    async def load() -> list[dict[str, Any]]:
        return await loader(graph, agent_id, now)

    return load
