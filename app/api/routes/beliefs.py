"""Beliefs, their evidence and outcomes, edges, dissatisfaction, events and the graph view."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, status

from app.api.deps import (
    AgentIdDep,
    EmbedderDep,
    GraphDep,
    ItemId,
    MechanicsDep,
    ReasonerDep,
    SkipQuery,
)
from app.beliefs import edges, history, store, updates, writes
from app.beliefs.dissatisfaction import compute_dissatisfaction
from app.beliefs.explain import MAX_DEPTH, BeliefExplanation, explain_belief
from app.beliefs.models import (
    Belief,
    BeliefCreate,
    BeliefDetail,
    BeliefPage,
    BeliefUpdate,
    ContextName,
    Dissatisfaction,
    EdgeCreate,
    EdgeRemoved,
    EdgeResult,
    EvidenceBatch,
    EvidenceForBelief,
    EvidenceIn,
    EvidenceOutcome,
    OutcomeIn,
    OutcomeResult,
)
from app.beliefs.replay import ConsistencyReport, check_consistency
from app.common import Category

router = APIRouter(prefix="/v1/agents/{agent_id}", tags=["beliefs"])

BeliefId = ItemId


@router.get("/beliefs")
async def list_beliefs(
    graph: GraphDep,
    agent_id: AgentIdDep,
    category: Category | None = None,
    active: Annotated[bool, Query(description="true: active beliefs; false: inactive")] = True,
    min_tension: Annotated[float | None, Query(ge=0, le=1)] = None,
    text: Annotated[str | None, Query(min_length=1, max_length=200)] = None,
    invalidated: Annotated[
        bool | None,
        Query(
            description="true: only the beliefs that need attention (strength below their "
            "category's invalidation threshold); false: only valid ones"
        ),
    ] = None,
    sort: Literal["newest", "tension"] = "newest",
    skip: SkipQuery = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> BeliefPage:
    """List beliefs (filters: category, active, min tension, text in the statement, invalidated)."""
    return await store.list_beliefs(
        graph,
        agent_id,
        category=category,
        active=active,
        min_tension=min_tension,
        text=text,
        invalidated=invalidated,
        sort=sort,
        skip=skip,
        limit=limit,
    )


@router.post("/beliefs", status_code=status.HTTP_201_CREATED)
async def create_belief(
    graph: GraphDep,
    mechanics: MechanicsDep,
    embedder: EmbedderDep,
    agent_id: AgentIdDep,
    body: BeliefCreate,
) -> Belief:
    """Create a belief (with context-conditional strengths); its vector is stored before the
    response."""
    return await writes.create_belief(graph, mechanics, embedder, agent_id, body)


@router.get("/beliefs/{belief_id}")
async def read_belief(
    graph: GraphDep,
    mechanics: MechanicsDep,
    agent_id: AgentIdDep,
    belief_id: BeliefId,
    context: ContextName | None = None,
    history_limit: Annotated[int, Query(ge=0, le=1000)] = 50,
) -> BeliefDetail:
    """One belief with evidence, events, lineage, edges and its strength in a context."""
    return await store.get_belief(graph, mechanics, agent_id, belief_id, context, history_limit)


@router.get(
    "/beliefs/{belief_id}/explanation",
    responses={
        401: {"description": "API keys are configured and the X-API-Key is missing or unknown"},
        403: {"description": "the API key does not reach this agent"},
        404: {"description": "no such belief for this agent"},
        422: {"description": "a query parameter is out of range (named in the message)"},
    },
)
async def explain(
    graph: GraphDep,
    mechanics: MechanicsDep,
    agent_id: AgentIdDep,
    belief_id: BeliefId,
    context: ContextName | None = None,
    depth: Annotated[int, Query(ge=1, le=MAX_DEPTH, description="SUPPORTS hops")] = 3,
    limit: Annotated[int, Query(ge=1, le=200)] = 20,
) -> BeliefExplanation:
    """Why the agent holds a belief: its SUPPORTS chain with weights, evidence for and against
    (with sources), open contradictions, revision lineage and recent events."""
    return await explain_belief(
        graph, mechanics, agent_id, belief_id, context=context, depth=depth, limit=limit
    )


@router.patch("/beliefs/{belief_id}")
async def update_belief(
    graph: GraphDep,
    mechanics: MechanicsDep,
    embedder: EmbedderDep,
    agent_id: AgentIdDep,
    belief_id: BeliefId,
    body: BeliefUpdate,
) -> Belief:
    """Edit statement or importance, deactivate, or set the supervision mode."""
    return await writes.update_belief(graph, mechanics, embedder, agent_id, belief_id, body)


@router.post("/beliefs/{belief_id}/evidence")
async def add_evidence(
    graph: GraphDep,
    mechanics: MechanicsDep,
    reasoner: ReasonerDep,
    embedder: EmbedderDep,
    agent_id: AgentIdDep,
    belief_id: BeliefId,
    body: EvidenceIn,
) -> EvidenceOutcome:
    """Apply one piece of evidence; revises beliefs that reach the tension threshold."""
    item = EvidenceForBelief(belief_id=belief_id, **body.model_dump())
    return await writes.record_evidence(graph, mechanics, reasoner, embedder, agent_id, [item])


@router.post("/evidence")
async def add_evidence_batch(
    graph: GraphDep,
    mechanics: MechanicsDep,
    reasoner: ReasonerDep,
    embedder: EmbedderDep,
    agent_id: AgentIdDep,
    body: EvidenceBatch,
) -> EvidenceOutcome:
    """Apply many pieces of evidence in one transaction (all or nothing), then revise."""
    return await writes.record_evidence(graph, mechanics, reasoner, embedder, agent_id, body.items)


@router.post("/beliefs/{belief_id}/outcome")
async def add_outcome(
    graph: GraphDep,
    mechanics: MechanicsDep,
    agent_id: AgentIdDep,
    belief_id: BeliefId,
    body: OutcomeIn,
) -> OutcomeResult:
    """Apply an outcome with moral asymmetry (optionally in a context), then cascade."""
    return await updates.apply_outcome(graph, mechanics, agent_id, belief_id, body)


@router.post("/edges")
async def create_edge(
    graph: GraphDep, mechanics: MechanicsDep, agent_id: AgentIdDep, body: EdgeCreate
) -> EdgeResult:
    """Create a SUPPORTS edge (409 if it closes a cycle) or record/resolve a CONTRADICTS pair."""
    return await edges.create_edge(graph, mechanics, agent_id, body)


@router.delete("/edges/supports/{source_id}/{target_id}")
async def delete_supports_edge(
    graph: GraphDep,
    mechanics: MechanicsDep,
    agent_id: AgentIdDep,
    source_id: BeliefId,
    target_id: BeliefId,
) -> EdgeRemoved:
    """Remove a SUPPORTS edge by hand (404 if there is none): an event on its target, which is
    re-derived from the supporters it has left."""
    return await edges.delete_supports(graph, mechanics, agent_id, source_id, target_id)


@router.get("/dissatisfaction")
async def dissatisfaction(
    graph: GraphDep,
    mechanics: MechanicsDep,
    agent_id: AgentIdDep,
    top: Annotated[int, Query(ge=0, le=100)] = 5,
) -> Dissatisfaction:
    """Dissatisfaction D, its band and its largest contributors."""
    return await compute_dissatisfaction(graph, mechanics, agent_id, top)


@router.get("/events")
async def events(
    graph: GraphDep,
    agent_id: AgentIdDep,
    belief_id: str | None = None,
    after_seq: Annotated[int, Query(ge=0, le=2**62)] = 0,
    limit: Annotated[int, Query(ge=1, le=5000)] = 200,
) -> history.EventPage:
    """Belief events in sequence order (strength and tension changes, revisions, edits)."""
    return await history.list_events(graph, agent_id, belief_id, after_seq, limit)


@router.get("/graph")
async def graph_view(
    graph: GraphDep,
    agent_id: AgentIdDep,
    limit: Annotated[int, Query(ge=1, le=2000)] = 200,
    include_inactive: bool = False,
) -> history.GraphView:
    """A bounded node/edge view of the belief graph for a viewer."""
    return await history.graph_view(graph, agent_id, limit, include_inactive)


@router.get("/replay")
async def replay_event_log(
    graph: GraphDep, mechanics: MechanicsDep, agent_id: AgentIdDep
) -> ConsistencyReport:
    """Rebuild every belief from the event log alone and compare with the graph: consistent,
    or each difference (seed 000's replay)."""
    return await check_consistency(graph, mechanics, agent_id)
