"""Reading the record: revisions, events and a bounded graph view."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from app.beliefs.models import RevisionSummary
from app.errors import RevisionNotFound
from app.graph.agent_scope import require_agent
from app.graph.client import GraphClient


class RevisionPage(BaseModel):
    data: list[RevisionSummary]
    count: int


class RevisionDetail(BaseModel):
    revision: dict[str, Any]
    old_belief: dict[str, Any] | None
    new_belief: dict[str, Any] | None
    parent_revision_id: str | None
    cascaded: list[dict[str, Any]]


class GraphView(BaseModel):
    nodes: list[dict[str, Any]]
    edges: list[dict[str, Any]]


class EventPage(BaseModel):
    data: list[dict[str, Any]]
    count: int
    last_seq: int | None


async def list_revisions(
    graph: GraphClient, agent_id: str, skip: int = 0, limit: int = 50
) -> RevisionPage:
    """An agent's revisions, newest first."""
    row = (
        await graph.read(
            "beliefs/revision/list_revisions", agent_id=agent_id, skip=skip, limit=limit
        )
    )[0]
    if not row["count"]:
        await require_agent(graph, agent_id)  # an unknown agent is a 404, not an empty page
    return RevisionPage(
        data=[RevisionSummary.model_validate(r) for r in row["revisions"]], count=row["count"]
    )


async def get_revision(graph: GraphClient, agent_id: str, revision_id: str) -> RevisionDetail:
    """One revision with its beliefs, parent and cascade.

    Raises:
        RevisionNotFound: no such revision for this agent.
    """
    rows = await graph.read(
        "beliefs/revision/get_revision", agent_id=agent_id, revision_id=revision_id
    )
    if not rows:
        await require_agent(graph, agent_id)
        raise RevisionNotFound(revision_id)
    return RevisionDetail.model_validate(rows[0])


async def list_events(
    graph: GraphClient,
    agent_id: str,
    belief_id: str | None = None,
    after_seq: int = 0,
    limit: int = 200,
) -> EventPage:
    """Belief events in sequence order (after ``after_seq``)."""
    events = (
        await graph.read(
            "beliefs/events/list_events",
            agent_id=agent_id,
            belief_id=belief_id,
            after_seq=after_seq,
            limit=limit,
        )
    )[0]["events"]
    if not events:
        await require_agent(graph, agent_id)
    return EventPage(data=events, count=len(events), last_seq=events[-1]["seq"] if events else None)


async def graph_view(
    graph: GraphClient, agent_id: str, limit: int = 200, include_inactive: bool = False
) -> GraphView:
    """At most ``limit`` beliefs and the edges among them."""
    row = (
        await graph.read(
            "beliefs/history/get_graph",
            agent_id=agent_id,
            limit=limit,
            include_inactive=include_inactive,
        )
    )[0]
    if not row["nodes"]:
        await require_agent(graph, agent_id)
    return GraphView(nodes=row["nodes"], edges=row["edges"])
