"""Liveness and readiness."""

from __future__ import annotations

import asyncio
from typing import Literal

from fastapi import APIRouter
from pydantic import BaseModel

from app.api.deps import EmbedderDep, GraphDep
from app.graph.readiness import check_readiness

router = APIRouter(tags=["health"])


class HealthPublic(BaseModel):
    status: Literal["ok"]


class EmbeddingsPublic(BaseModel):
    available: bool
    model: str
    # "onnx", "onnx-int8" or "torch"; null when unavailable.
    backend: str | None
    # Why not, when unavailable (retrieval then runs on fulltext + graph, "degraded").
    reason: str | None


class ReadyPublic(BaseModel):
    status: Literal["ok"]
    neo4j_version: str
    neo4j_edition: str
    migrations_applied: int
    embeddings: EmbeddingsPublic


@router.get("/health")
async def health() -> HealthPublic:
    """The process is up (says nothing about Neo4j)."""
    return HealthPublic(status="ok")


@router.get("/ready", responses={503: {"description": "Neo4j unreachable or not migrated"}})
async def ready(graph: GraphDep, embedder: EmbedderDep) -> ReadyPublic:
    """Neo4j is reachable and every migration is applied; says how embeddings run (their
    absence does not make the service unready: retrieval degrades to fulltext + graph)."""
    readiness = await check_readiness(graph)
    embeddings = await asyncio.to_thread(embedder.status)  # loads the model if not yet loaded
    return ReadyPublic(
        status="ok",
        neo4j_version=readiness.server.version,
        neo4j_edition=readiness.server.edition,
        migrations_applied=readiness.applied,
        embeddings=EmbeddingsPublic(
            available=embeddings.available,
            model=embeddings.model,
            backend=embeddings.backend,
            reason=embeddings.reason,
        ),
    )
