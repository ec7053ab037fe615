"""Liveness and readiness."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter
from pydantic import BaseModel

from app.api.deps import GraphDep
from app.graph.readiness import check_readiness

router = APIRouter(tags=["health"])


class HealthPublic(BaseModel):
    status: Literal["ok"]


class ReadyPublic(BaseModel):
    status: Literal["ok"]
    neo4j_version: str
    neo4j_edition: str
    migrations_applied: int


@router.get("/health")
async def health() -> HealthPublic:
    """The process is up (says nothing about Neo4j)."""
    return HealthPublic(status="ok")


@router.get("/ready", responses={503: {"description": "Neo4j unreachable or not migrated"}})
async def ready(graph: GraphDep) -> ReadyPublic:
    """Neo4j is reachable and every migration is applied."""
    readiness = await check_readiness(graph)
    return ReadyPublic(
        status="ok",
        neo4j_version=readiness.server.version,
        neo4j_edition=readiness.server.edition,
        migrations_applied=readiness.applied,
    )
