"""The FastAPI application: one graph client per process, created in the lifespan."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import partial

from fastapi import APIRouter, Depends, FastAPI

from app import __version__
from app.agents.birth import ensure_default_agent
from app.api.body_limit import BodyLimit
from app.api.browser_cors import BrowserCors
from app.api.call_memories import AwaitCallMemories
from app.api.causality import CausalConsistency
from app.api.control_characters import refuse_control_characters
from app.api.errors import install_error_handlers
from app.api.mcp_endpoint import mount_mcp
from app.api.metrics import RequestMetrics
from app.api.metrics import router as metrics_router
from app.api.openapi import install_openapi
from app.api.query_parameters import refuse_unknown_query_parameters
from app.api.routes import (
    agents,
    analytics,
    beliefs,
    browser,
    censors,
    chat,
    context,
    episodes,
    health,
    investigations,
    packs,
    reflection,
    research_sources,
    revisions,
    tools,
)
from app.api.routes import frames as frame_routes
from app.api.routes import identity as identity_routes
from app.api.routes import people as people_routes
from app.api.routes import rules as rule_routes
from app.api.routes import self_model as self_routes
from app.api.routes import sessions as session_routes
from app.api.routes import status as status_routes
from app.api.routes import working_memory as working_memory_routes
from app.clock import Clock
from app.config import Settings, get_settings
from app.embeddings.reindex import count_by_model as vector_counts
from app.embeddings.reindex import mismatch_message
from app.errors import CredenceError
from app.graph.client import GraphClient
from app.graph.migrations import MigrationRunner
from app.loop.call_memory import interrupt_stale_calls, remember_pending_calls
from app.metrics import set_embedding_model, set_stale_vectors
from app.research.store import running_investigations
from app.research.tasks import InvestigationTasks
from app.retrieval.warm_up import warm_up_logged
from app.runtime import Runtime
from app.tools.settings_file import apply_connections_file

log = logging.getLogger(__name__)


# In this order in the OpenAPI document.
# Starlette tries each route in this order until one matches: the two routes asked most (the
# context of a query, a chat turn) come first, ~0.1 ms of matching less a request than at their
# places among the others (bench/README.md, issue 38).
ROUTERS: tuple[APIRouter, ...] = (
    health.router,
    context.router,
    chat.router,
    agents.router,
    beliefs.router,
    revisions.router,
    analytics.router,
    people_routes.router,
    frame_routes.router,
    working_memory_routes.router,
    rule_routes.router,
    self_routes.router,
    episodes.router,
    packs.router,
    censors.router,
    reflection.router,
    session_routes.router,
    status_routes.router,
    identity_routes.router,
    investigations.router,
    research_sources.router,
    tools.router,
    browser.router,
)


def create_app(
    settings: Settings | None = None,
    *,
    clock: Clock | None = None,
    monotonic: Callable[[], float] | None = None,
) -> FastAPI:
    """Builds the API. Neo4j is contacted in the lifespan, not here.

    Args:
        clock, monotonic: the runtime's time and its idle-sweep seconds (tests' own; the
            system's by default).
    """
    settings = settings or get_settings()
    app = FastAPI(
        title="Credence",
        version=__version__,
        lifespan=partial(_lifespan, settings=settings, clock=clock, monotonic=monotonic),
        description="A graph-database-native knowledge system for a Claude-driven agent.",
        # No redirect to an absolute URL built from the request (wrong behind a TLS proxy): a
        # trailing slash is a 404 naming the path without it (app/api/trailing_slash.py).
        redirect_slashes=False,
        # A body string with a control character, or a query parameter a /v1 route does not
        # take, is a 422 before the route runs.
        dependencies=[
            Depends(refuse_control_characters),
            Depends(refuse_unknown_query_parameters),
        ],
    )
    app.state.settings = settings
    # Investigations running in this process (research mode), stopped at shutdown.
    app.state.research_tasks = InvestigationTasks()
    install_error_handlers(app)
    install_openapi(app)
    for router in ROUTERS:
        app.include_router(router)
    # MCP over streamable HTTP at /mcp (app/mcp), behind the same API keys.
    app.state.mcp_server = mount_mcp(app, settings)
    # A request about an agent waits for the memories of its calls this process still writes.
    app.add_middleware(AwaitCallMemories)
    # Bookmarks in and out (X-Credence-Bookmark): read-your-writes across API processes.
    app.add_middleware(CausalConsistency)
    # Bodies over CREDENCE_API__MAX_BODY_BYTES are refused (413) before anything reads them:
    # outside authentication, routing and parsing (only the metrics count them).
    app.add_middleware(BodyLimit, limits=settings.api)
    # Neo4j Browser reads the guide and the style from its own origin (docs/browser.md).
    app.add_middleware(BrowserCors)
    if settings.metrics_enabled:
        app.include_router(metrics_router)
        app.add_middleware(RequestMetrics)
    return app


@asynccontextmanager
async def _lifespan(
    app: FastAPI,
    settings: Settings,
    clock: Clock | None = None,
    monotonic: Callable[[], float] | None = None,
) -> AsyncIterator[None]:
    """Builds the process's runtime (graph client, embedder, reasoner, executors: see
    app/runtime.py), readies the graph, and closes the runtime at shutdown."""
    # Claude when an API key is set (the offline reasoner answers any call it fails), else
    # offline; one embedding model per process, loaded at start-up when preload is set.
    runtime = Runtime.open(settings, clock=clock, monotonic=monotonic)
    app.state.runtime = runtime
    graph = runtime.graph
    if settings.migrate_on_start:
        await _migrate(graph, settings)
    if settings.default_agent:
        await _ensure_default_agent(runtime)
    await _remember_pending_calls(runtime)
    if settings.embeddings.preload:
        await _preload_embeddings(runtime)
    await _check_vector_models(runtime)
    if settings.research.resume_on_start:
        await _resume_investigations(app, runtime)
    if settings.tools.connections_file is not None:
        await _apply_connections_file(runtime)
    if settings.scheduler.enabled:
        # Background work between turns (docs/loop.md §14); stopped by runtime.aclose().
        runtime.scheduler.start()
    # The context's query plans, made while the API already answers (app/retrieval/warm_up.py).
    warming = (
        asyncio.create_task(warm_up_logged(runtime.retrieval))
        if settings.retrieval.warm_up_on_start
        else None
    )
    try:
        async with app.state.mcp_server.session_manager.run():
            yield
    finally:
        if warming is not None:
            warming.cancel()
            await asyncio.gather(warming, return_exceptions=True)
        # Each stays "running" in the graph and continues from its last step on resume.
        await app.state.research_tasks.stop_all()
        await runtime.aclose()


async def _remember_pending_calls(runtime: Runtime) -> None:
    """Writes the memories of the tool calls a stopped process answered but did not remember,
    and marks interrupted the calls it left running (app/loop/call_memory.py), before this one
    takes requests."""
    try:
        await remember_pending_calls(runtime.loop)
    except CredenceError as error:
        log.error("tool calls' memories left by a stopped process not written: %s", error.message)
    try:
        await interrupt_stale_calls(runtime.loop, runtime.clock.now())
    except CredenceError as error:
        log.error("tool calls left running by a stopped process not swept: %s", error.message)


async def _resume_investigations(app: FastAPI, runtime: Runtime) -> None:
    """Runs again, in this process, every investigation left running by one that stopped."""
    try:
        left = await running_investigations(runtime.graph)
    except CredenceError as error:
        log.error("investigations left running not resumed: %s", error.message)
        return
    services = runtime.research
    for agent_id, investigation_id in left:
        app.state.research_tasks.ensure_running(services, agent_id, investigation_id)
    if left:
        log.info("resumed %d investigation(s) left running", len(left))


async def _apply_connections_file(runtime: Runtime) -> None:
    """The deployment's connections (CREDENCE_TOOLS__CONNECTIONS_FILE): secrets into this
    process, missing connections into the graph; a server that fails is logged, not fatal."""
    settings = runtime.settings
    try:
        report = await apply_connections_file(
            runtime.graph,
            runtime.mcp_clients,
            runtime.embedder,
            settings.mechanics,
            settings.tools,
            runtime.clock,
        )
    except CredenceError as error:
        log.error("connections file not applied: %s", error.message)
        return
    for line in report:
        log.info("connections file: %s", line)


async def _migrate(graph: GraphClient, settings: Settings) -> None:
    try:
        report = await MigrationRunner.with_settings(graph, settings.migrations).migrate()
    except CredenceError as error:
        # The API still starts, so /health answers and /ready says what is wrong.
        log.error("migrations not applied at start-up: %s", error.message)
        return
    log.info(
        "migrations: %d applied now, %d before", len(report.applied), len(report.already_applied)
    )


async def _ensure_default_agent(runtime: Runtime) -> None:
    settings = runtime.settings
    try:
        agent, born = await ensure_default_agent(
            runtime.graph,
            runtime.embedder,
            settings.mechanics,
            settings.default_agent,
            settings.default_agent_industry,
            memory_mechanics=settings.memory,
        )
    except CredenceError as error:
        log.error("default agent not ready: %s", error.message)
        return
    log.info("default agent %s: %s%s", agent.name, agent.id, " (born now)" if born else "")


async def _check_vector_models(runtime: Runtime) -> None:
    """Says at start when stored vectors are of another model than the running one (their
    agents are searched without vectors until `credence embed reindex`)."""
    embedder = runtime.embedder
    set_embedding_model(embedder.model_id, None)
    try:
        counts = await vector_counts(runtime.graph)
    except CredenceError as error:
        log.warning("stored vectors not counted: %s", error.message)
        return
    stale = [count for count in counts if count.model != embedder.model_id]
    set_stale_vectors(sum(count.vectors for count in stale))
    message = mismatch_message(counts, embedder.model_id)
    if message is not None:
        log.warning("embedding model %s: %s", embedder.model_id, message)


async def _preload_embeddings(runtime: Runtime) -> None:
    status = await asyncio.to_thread(runtime.embedder.status)
    set_embedding_model(status.model, status.backend)
    if not status.available:
        log.warning("retrieval is degraded (no embeddings): %s", status.reason)
