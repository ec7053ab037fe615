"""What a turn that calls a tool routes on: the tool, the agent's belief about it (its strength
in the turn's context) and how many calls of it succeeded."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.beliefs.contexts import context_chain, context_strengths
from app.errors import ToolNotFound
from app.graph.client import GraphClient
from app.reasoning.protocol import ToolCall


@dataclass(frozen=True, slots=True)
class ToolBelief:
    id: str
    statement: str
    category: str
    strength: float
    default_strength: float
    tension: float


@dataclass(frozen=True, slots=True)
class ToolFocus:
    call: ToolCall
    description: str
    read_only: bool
    destructive: bool
    belief: ToolBelief | None
    successes: int


async def read_tool_focus(
    graph: GraphClient, agent_id: str, call: ToolCall, context_name: str | None
) -> ToolFocus:
    """Raises: ToolNotFound (no such active tool on that connection of the agent)."""
    rows = await graph.read(
        "tools/get_tool_focus", agent_id=agent_id, qualified_name=call.qualified_name
    )
    if not rows:
        raise ToolNotFound(call.connection, call.tool, agent_id)
    tool: dict[str, Any] = rows[0]["tool"]
    stored = rows[0]["belief"]
    belief = None
    if stored is not None:
        # Without a context the strength is the default one: no second read on a call's path.
        strengths = (
            await context_strengths(graph, agent_id, [stored["id"]], context_name)
            if context_chain(context_name)
            else []
        )
        strength = float(strengths[0]["strength"]) if strengths else float(stored["strength"])
        belief = ToolBelief(
            id=stored["id"],
            statement=stored["statement"],
            category=stored["category"],
            strength=strength,
            default_strength=float(stored["strength"]),
            tension=float(stored["tension"] or 0.0),
        )
    return ToolFocus(
        call=call,
        description=tool.get("description") or "",
        read_only=bool(tool.get("read_only")),
        destructive=bool(tool.get("destructive")),
        belief=belief,
        successes=int(rows[0]["successes"]),
    )
