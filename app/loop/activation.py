"""Activate, the first phase of a turn (DESIGN §6): frame, dissatisfaction, working memory and
context, the relevant belief with its strength in the turn's context, and the beliefs already at
the revision threshold. Reads only."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import numpy as np

from app.beliefs.contexts import context_chain
from app.beliefs.dissatisfaction import compute_dissatisfaction
from app.beliefs.models import Dissatisfaction
from app.embeddings.embedder import Embedder
from app.errors import AgentNotFound
from app.graph.client import GraphClient
from app.loop.models import RelevantBelief
from app.loop.settings import LoopConfig, LoopSettings
from app.memory import frames
from app.memory.frames import FrameInfo
from app.reasoning.protocol import BeliefBrief
from app.retrieval.context import build_context
from app.retrieval.models import Context, ContextRequest
from app.retrieval.sources import working_memory_items
from app.text.words import tokens


@dataclass(frozen=True, slots=True)
class Activation:
    """What a turn knows before it judges anything (:func:`activate`)."""

    agent: dict[str, Any]
    frame: str
    frame_name: str
    stakes: str
    questions_to_ask: list[str]
    dissatisfaction: Dissatisfaction
    context: Context
    context_name: str | None
    beliefs: list[BeliefBrief]
    relevance: dict[str, float]
    # The relevance floor in force (cosine, or token overlap without embeddings).
    floor: float
    relevant: RelevantBelief | None
    at_threshold: list[str]
    timings_ms: dict[str, float]


async def relevance_scores(
    embedder: Embedder, query: str, items: list[dict[str, Any]]
) -> tuple[list[float], bool]:
    """Cosine similarity of the query to each retrieved belief — computed by the retrieval query
    from the stored vectors; the model runs only for a belief still without one — or token
    overlap (Jaccard) when there are no embeddings; and whether cosine was used."""
    if not items:
        return [], True
    scores: list[float | None] = [item.get("similarity") for item in items]
    missing = [i for i, score in enumerate(scores) if score is None]
    if missing:
        vectors = await embedder.embed([query, *(items[i]["statement"] for i in missing)])
        if vectors is None:
            query_tokens = set(tokens(query))
            overlap = []
            for item in items:
                other = set(tokens(item["statement"]))
                union = query_tokens | other
                overlap.append(len(query_tokens & other) / len(union) if union else 0.0)
            return overlap, False
        matrix = np.asarray(vectors, dtype=np.float32)
        for position, score in zip(missing, matrix[1:] @ matrix[0], strict=True):
            scores[position] = float(score)
    return [float(score or 0.0) for score in scores], True


async def _remember_stored_vectors(
    graph: GraphClient, embedder: Embedder, agent_id: str, belief_ids: list[str]
) -> None:
    """Hands the retrieved beliefs' stored vectors to the embedder: judging the turn's claims
    against those statements then runs the model on the claims only."""
    if not belief_ids or not embedder.settings.enabled:
        return
    rows = await graph.read(
        "loop/get_belief_vectors",
        agent_id=agent_id,
        ids=belief_ids,
        dimensions=embedder.dimensions,
    )
    embedder.remember([row["text"] for row in rows], [row["embedding"].to_native() for row in rows])


def _temporal_context(context: Context) -> str | None:
    section = context.sections.get("working_memory")
    for item in section.items if section else []:
        if item.get("kind") == "temporal" and item.get("contexts"):
            return str(item["contexts"][0])
    return None


@dataclass(frozen=True, slots=True)
class _Start:
    """What a turn reads at once before anything else."""

    agent: dict[str, Any]
    frame: FrameInfo | None
    dissatisfaction: Dissatisfaction
    context: Context


@dataclass(frozen=True, slots=True)
class _Scored:
    """How relevant each retrieved belief is to the message, and the one the turn rests on."""

    relevance: dict[str, float]
    # The relevance floor in force (cosine, or token overlap without embeddings).
    floor: float
    chosen: str | None


async def activate(
    graph: GraphClient,
    embedder: Embedder,
    settings: LoopConfig,
    agent_id: str,
    message: str,
    context_name: str | None,
) -> Activation:
    """Everything a turn knows before it judges anything.

    Args:
        context_name: the context asked for; None takes the temporal context of working memory.

    Raises:
        AgentNotFound.
    """
    start = await _read_start(graph, embedder, settings, agent_id, message)
    context, frame = start.context, start.frame
    items = context.sections["beliefs"].items if "beliefs" in context.sections else []
    beliefs = [_brief(item) for item in items]
    await _remember_stored_vectors(graph, embedder, agent_id, [b.id for b in beliefs])
    scored = await _score(embedder, settings.loop, message, items)
    name = context_name or _temporal_context(context)
    relevant = await _relevant_in_context(graph, agent_id, beliefs, scored, name)
    threshold = settings.mechanics.revision_threshold
    return Activation(
        agent=start.agent,
        frame=frame.key if frame else "conversation",
        frame_name=frame.name if frame else "Conversation",
        stakes=frame.default_stakes if frame else "low",
        questions_to_ask=list(frame.questions_to_ask) if frame else [],
        dissatisfaction=start.dissatisfaction,
        context=context,
        context_name=name,
        beliefs=beliefs,
        relevance=scored.relevance,
        floor=scored.floor,
        relevant=relevant,
        at_threshold=[b.id for b in beliefs if b.tension >= threshold],
        timings_ms=dict(context.timings_ms),
    )


async def _read_start(
    graph: GraphClient, embedder: Embedder, settings: LoopConfig, agent_id: str, message: str
) -> _Start:
    """The agent, the frame, D and the context, read concurrently.

    Raises:
        AgentNotFound.
    """
    agent_rows, frame_choice, dissatisfaction, context = await asyncio.gather(
        graph.read("agents/get_agent_identity", agent_id=agent_id),
        frames.choose_frame(graph, agent_id, message),
        compute_dissatisfaction(graph, settings.mechanics, agent_id, top=0, count_beliefs=False),
        # The sections a turn reads: beliefs (to judge, route and answer) and working memory
        # (its temporal context decides context-conditional strengths).
        build_context(
            graph,
            embedder,
            settings.retrieval,
            agent_id,
            ContextRequest(
                q=message[:8000],
                k=settings.loop.beliefs_per_turn,
                sections=["beliefs", "working_memory"],
            ),
            extra_sections={"working_memory": working_memory_items},
        ),
    )
    if not agent_rows:
        raise AgentNotFound(agent_id)
    return _Start(agent_rows[0]["agent"], frame_choice.frame, dissatisfaction, context)


def _brief(item: dict[str, Any]) -> BeliefBrief:
    return BeliefBrief(
        id=item["id"],
        statement=item["statement"],
        strength=float(item["strength"]),
        tension=float(item["tension"] or 0.0),
        category=item.get("category") or "contextual",
    )


async def _score(
    embedder: Embedder, loop: LoopSettings, message: str, items: list[dict[str, Any]]
) -> _Scored:
    """Relevance of each retrieved belief; the chosen one is the first found by search (not
    only by its links) at or above the floor."""
    scores, cosine = await relevance_scores(embedder, message, items)
    relevance = {item["id"]: score for item, score in zip(items, scores, strict=True)}
    floor = loop.relevance_floor if cosine else loop.relevance_floor_tokens
    searched = [item["id"] for item in items if item.get("via") == "search"]
    chosen = next((bid for bid in searched if relevance.get(bid, 0.0) >= floor), None)
    return _Scored(relevance=relevance, floor=floor, chosen=chosen)


async def _relevant_in_context(
    graph: GraphClient,
    agent_id: str,
    beliefs: list[BeliefBrief],
    scored: _Scored,
    context_name: str | None,
) -> RelevantBelief | None:
    """The chosen belief with its strength in the turn's context (HOLDS_IN back-off)."""
    chosen = scored.chosen
    if chosen is None:
        return None
    row = (
        await graph.read(
            "loop/get_context_strengths",
            agent_id=agent_id,
            ids=[chosen],
            chain=context_chain(context_name),
        )
    )[0]
    return RelevantBelief(
        id=chosen,
        statement=next(b.statement for b in beliefs if b.id == chosen),
        strength=float(row["strength"]),
        default_strength=float(row["default_strength"]),
        tension=float(row["tension"] or 0.0),
        relevance=scored.relevance[chosen],
    )
