"""Scripted conversations imported as episodes: ``{session: [(external_id, speaker, text), ...]}``,
the turns a minute apart from ``start`` and four to a day, in the sessions' order."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.embeddings.embedder import Embedder
from app.graph.client import GraphClient
from app.memory.episodes import EpisodeBatch, EpisodeIn, import_episodes
from app.retrieval.context import build_context
from app.retrieval.models import ContextRequest
from app.retrieval.settings import RetrievalSettings

Turn = tuple[str, str, str]


async def import_conversation(
    graph: GraphClient,
    embedder: Embedder,
    retrieval: RetrievalSettings,
    agent: str,
    sessions: Mapping[str, Sequence[Turn]],
    start: datetime,
) -> None:
    minute = 0
    for session, turns in sessions.items():
        episodes = []
        for external_id, speaker, text in turns:
            minute += 1
            episodes.append(
                EpisodeIn(
                    external_id=external_id,
                    speaker=speaker,
                    text=text,
                    session=session,
                    occurred_at=start + timedelta(days=minute // 4, minutes=minute),
                )
            )
        await import_episodes(graph, embedder, retrieval, agent, EpisodeBatch(episodes=episodes))


async def conversation_agent(
    graph: GraphClient,
    embedder: Embedder,
    retrieval: RetrievalSettings,
    name: str,
    sessions: Mapping[str, Sequence[Turn]],
    start: datetime,
) -> str:
    """A new agent called ``name`` holding ``sessions`` (``import_conversation``); its id."""
    agent = (await create_agent(graph, AgentCreate(name=name))).id
    await import_conversation(graph, embedder, retrieval, agent, sessions, start)
    return agent


async def episode_items(
    graph: GraphClient,
    embedder: Embedder,
    retrieval: RetrievalSettings,
    agent: str,
    request: ContextRequest,
) -> list[dict[str, Any]]:
    """The items of ``request``'s episodes section, in rank order (a section error fails)."""
    context = await build_context(graph, embedder, retrieval, agent, request)
    section = context.sections["episodes"]
    assert section.error is None, section.error
    return list(section.items)
