"""Listing the analytics queries of ``cypher/beliefs/analytics/`` and running one for an agent."""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import date, datetime, time
from typing import Any

from app.beliefs.analytics.header import FOLDER, parse_header
from app.beliefs.analytics.models import (
    AnalyticsInfo,
    AnalyticsList,
    AnalyticsResult,
    AnalyticsSpec,
)
from app.beliefs.analytics.params import resolve_params
from app.errors import UnknownAnalytics
from app.graph.agent_scope import require_agent
from app.graph.catalog import QueryCatalog, default_catalog
from app.graph.client import GraphClient


def analytics_names(catalog: QueryCatalog | None = None) -> list[str]:
    """The names of the files in ``cypher/beliefs/analytics/``, sorted."""
    prefix = f"{FOLDER}/"
    names = (catalog or default_catalog()).names()
    return [
        n.removeprefix(prefix)
        for n in names
        if n.startswith(prefix) and "/" not in n[len(prefix) :]
    ]


def analytics_spec(name: str, catalog: QueryCatalog | None = None) -> AnalyticsSpec:
    """The declared contract of one analytics query.

    Raises:
        UnknownAnalytics: no file ``cypher/beliefs/analytics/<name>.cypher``.
    """
    catalog = catalog or default_catalog()
    known = analytics_names(catalog)
    if name not in known:
        raise UnknownAnalytics(name, known)
    return parse_header(name, catalog.get(f"{FOLDER}/{name}").source)


def list_analytics(catalog: QueryCatalog | None = None) -> AnalyticsList:
    """Every analytics query with its description, parameters and columns."""
    catalog = catalog or default_catalog()
    data = [
        AnalyticsInfo.model_validate(analytics_spec(name, catalog), from_attributes=True)
        for name in analytics_names(catalog)
    ]
    return AnalyticsList(data=data, count=len(data))


async def run_analytics(
    graph: GraphClient, agent_id: str, name: str, params: Mapping[str, Any] | None = None
) -> AnalyticsResult:
    """Runs ``cypher/beliefs/analytics/<name>.cypher`` for one agent.

    Args:
        graph: the graph client (its catalog holds the query).
        agent_id: the agent whose graph is read.
        name: the file name without ``.cypher``.
        params: the other parameters, typed or as text; the header's defaults fill the rest.

    Returns:
        The declared columns and the rows (JSON-safe values), with the parameters used.

    Raises:
        UnknownAnalytics: no such file.
        InvalidInput: parameters that are unknown, missing or do not fit.
        AgentNotFound: no such agent.
    """
    spec = analytics_spec(name, graph.catalog)
    resolved = resolve_params(spec, params or {})
    await require_agent(graph, agent_id)
    rows = await graph.read(f"{FOLDER}/{name}", agent_id=agent_id, **resolved)
    columns = list(spec.columns)
    for row in rows[:1]:
        columns += [key for key in row if key not in columns]
    return AnalyticsResult(
        name=name,
        description=spec.description,
        params={"agent_id": agent_id, **resolved},
        columns=columns,
        rows=[json_safe(row) for row in rows],
        count=len(rows),
    )


def json_safe(value: Any) -> Any:
    """A value made of JSON types only: temporal values as ISO 8601 text, NaN/inf as null."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {str(key): json_safe(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(item) for item in value]
    return str(value)
