"""Dependencies shared by the routes, as ``Annotated`` aliases.

They are coroutines although none waits for anything: FastAPI runs a plain function dependency in
its thread pool, a thread hop per dependency per request (four for ``/context``, ~2 ms of its
time on two cores, bench/README.md).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Path, Query
from pydantic import AfterValidator
from starlette.requests import HTTPConnection

from app.api.security import authenticate, authorize_agent
from app.beliefs.mechanics import Mechanics
from app.clock import Clock
from app.common import MAX_SKIP, no_control_characters, not_blank
from app.config import Settings
from app.embeddings.embedder import Embedder
from app.graph.client import GraphClient
from app.loop.services import LoopServices
from app.reasoning.protocol import Reasoner
from app.research.services import ResearchServices
from app.research.sources.registry import SourceRegistry
from app.research.tasks import InvestigationTasks
from app.retrieval.services import RetrievalServices
from app.runtime import Runtime


async def get_settings_dep(request: HTTPConnection) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def get_runtime(request: HTTPConnection) -> Runtime:
    """The process's runtime (app/runtime.py), built once by the lifespan."""
    runtime: Runtime = request.app.state.runtime
    return runtime


async def get_graph(request: HTTPConnection) -> GraphClient:
    return get_runtime(request).graph


async def get_mechanics(request: HTTPConnection) -> Mechanics:
    settings: Settings = request.app.state.settings
    return settings.mechanics


async def get_reasoner(request: HTTPConnection) -> Reasoner:
    return get_runtime(request).reasoner


async def get_embedder(request: HTTPConnection) -> Embedder:
    return get_runtime(request).embedder


async def get_clock(request: HTTPConnection) -> Clock:
    """The process's clock (``CREDENCE_CLOCK_START``, else the system's)."""
    return get_runtime(request).clock


async def get_research_sources(request: HTTPConnection) -> SourceRegistry:
    """The process's research sources (deployments register more)."""
    return get_runtime(request).research_sources


SettingsDep = Annotated[Settings, Depends(get_settings_dep)]
SkipQuery = Annotated[int, Query(ge=0, le=MAX_SKIP, description="Items to skip (paging).")]
# Ids and names in a path: bounded at the edge, so that a malformed one is a 422 naming the
# parameter, never an error deep inside (a model or a query refusing it: a 500).
ItemId = Annotated[str, Path(min_length=1, max_length=64, description="An item's id.")]
NamePath = Annotated[str, Path(min_length=1, max_length=120, description="A name.")]
# Trimmed as chat turns and imports trim the keys they store; blank or with a control character
# it is a 422 naming it.
SessionKey = Annotated[
    str,
    Path(min_length=1, max_length=200, description="A session key."),
    AfterValidator(not_blank),
    AfterValidator(no_control_characters),
]
GraphDep = Annotated[GraphClient, Depends(get_graph)]
MechanicsDep = Annotated[Mechanics, Depends(get_mechanics)]
ReasonerDep = Annotated[Reasoner, Depends(get_reasoner)]
EmbedderDep = Annotated[Embedder, Depends(get_embedder)]
ClockDep = Annotated[Clock, Depends(get_clock)]
ResearchSourcesDep = Annotated[SourceRegistry, Depends(get_research_sources)]


async def get_allowed_agents(
    settings: SettingsDep,
    x_api_key: Annotated[
        str | None, Header(description="API key (when keys are configured)")
    ] = None,
) -> frozenset[str] | None:
    return authenticate(settings, x_api_key)


AllowedAgentsDep = Annotated[frozenset[str] | None, Depends(get_allowed_agents)]


async def get_agent_id(
    allowed: AllowedAgentsDep,
    agent_id: Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")],
) -> str:
    authorize_agent(allowed, agent_id)
    return agent_id


AgentIdDep = Annotated[str, Depends(get_agent_id)]


async def get_loop(request: HTTPConnection) -> LoopServices:
    """The process's loop services (one per process: the idle-sweep throttle holds across
    requests)."""
    return get_runtime(request).loop


LoopDep = Annotated[LoopServices, Depends(get_loop)]


async def get_retrieval(request: HTTPConnection) -> RetrievalServices:
    """Context retrieval's services (the process's, on its clock)."""
    return get_runtime(request).retrieval


RetrievalDep = Annotated[RetrievalServices, Depends(get_retrieval)]


async def get_research(request: HTTPConnection) -> ResearchServices:
    """Research mode's services (the process's)."""
    return get_runtime(request).research


async def get_research_tasks(request: HTTPConnection) -> InvestigationTasks:
    tasks: InvestigationTasks = request.app.state.research_tasks
    return tasks


ResearchDep = Annotated[ResearchServices, Depends(get_research)]
ResearchTasksDep = Annotated[InvestigationTasks, Depends(get_research_tasks)]
