"""Analytics on revisions: the queries of cypher/beliefs/analytics/, by name."""

from __future__ import annotations

from fastapi import APIRouter, Request

from app.api.deps import AgentIdDep, GraphDep, NamePath
from app.api.query_parameters import takes_any_query_parameters
from app.beliefs.analytics import runner
from app.beliefs.analytics.models import AnalyticsList, AnalyticsResult
from app.graph.agent_scope import require_agent

router = APIRouter(prefix="/v1/agents/{agent_id}", tags=["analytics"])


@router.get("/analytics")
async def list_analytics(graph: GraphDep, agent_id: AgentIdDep) -> AnalyticsList:
    """The analytics queries, with their parameters (and defaults) and columns."""
    await require_agent(graph, agent_id)
    return runner.list_analytics(graph.catalog)


@router.get("/analytics/{name}")
@takes_any_query_parameters  # the query's own parameters, checked against its header
async def run_analytics(
    graph: GraphDep, agent_id: AgentIdDep, name: NamePath, request: Request
) -> AnalyticsResult:
    """Run one analytics query; its parameters come from the query string (e.g. ?limit=5)."""
    return await runner.run_analytics(graph, agent_id, name, dict(request.query_params))
