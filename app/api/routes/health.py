"""Liveness and readiness."""

from __future__ import annotations

import asyncio
from typing import Literal

from fastapi import APIRouter
from pydantic import BaseModel

from app.api.deps import EmbedderDep, GraphDep, ReasonerDep
from app.graph.readiness import check_readiness
from app.reasoning.factory import offline_judge

router = APIRouter(tags=["health"])


class StanceJudgePublic(BaseModel):
    # "learned": the model shipped in the package judges stance offline; "cues": the word-cue
    # judge alone (weights missing, unreadable, checksum mismatch, or switched off).
    kind: Literal["learned", "cues"]
    # The model's version (from its manifest); null when there is no manifest.
    version: str | None
    # Why the cue judge runs alone; null with the learned judge.
    reason: str | None


class HealthPublic(BaseModel):
    status: Literal["ok"]
    # The embedding model this process runs (its vectors record it; /ready says whether it
    # loaded and on which runtime).
    embedding_model: str
    # How stance is judged without Claude (also Claude's fallback).
    stance_judge: StanceJudgePublic


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


@router.head("/health", operation_id="health_head", summary="Health (headers only)")
@router.get("/health")
async def health(reasoner: ReasonerDep, embedder: EmbedderDep) -> HealthPublic:
    """The process is up (says nothing about Neo4j), and which offline stance judge runs."""
    judge = offline_judge(reasoner)
    return HealthPublic(
        status="ok",
        embedding_model=embedder.model_id,
        stance_judge=StanceJudgePublic(
            kind="learned" if judge.model is not None else "cues",
            version=judge.version,
            reason=judge.reason,
        ),
    )


@router.head(
    "/ready",
    operation_id="ready_head",
    summary="Ready (headers only)",
    responses={503: {"description": "Neo4j unreachable or not migrated"}},
)
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
