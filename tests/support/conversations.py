"""Scripted conversations imported as episodes: ``{session: [(external_id, speaker, text), ...]}``,
the turns a minute apart from ``start`` and four to a day, in the sessions' order."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

from app.embeddings.embedder import Embedder
from app.graph.client import GraphClient
from app.memory.episodes import EpisodeBatch, EpisodeIn, import_episodes
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
