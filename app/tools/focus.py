"""What a turn that calls a tool routes on: the tool, the agent's belief about it (its strength
in the turn's context) and how many calls of it succeeded, counted up to the number the
destructive cap asks for (``tools.destructive_min_successes``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.beliefs.contexts import context_chain, context_strengths
from app.beliefs.formulas import SupervisionMode
from app.common import utc_now
from app.errors import ToolNotFound
from app.graph.client import GraphClient
from app.memory.working_memory import TemporalContext, temporal_context
from app.reasoning.protocol import ToolCall


@dataclass(frozen=True, slots=True)
class ToolBelief:
    id: str
    statement: str
    category: str
    strength: float
    default_strength: float
    tension: float
    # The mode pinned on the belief (PATCH /beliefs/{bid}); None: derived from the strength.
    supervision_mode: SupervisionMode | None = None


@dataclass(frozen=True, slots=True)
class ToolFocus:
    call: ToolCall
    description: str
    read_only: bool
    destructive: bool
    belief: ToolBelief | None
    # Confirmed successes, counted up to the cap's number (no more is ever asked).
    successes: int


def call_context(context_name: str | None, now: datetime) -> str | None:
    """The context a call's belief strength is read in: the one asked for, else the temporal
    context of ``now``'s day (its first: month_end, quarter_end or year_end), else None (the
    default strength)."""
    if context_name:
        return context_name
    return temporal_context_name(temporal_context(utc_now(now).date()))


def temporal_context_name(temporal: TemporalContext) -> str | None:
    """The context a turn without one takes on the day ``temporal`` describes."""
    return str(temporal.contexts[0]) if temporal.contexts else None


async def read_tool_focus(
    graph: GraphClient,
    agent_id: str,
    call: ToolCall,
    context_name: str | None,
    successes_cap: int,
) -> ToolFocus:
    """``successes_cap``: the successes are counted up to this many.

    Raises: ToolNotFound (no such active tool on that connection of the agent)."""
    rows = await graph.read(
        "tools/get_tool_focus",
        agent_id=agent_id,
        qualified_name=call.qualified_name,
        successes_cap=successes_cap,
    )
    if not rows:
        raise ToolNotFound(call.connection, call.tool, agent_id)
    stored = rows[0]["belief"]
    # Without a context the strength is the default one: no second read on a call's path.
    strengths = (
        await context_strengths(graph, agent_id, [stored["id"]], context_name)
        if stored is not None and context_chain(context_name)
        else []
    )
    belief = (
        None
        if stored is None
        else {
            **stored,
            "default_strength": stored["strength"],
            "strength": strengths[0]["strength"] if strengths else stored["strength"],
        }
    )
    return focus_of(call, rows[0]["tool"], belief, int(rows[0]["successes"]))


def focus_of(
    call: ToolCall, tool: dict[str, Any], belief: dict[str, Any] | None, successes: int
) -> ToolFocus:
    """The focus from its stored rows: ``tool`` (its description, read_only and destructive),
    ``belief`` (id, statement, category, strength in the turn's context, default_strength,
    tension, supervision_mode: the pinned one or None; None when the tool has none) and the count
    of its calls that succeeded."""
    return ToolFocus(
        call=call,
        description=tool.get("description") or "",
        read_only=bool(tool.get("read_only")),
        destructive=bool(tool.get("destructive")),
        belief=None
        if belief is None
        else ToolBelief(
            id=belief["id"],
            statement=belief["statement"],
            category=belief["category"],
            strength=float(belief["strength"]),
            default_strength=float(belief["default_strength"]),
            tension=float(belief["tension"] or 0.0),
            supervision_mode=belief.get("supervision_mode"),
        ),
        successes=successes,
    )
