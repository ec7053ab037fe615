"""Activate for a turn whose message is a tool call (the ``call`` syntax, or ``POST /actions``):
everything supervision, the guardian and the answer need, in one graph read
(``cypher/loop/activation/get_tool_call_start.cypher``) — the agent, the frame (its stakes cap
autonomy), D (its band lowers the mode), the people and the session's history, the tool and
the agent's belief about it in the turn's context, its confirmed successes (counted up to
what the destructive cap asks for), and the agent's censors (the guardian checks the call and
each argument with them).

What an ordinary turn reads besides, a call does not: the retrieval of beliefs, episodes and
rules (the belief the call routes on is the one about the tool, the rules and recalled episodes
are not shown to a call's judgements) and working memory's tasks and notes (its temporal
context — pure, from the turn's clock — is kept: it names the context of the belief's
strength).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from app.beliefs.contexts import context_chain
from app.beliefs.formulas import band
from app.beliefs.models import Dissatisfaction
from app.common import utc_now
from app.errors import AgentNotFound, ToolNotFound
from app.guardian.check import censors_of
from app.loop.activation import Activation, bound_history, history_of, people_present
from app.loop.services import LoopServices
from app.loop.tool_turns import focused
from app.memory.frames import choose_among, frames_of
from app.memory.people.name_index import known_names
from app.memory.working_memory import temporal_context
from app.reasoning.protocol import MemoryItem, ToolCall
from app.retrieval.context_inputs import temporal_item
from app.retrieval.models import Context
from app.seeds.skills import stored_skill
from app.tools.argument_check import check_call_arguments
from app.tools.calls import CallSource
from app.tools.focus import focus_of, temporal_context_name


async def activate_tool_call(
    services: LoopServices,
    agent_id: str,
    message: str,
    call: ToolCall,
    context_name: str | None,
    session: str | None,
    speaker: str | None,
    now: datetime,
    source: CallSource,
) -> Activation:
    """The activation of a turn that calls ``call`` (see the module docstring).

    Args:
        context_name: the context asked for; None takes the temporal context of the day.
        source: where the call was written (a refusal of its arguments is located there).
    Raises:
        AgentNotFound, ToolNotFound, InvalidInput (arguments the tool's schema refuses)."""
    settings = services.settings
    loop = settings.loop
    temporal = temporal_context(utc_now(now or services.graph.clock.now()).date())
    name = context_name or temporal_context_name(temporal)
    rows = await services.graph.read(
        "loop/activation/get_tool_call_start",
        agent_id=agent_id,
        qualified_name=call.qualified_name,
        session=session,
        limit=max(loop.history_turns_appraisal, loop.history_turns_answer) if session else 0,
        chain=context_chain(name),
        successes_cap=settings.tools.destructive_min_successes,
    )
    if not rows:
        raise AgentNotFound(agent_id)
    row = rows[0]
    _require_tool(row["tool"], call, agent_id, source)
    frame = choose_among(frames_of(row["frames"]), message).frame
    people = list(row["people"])
    finder = known_names(agent_id, [(person["id"], person["name"]) for person in people])
    mentions = finder.mentions(message)
    d = float(row["d"])
    budget = frame.context_budget if frame else settings.retrieval.default_budget_tokens
    item = temporal_item(temporal)
    activation = Activation(
        # The skill in force, parsed (Activation.skill).
        agent=row["agent"] | {"skill": stored_skill(row["agent"].get("skill"))},
        frame=frame.key if frame else "conversation",
        frame_name=frame.name if frame else "Conversation",
        stakes=frame.default_stakes if frame else "low",
        questions_to_ask=list(frame.questions_to_ask) if frame else [],
        dissatisfaction=Dissatisfaction(
            value=d, band=band(d, settings.mechanics), beliefs=None, contributors=[]
        ),
        context=_no_retrieval(message, budget),
        context_name=name,
        beliefs=[],
        relevance={},
        floor=loop.relevance_floor,
        relevant=None,
        at_threshold=[],
        timings_ms={},
        history=bound_history(
            history_of(row["history"]),
            budget,
            loop.history_budget_share,
            settings.retrieval.chars_per_token,
        ),
        query=message,
        message=message,
        people=people_present(
            loop, people, speaker, [m.person_id for m in mentions if m.known and m.person_id]
        ),
        working_memory=[MemoryItem(kind="temporal", content=str(item["content"]))]
        if loop.memory_items_per_turn
        else [],
        urgency_multiplier=float(item["score"]),
        mentions=mentions,
        censors=censors_of(row["censors"]),
    )
    focus = focus_of(call, row["tool"], row["belief"], int(row["successes"]))
    return focused(activation, focus, settings.mechanics)


def _no_retrieval(message: str, budget: int) -> Context:
    """The context of a call's turn: nothing retrieved."""
    return Context(
        query=message,
        k=0,
        mode="fused",
        frame=None,
        budget_tokens=budget,
        degraded=False,
        sections={},
        timings_ms={},
    )


def _require_tool(
    tool: dict[str, Any] | None, call: ToolCall, agent_id: str, source: CallSource
) -> None:
    """Raises ToolNotFound (no such active tool), or InvalidInput (arguments its input schema
    refuses: app/tools/argument_check.py), located where the call was written."""
    if tool is None:
        raise ToolNotFound(call.connection, call.tool, agent_id)
    check_call_arguments(call, tool.get("input_schema"), source)
