"""Adapters that feed the frame and working memory into context assembly (``retrieval.py``):
the frame sets the token budget, and working memory becomes a section of the context."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from app.embeddings.embedder import Embedder
from app.graph.client import GraphClient
from app.memory import frames, working_memory
from app.memory.working_memory import TemporalContext
from app.retrieval.context import build_context
from app.retrieval.models import Context, ContextRequest, FrameChoice
from app.retrieval.settings import RetrievalSettings


async def assemble_context(
    graph: GraphClient,
    embedder: Embedder,
    settings: RetrievalSettings,
    agent_id: str,
    request: ContextRequest,
    *,
    now: datetime | None = None,
) -> Context:
    """The full context of a query: retrieval sections, the frame's budget, working memory
    (read at ``now``: the process clock's time; None is the system clock)."""
    return await build_context(
        graph,
        embedder,
        settings,
        agent_id,
        request,
        choose_frame=frame_for_query,
        extra_sections={"working_memory": working_memory_items},
        now=now,
    )


async def frame_for_query(graph: GraphClient, agent_id: str, text: str) -> FrameChoice | None:
    """The frame the agent thinks in for ``text`` (its installed frames, else the defaults)."""
    choice = await frames.choose_frame(graph, agent_id, text)
    if choice.frame is None:
        return None
    return FrameChoice(
        key=choice.frame.key, name=choice.frame.name, budget_tokens=choice.frame.context_budget
    )


def temporal_item(temporal: TemporalContext) -> dict[str, Any]:
    """The temporal context of the day as a context item (its contexts, its urgency)."""
    return {
        "kind": "temporal",
        "content": (
            f"{temporal.day}: next {temporal.deadline_kind.replace('_', ' ')} on "
            f"{temporal.next_deadline} ({temporal.days_to_deadline} days), urgency "
            f"×{temporal.urgency_multiplier:.2f}"
        ),
        "contexts": list(temporal.contexts),
        "score": temporal.urgency_multiplier,
    }


async def working_memory_items(
    graph: GraphClient, agent_id: str, now: datetime
) -> list[dict[str, Any]]:
    """Working memory as context items (three columns flattened, most pressing first)."""
    memory = await working_memory.load_working_memory(graph, agent_id, now)
    items: list[dict[str, Any]] = [temporal_item(memory.objects.temporal)]
    items += [
        {"kind": "task", "id": t.id, "content": t.description, "state": t.state, "score": 1.0}
        for t in memory.tasks
    ]
    items += [
        {
            "kind": "note",
            "id": n.id,
            "content": n.content,
            "priority": n.priority,
            "score": n.priority / 10,
        }
        for n in memory.notes
    ]
    items += [
        {"kind": "person", "id": p.id, "content": p.name, "role": p.role, "score": 0.5}
        for p in memory.objects.people
    ]
    items += [
        {"kind": "entity", "id": e.id, "content": e.name, "score": 0.4}
        for e in memory.objects.entities
    ]
    items += [
        {
            "kind": "belief",
            "id": b.id,
            "content": b.statement,
            "strength": b.strength,
            "score": b.strength * 0.5,
        }
        for b in memory.objects.beliefs
    ]
    return items
