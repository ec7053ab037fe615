"""Episodes: the import of conversation logs (one per turn), and reading them back (sessions
are closed in ``sessions.py``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, status

from app.api.deps import (
    AgentIdDep,
    EmbedderDep,
    GraphDep,
    ItemId,
    SettingsDep,
    SkipQuery,
)
from app.api.openapi import ErrorResponse
from app.memory import episodes
from app.memory.episodes import EpisodeBatch, ImportReport

router = APIRouter(prefix="/v1/agents/{agent_id}", tags=["episodes"])


_TOO_LARGE: dict[int | str, dict[str, Any]] = {
    413: {
        "model": ErrorResponse,
        "description": f"The episodes carry more than {episodes.MAX_BATCH_CHARS} characters in"
        " all (speaker, text, user_message and response): split the batch; nothing was written."
        " Or the body is larger than CREDENCE_API__MAX_UPLOAD_BODY_BYTES; it was not read.",
    }
}


@router.post("/episodes", status_code=status.HTTP_201_CREATED, responses=_TOO_LARGE)
async def import_episodes(
    graph: GraphDep,
    embedder: EmbedderDep,
    settings: SettingsDep,
    agent_id: AgentIdDep,
    body: EpisodeBatch,
) -> ImportReport:
    """Import a batch of episodes (all or nothing; idempotent on external_id)."""
    return await episodes.import_episodes(
        graph, embedder, settings.retrieval, agent_id, body, memory=settings.memory
    )


@router.get("/episodes")
async def list_episodes(
    graph: GraphDep,
    agent_id: AgentIdDep,
    session: Annotated[str | None, Query(max_length=200)] = None,
    speaker: Annotated[str | None, Query(max_length=200)] = None,
    skip: SkipQuery = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> list[dict[str, Any]]:
    """The agent's episodes, newest first (of one session, of one speaker in any case)."""
    return await episodes.list_episodes(
        graph, agent_id, session=session, speaker=speaker, skip=skip, limit=limit
    )


@router.get("/episodes/{episode_id}")
async def read_episode(graph: GraphDep, agent_id: AgentIdDep, episode_id: ItemId) -> dict[str, Any]:
    """One episode with its people and the beliefs it is about."""
    return await episodes.get_episode(graph, agent_id, episode_id)
