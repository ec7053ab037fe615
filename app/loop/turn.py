"""One turn of the loop (docs/loop.md §1): activate → appraise → route → guidance / proposal
/ autonomous → execute → verify → learn → respond.

Everything that only reads or judges happens first (activation, the reasoner's appraisal,
evidence, routing, the work unit, the executor and its verification). Then the turn's writes
(the people met, the episode, the evidence and its tension, the outcome, revisions of beliefs at
the threshold, the decision and its reasons, the approval, the response) go into **one**
transaction under the agent's lock (:mod:`app.loop.write_phase`): a reasoner or Neo4j failure
anywhere rolls the whole turn back, and the caller gets a ``TurnFailed`` naming the phase.
Revision runs inside that transaction, so the turn that pushes a belief over the threshold
halts and revises; the reasoner is asked outside it (app/loop/answers.py), so a transient
retry runs only graph work again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from dataclasses import replace

from app.beliefs.models import RevisionOutcome
from app.beliefs.revision import meditate_if_runaway, revise_urgent
from app.embeddings.store import embed_pending
from app.errors import CredenceError
from app.guardian.check import Censors
from app.loop.activation import Activation, activate
from app.loop.background import in_background
from app.loop.call_memory import interrupt_stale_calls, remember_in_background
from app.loop.call_record import write_call_turn
from app.loop.episode_rows import is_person
from app.loop.models import ChatRequest, TurnEvent, TurnResult
from app.loop.planning import PlannedTurn, plan_turn
from app.loop.recording import (
    Emit,
    ReasonerFailed,
    TurnRecorder,
    silent,
    turn_done,
    turn_failed,
)
from app.loop.revisits import untold_revisions
from app.loop.services import LoopServices
from app.loop.sessions import close_idle_sessions, close_session, reflect_if_due
from app.loop.tool_activation import activate_tool_call
from app.loop.tool_routing import route_to_tool
from app.loop.tool_turns import focus_on_tool
from app.loop.write_phase import Aftermath, write_turn
from app.reasoning.protocol import ToolCall
from app.tools.calls import MESSAGE_CALL, CallSource, parse_tool_call

log = logging.getLogger(__name__)


async def run_turn(
    services: LoopServices,
    agent_id: str,
    request: ChatRequest,
    emit: Emit = silent,
    source: CallSource = MESSAGE_CALL,
) -> TurnResult:
    """One turn; see the module docstring.

    Args:
        emit: receives the turn's events as they happen (phases, tension, revisions, the
            approval, the response, then done or error).
        source: where the message came from, for a call in its ``call`` syntax: a refusal of
            the call's arguments is located there (app/tools/calls.py).

    Raises:
        AgentNotFound, TurnFailed (nothing written), GraphUnavailable.
    """
    recorder = TurnRecorder(emit=emit)
    phase = "activate"
    # What this process's earlier tool calls of the agent teach is read by this turn.
    await services.call_memories.settled(agent_id)
    written_call = parse_tool_call(request.message, source)
    # The guardian's censors are read while the turn activates (planning checks with them); a
    # call in the message's syntax reads them in its one start read.
    censors = None
    if written_call is None:
        censors = asyncio.ensure_future(services.guard.censors(agent_id))
    try:
        activation = await _activate(services, recorder, agent_id, request, written_call, source)
        urgent = RevisionOutcome()
        if written_call is None and activation.dissatisfaction.band == "high":
            urgent, activation = await _revise_urgent_first(
                services, recorder, agent_id, request, activation
            )
        if activation.tool is None and is_person(request.speaker):
            revisited = await untold_revisions(services.graph, agent_id, request.speaker)
            activation = replace(activation, revisited=revisited)
        phase = "plan"
        read = censors if censors is not None else _censors_of(services, agent_id, activation)
        turn = await _plan(services, recorder, agent_id, request, activation, read)
        if activation.tool is not None:
            phase = "execute"  # an autonomous call runs here, while its record is written
            result, aftermath = await write_call_turn(services, recorder, turn)
        else:
            phase = "learn"
            result, aftermath = await write_turn(services, recorder, turn)
    except ReasonerFailed as failure:
        raise await turn_failed(emit, agent_id, failure) from failure
    except CredenceError as error:
        await emit(TurnEvent(type="error", data={"phase": phase, "cause": error.message}))
        raise
    finally:
        if censors is not None:
            _forget(censors)
    if urgent.revisions:
        result = result.model_copy(update={"revisions": [*urgent.revisions, *result.revisions]})
    if activation.revisited:
        result = result.model_copy(update={"revisited": activation.revisited})
    await _after_turn(services, agent_id, request, result, aftermath)
    return await turn_done(emit, result)


async def _activate(
    services: LoopServices,
    recorder: TurnRecorder,
    agent_id: str,
    request: ChatRequest,
    written_call: ToolCall | None,
    source: CallSource = MESSAGE_CALL,
) -> Activation:
    now = services.clock.now()
    if written_call is not None:
        # A call in the message's syntax (or POST /actions): the lean activation, one read.
        activation = await activate_tool_call(
            services,
            agent_id,
            request.message,
            written_call,
            request.context,
            request.session,
            request.speaker,
            now,
            source,
        )
    else:
        activation = await activate(
            services.graph,
            services.embedder,
            services.settings,
            agent_id,
            request.message,
            request.context,
            request.session,
            request.speaker,
            now=now,
        )
    if services.reasoner.name != "offline":
        # Claude's system prompt: the identity document, regenerated when what it shows changed.
        identity = await services.identity.markdown(services.graph, agent_id)
        activation = replace(activation, identity=identity)
    # The call the message writes, else the tool it asks for among the agent's (the reasoner
    # chooses: Claude's native tool use, or the offline route by description similarity).
    call, route = await route_to_tool(
        services,
        recorder,
        agent_id,
        request,
        written_call,
        activation.recent(services.settings.loop.history_turns_answer),
        activation.identity,
    )
    if written_call is None:
        # A turn routed to a tool routes on the agent's belief about that tool.
        activation = await focus_on_tool(services, agent_id, call, activation)
    activation = replace(activation, tool_route=route)
    await recorder.phase(
        "activate",
        frame=activation.frame,
        dissatisfaction=activation.dissatisfaction.value,
        band=activation.dissatisfaction.band,
        relevant=activation.relevant.model_dump() if activation.relevant else None,
    )
    return activation


async def _revise_urgent_first(
    services: LoopServices,
    recorder: TurnRecorder,
    agent_id: str,
    request: ChatRequest,
    activation: Activation,
) -> tuple[RevisionOutcome, Activation]:
    """At high dissatisfaction the turn first revises the agent's most urgent beliefs (seed
    001's orchestrator step 2; bounded by count and time, app/beliefs/revision.py), then
    activates again so it answers from the revised beliefs, in the band of the dissatisfaction
    it started with (the seed's turn answers in the D it measured first)."""
    urgent = await revise_urgent(
        services.graph,
        services.settings.mechanics,
        services.reasoner,
        agent_id,
        services.monotonic,
    )
    if not urgent.revisions:
        return urgent, activation
    for summary in urgent.revisions:
        await recorder.emit(TurnEvent(type="revision", data=summary.model_dump(mode="json")))
    again = await _activate(services, recorder, agent_id, request, None)
    return urgent, replace(again, dissatisfaction=activation.dissatisfaction)


async def _censors_of(services: LoopServices, agent_id: str, activation: Activation) -> Censors:
    """The censors the activation read with the rest; read now if it did not."""
    if activation.censors is not None:
        return activation.censors
    return await services.guard.censors(agent_id)


def _forget(read: asyncio.Future[Censors]) -> None:
    """A read the turn may not have awaited (it failed before): cancelled, or its failure
    taken (the turn's own error is the one raised)."""
    if not read.done():
        read.cancel()
    elif not read.cancelled():
        read.exception()


async def _plan(
    services: LoopServices,
    recorder: TurnRecorder,
    agent_id: str,
    request: ChatRequest,
    activation: Activation,
    censors: Awaitable[Censors],
) -> PlannedTurn:
    """The turn's plan, with the people the message names who are not known yet (the write
    phase micro-births them)."""
    plan = await plan_turn(services, recorder, agent_id, request, activation, censors)
    plan.mentioned = [m.name for m in activation.mentions if not m.known]
    return PlannedTurn(agent_id=agent_id, request=request, activation=activation, plan=plan)


async def _after_turn(
    services: LoopServices,
    agent_id: str,
    request: ChatRequest,
    result: TurnResult,
    aftermath: Aftermath,
) -> None:
    """Bookkeeping after the turn committed: a tool call's memory (in the background: its
    episode, what its outcome teaches, D's sample and a meditation when D ran away), vectors
    for revised and learned beliefs, a meditation when the runaway guard's streak (D and the
    streak, recorded by the turn's transaction) says D stayed above the line too long, the
    session closed when asked (once a call's episode is in it; else reflection when enough
    episodes wait), and the agent's idle sessions closed and its tool calls left running by a
    stopped process interrupted (swept at most once per ``idle_sweep_interval_seconds``)."""
    try:
        if aftermath.call_memory is not None:
            remember_in_background(
                services, agent_id, aftermath.call_memory, aftermath.call_completion
            )
        if result.revisions or any(not item.reinforced for item in result.learned):
            # Revised and learned beliefs are written without vectors; give them theirs now so
            # the next turn finds them by meaning too, not only by their words.
            await embed_pending(services.graph, services.embedder, agent_id)
        await meditate_if_runaway(
            services.graph,
            services.settings.mechanics,
            services.reasoner,
            agent_id,
            aftermath.streak,
        )
        # Reflection runs after the answer, not before it (it reads and clusters many episodes:
        # ~1 s at 100k); the episodes it waits for are counted in the graph, so a reflection
        # lost with the process runs at the next trigger.
        loop = services.settings.loop
        if request.end_session and request.session:
            await services.call_memories.settled(agent_id)
            await close_session(services, agent_id, request.session, "end_of_turn", reflect=False)
            closed = [request.session]
        else:
            closed = []
        if _sweep_due(services, agent_id):
            idle = await close_idle_sessions(services, agent_id, reflect=False)
            closed += [s.session for s in idle]
            # Nothing the turn's caller waits for: swept after the answer.
            in_background(
                interrupt_stale_calls(services, services.clock.now(), agent_id),
                "the sweep of tool calls left running",
            )
        minimum, when = (
            (loop.reflect_min_episodes, "after the session")
            if closed
            else (loop.reflect_every_episodes, "after this turn")
        )
        in_background(_reflect_if_due(services, agent_id, minimum, when), f"reflection {when}")
    except CredenceError:
        log.exception("after-turn bookkeeping failed for turn %s", result.turn_id)


async def _reflect_if_due(services: LoopServices, agent_id: str, minimum: int, when: str) -> None:
    """Reflection when enough episodes wait, counted once the agent's tool calls' memories are
    written (a call's episode is written after its answer, and it is one of those counted)."""
    await services.call_memories.settled(agent_id)
    await reflect_if_due(services, agent_id, minimum, when)


def _sweep_due(services: LoopServices, agent_id: str) -> bool:
    """Whether this turn sweeps the agent's idle sessions (at most once per interval)."""
    now = services.monotonic()
    last = services.idle_sweeps.get(agent_id)
    if last is not None and now - last < services.settings.loop.idle_sweep_interval_seconds:
        return False
    services.idle_sweeps[agent_id] = now
    return True
