"""A turn that calls a tool of a connected MCP server (the message syntax of
:mod:`app.tools.calls`, or ``POST /actions``): the same turn as any other, focused on the tool.

- Activation: the belief that decides supervision is the agent's belief about the tool (the
  mode pinned on it, else its strength in the turn's context), and it is the belief the
  outcome moves.
- Planning: the request is the call (no other work unit is proposed, no claims are learned
  from the JSON); the guardian reads the call's text *and each argument value on its own*, so
  ``DROP TABLE invoices`` in a SQL argument is refused as the same words in a message are; a
  destructive tool is capped at proposal until it has ``tools.destructive_min_successes``
  confirmed successes, a belief pinned to autonomous included (autonomy over a destructive
  tool is earned by calls that succeeded, not granted by a pin).
"""

from __future__ import annotations

from dataclasses import replace

from app.beliefs.formulas import is_invalidated
from app.beliefs.mechanics import Mechanics
from app.loop.activation import Activation
from app.loop.models import RelevantBelief
from app.loop.services import LoopServices
from app.reasoning.protocol import BeliefBrief, ToolCall, WorkUnit
from app.tools.calls import tool_work_unit
from app.tools.focus import ToolFocus, read_tool_focus


async def focus_on_tool(
    services: LoopServices, agent_id: str, call: ToolCall | None, activation: Activation
) -> Activation:
    """The activation of a turn that calls a tool (``call``: in the message's syntax, or the
    one the message was routed to); any other turn's unchanged.

    Raises:
        ToolNotFound.
    """
    if call is None:
        return activation
    focus = await read_tool_focus(
        services.graph,
        agent_id,
        call,
        activation.context_name,
        services.settings.tools.destructive_min_successes,
    )
    return focused(activation, focus, services.settings.mechanics)


def focused(activation: Activation, focus: ToolFocus, mechanics: Mechanics) -> Activation:
    """``activation`` resting on the agent's belief about the tool (none: no belief decides)."""
    belief = focus.belief
    if belief is None:
        return replace(activation, tool=focus, beliefs=[], relevance={}, relevant=None)
    brief = BeliefBrief(
        id=belief.id,
        statement=belief.statement,
        strength=belief.strength,
        tension=belief.tension,
        category=belief.category,
    )
    relevant = RelevantBelief(
        id=belief.id,
        statement=belief.statement,
        strength=belief.strength,
        default_strength=belief.default_strength,
        tension=belief.tension,
        relevance=1.0,
        invalidated=is_invalidated(belief.strength, belief.category, mechanics),
        supervision_mode=belief.supervision_mode,
    )
    return replace(
        activation,
        tool=focus,
        beliefs=[brief],
        relevance={belief.id: 1.0},
        relevant=relevant,
        at_threshold=[b for b in activation.at_threshold if b == belief.id],
        rules=[],
    )


def tool_unit(activation: Activation) -> WorkUnit | None:
    """The work unit of a tool-call turn; None for any other turn."""
    focus = activation.tool
    return tool_work_unit(focus.call, focus.description) if focus is not None else None


def destructive_cap(activation: Activation, min_successes: int) -> str | None:
    """Why an autonomous call of this tool is capped at proposal; None when it is not."""
    focus = activation.tool
    if focus is None or not focus.destructive or focus.successes >= min_successes:
        return None
    return (
        f"{focus.call.qualified_name} may destroy (destructiveHint): not autonomous before "
        f"{min_successes} confirmed successes ({focus.successes} so far)"
    )
