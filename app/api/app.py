"""The FastAPI application: one graph client per process, created in the lifespan."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from app import __version__
from app.agents.birth import ensure_default_agent
from app.api.errors import install_error_handlers
from app.api.routes import (
    agents,
    analytics,
    beliefs,
    censors,
    chat,
    context,
    episodes,
    health,
    packs,
    reflection,
    revisions,
)
from app.api.routes import frames as frame_routes
from app.api.routes import people as people_routes
from app.api.routes import rules as rule_routes
from app.api.routes import self_model as self_routes
from app.api.routes import working_memory as working_memory_routes
from app.config import Settings, get_settings
from app.embeddings.embedder import shared_embedder
from app.errors import CredenceError
from app.graph.client import GraphClient
from app.graph.migrations import MigrationRunner
from app.loop.services import default_executors
from app.reasoning.factory import make_reasoner

log = logging.getLogger(__name__)


def create_app(settings: Settings | None = None) -> FastAPI:
    """Builds the API. Neo4j is contacted in the lifespan, not here."""
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        graph = GraphClient.from_settings(settings.neo4j)
        app.state.graph = graph
        app.state.executors = default_executors(graph, settings)
        if settings.migrate_on_start:
            try:
                report = await MigrationRunner.with_settings(graph, settings.migrations).migrate()
                log.info(
                    "migrations: %d applied now, %d before",
                    len(report.applied),
                    len(report.already_applied),
                )
            except CredenceError as error:
                # The API still starts, so /health answers and /ready says what is wrong.
                log.error("migrations not applied at start-up: %s", error.message)
        if settings.default_agent:
            try:
                agent, born = await ensure_default_agent(
                    graph,
                    app.state.embedder,
                    settings.mechanics,
                    settings.default_agent,
                    settings.default_agent_industry,
                    memory_mechanics=settings.memory,
                )
                log.info(
                    "default agent %s: %s%s", agent.name, agent.id, " (born now)" if born else ""
                )
            except CredenceError as error:
                log.error("default agent not ready: %s", error.message)
        if settings.embeddings.preload:
            status = await asyncio.to_thread(app.state.embedder.status)
            if not status.available:
                log.warning("retrieval is degraded (no embeddings): %s", status.reason)
        try:
            yield
        finally:
            await graph.close()
            close = getattr(app.state.reasoner, "aclose", None)
            if close is not None:
                await close()

    app = FastAPI(
        title="Credence",
        version=__version__,
        lifespan=lifespan,
        description="A graph-database-native knowledge system for a Claude-driven agent.",
    )
    app.state.settings = settings
    # One model per process, loaded at start-up when preload is set (else on first use).
    app.state.embedder = shared_embedder(settings.embeddings)
    # Claude when an API key is set (the offline reasoner answers any call it fails), else offline.
    app.state.reasoner = make_reasoner(settings.reasoner, app.state.embedder)
    install_error_handlers(app)
    app.include_router(health.router)
    app.include_router(agents.router)
    app.include_router(beliefs.router)
    app.include_router(revisions.router)
    app.include_router(analytics.router)
    app.include_router(people_routes.router)
    app.include_router(frame_routes.router)
    app.include_router(working_memory_routes.router)
    app.include_router(rule_routes.router)
    app.include_router(self_routes.router)
    app.include_router(episodes.router)
    app.include_router(context.router)
    app.include_router(packs.router)
    app.include_router(chat.router)
    app.include_router(censors.router)
    app.include_router(reflection.router)
    return app
