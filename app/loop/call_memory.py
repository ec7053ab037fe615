"""The memory of a tool call, written right after its answer: the turn's episode (with the
speaker met, its session order, lexical statistics and subjects, then its vector), joined to the
call's decision and Action, what the outcome teaches (the beliefs it moves, with its moral
valence and failure severity, the capability record and so the autonomy for that tool), what the
turn showed of its speaker (their user model, as a chat turn teaches it), the call's task in
working memory (for a call that asked no one) and D's sample (then a meditation when the
runaway guard asks for one).

A call's own write records only what the call is (the decision, the Action, an approval;
app/loop/call_record.py). A call that waits for a person, or that was refused, leaves this memory
on the Action (``memory_pending``, a :class:`CallMemory` as JSON): the transaction here claims
it, so it is written exactly once; a process that stops before it leaves it in the graph, and the
next one writes it when it starts (:func:`remember_pending_calls`). A call that runs is recorded
while it runs, its Action ``running``: its outcome (status, result, the decision's outcome, the
beliefs it moves) comes here with its memory (:class:`CallCompletion`), and the transaction that
writes them completes the Action, so they are written once too; a process that stops first
leaves the Action ``running``, and the next one marks it ``interrupted`` when it starts
(:func:`interrupt_stale_calls`). Within a process the agent's next turn waits for the memory
(app/loop/pending_memories.py), so every turn reads what the calls before it taught.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from pydantic import BaseModel, Field

from app.beliefs.revision import meditate_if_runaway, record_dissatisfaction_in
from app.errors import AgentNotFound, CredenceError
from app.graph.agent_scope import lock_agent
from app.graph.client import Transaction
from app.loop.background import in_background
from app.loop.episode_rows import EpisodeDraft, complete_turn_episode_in, emotional_valence
from app.loop.services import LoopServices
from app.loop.turn_memory import (
    OutcomeLesson,
    learn_about_speaker_in,
    learn_from_outcome,
    meet_people,
    write_turn_episode,
)
from app.memory.episodes import embed_deferred_episodes
from app.memory.people.learning import TurnSignals
from app.memory.working_memory import TaskDraft, TaskState, open_task_in

log = logging.getLogger(__name__)

# How many calls' memories a starting process writes at most (the rest at the next start).
_PENDING_AT_START = 10_000


class CallMemory(BaseModel):
    """What a tool call's memory is written from, kept on its Action until it is written."""

    episode_id: str
    decision_id: str
    approval_id: str | None
    occurred_at: datetime
    speaker: str | None
    message: str
    session: str | None
    # The people the message names who were not known when the turn activated.
    mentioned: list[str] = Field(default_factory=list)
    frame: str
    actions: int
    about: list[str] = Field(default_factory=list)
    surprise: float | None = None
    # What the outcome teaches (written only for a success or a failure).
    lesson: OutcomeLesson
    # The episode's completion: the answer and how the turn ran (``turn_params``).
    turn: dict[str, Any]
    # What the turn showed of its speaker (their user model: knowledge, goal, the way of working
    # that succeeded); None in memories left by an older version.
    signals: TurnSignals | None = None
    # The call's task in working memory, opened here with its moves (each (state, cause)) when
    # the call asked no one (a call that waits for a person opened its task with its approval).
    task: TaskDraft | None = None
    task_moves: list[tuple[TaskState, str]] = Field(default_factory=list)


@dataclass(frozen=True, slots=True)
class CallCompletion:
    """What a call that ran beside its record came to, and its memory: the parameters of
    ``loop/tool_turns/complete_call`` (``decision``: id, execution_status, outcome, executor;
    ``action``: id, status, duration_ms, result, is_error, moved), at ``now``."""

    decision: dict[str, Any]
    action: dict[str, Any]
    now: datetime
    memory: CallMemory


async def remember_call(
    services: LoopServices,
    agent_id: str,
    action_id: str,
    completion: CallCompletion | None = None,
) -> bool:
    """Writes the memory of the call ``action_id`` (see the module docstring): the one it left on
    its Action, or with ``completion`` its outcome and memory; then its episode's vector and a
    meditation when D has run away. False when it was written already (by another process) or
    the Action is gone."""
    settings = services.settings

    async def work(tx: Transaction) -> tuple[dict[str, str], int] | None:
        await lock_agent(tx, agent_id)
        memory = await _claim(tx, agent_id, action_id, completion)
        if memory is None:
            return None
        deferred = await _write_memory(tx, services, agent_id, action_id, memory)
        _, streak = await record_dissatisfaction_in(tx, settings.mechanics, agent_id)
        return deferred, streak

    try:
        written = await services.graph.write_transaction(
            work, action="writing a tool call's memory"
        )
    except CredenceError:
        if completion is not None:
            await leave_for_later(services, agent_id, completion)
        raise
    if written is None:
        return False
    deferred, streak = written
    await embed_deferred_episodes(
        services.graph, settings.retrieval, services.embedder, agent_id, deferred
    )
    await meditate_if_runaway(
        services.graph, settings.mechanics, services.reasoner, agent_id, streak
    )
    return True


async def _claim(
    tx: Transaction, agent_id: str, action_id: str, completion: CallCompletion | None
) -> CallMemory | None:
    """The call's memory, claimed in the caller's transaction: the completion's, once its Action
    is completed, or the one its record left; None when it was written already."""
    if completion is not None:
        rows = await tx.run("loop/tool_turns/complete_call", **_completed(agent_id, completion))
        return completion.memory if rows else None
    rows = await tx.run("loop/tool_turns/claim_call_memory", agent_id=agent_id, action_id=action_id)
    return CallMemory.model_validate_json(rows[0]["memory"]) if rows else None


def _completed(
    agent_id: str, completion: CallCompletion, memory: CallMemory | None = None
) -> dict[str, Any]:
    """The parameters of ``loop/tool_turns/complete_call`` (``memory``: left on the Action)."""
    return {
        "agent_id": agent_id,
        "now": completion.now,
        "decision": completion.decision,
        "action": completion.action,
        "memory": memory.model_dump_json() if memory is not None else None,
    }


async def leave_for_later(
    services: LoopServices, agent_id: str, completion: CallCompletion
) -> None:
    """What came of a call, written alone with its memory left on the Action for the next start
    (:func:`remember_pending_calls`), when its memory cannot be written now; a failure here is
    logged (the call's Action then stays ``running`` until a sweep interrupts it)."""
    try:
        await services.graph.write_alone(
            "loop/tool_turns/complete_call", **_completed(agent_id, completion, completion.memory)
        )
    except CredenceError:
        log.exception("what came of tool call %s could not be written", completion.action["id"])


def remember_in_background(
    services: LoopServices, agent_id: str, action_id: str, completion: CallCompletion | None
) -> None:
    """:func:`remember_call` after the caller returns; the agent's next turn, the runtime's
    close and the requests about the agent wait for it."""
    task = in_background(
        remember_call(services, agent_id, action_id, completion),
        "a tool call's memory",
        settle_on_close=True,
    )
    services.call_memories.add(agent_id, task)


async def _write_memory(
    tx: Transaction, services: LoopServices, agent_id: str, action_id: str, memory: CallMemory
) -> dict[str, str]:
    """The call's episode (its vector deferred: returns its text), joined to the call's
    records and completed, then what the outcome teaches; at the turn's own time."""
    settings, now, lesson = services.settings, memory.occurred_at, memory.lesson
    people = await meet_people(
        tx,
        settings.memory,
        agent_id,
        memory.speaker,
        memory.message,
        memory.mentioned,
        now,
    )
    draft = EpisodeDraft(
        speaker=memory.speaker,
        text=memory.message,
        session=memory.session,
        outcome=lesson.outcome,
        frame=memory.frame,
        actions=memory.actions,
        about=memory.about,
        emotional_valence=emotional_valence(lesson.outcome, people.frustrated, people.praised),
        surprise=memory.surprise,
    )
    episode_id, deferred = await write_turn_episode(
        tx, services, agent_id, draft, now, defer_vectors=True, episode_id=memory.episode_id
    )
    await tx.run(
        "loop/tool_turns/link_call_episode",
        agent_id=agent_id,
        episode_id=episode_id,
        decision_id=memory.decision_id,
        action_id=action_id,
        approval_id=memory.approval_id,
    )
    await complete_turn_episode_in(tx, agent_id, episode_id, memory.turn)
    await learn_from_outcome(tx, settings, agent_id, lesson, now)
    if memory.signals is not None:
        await learn_about_speaker_in(tx, settings.memory, people.person, memory.signals, now)
    if memory.task is not None and memory.task_moves:
        await open_task_in(tx, agent_id, memory.task, memory.task_moves, settings.memory, now)
    return deferred


async def remember_pending_calls(services: LoopServices) -> int:
    """Writes the memories that calls left when a process stopped before writing them (oldest
    first); returns how many were written. Run when the runtime starts."""
    rows = await services.graph.read(
        "loop/tool_turns/list_pending_call_memories", limit=_PENDING_AT_START
    )
    written = failed = 0
    for row in rows:
        try:
            if await remember_call(services, str(row["agent_id"]), str(row["action_id"])):
                written += 1
        except AgentNotFound:
            continue  # its agent is being deleted: the deletion takes the Action too
        except CredenceError as error:
            # One memory that cannot be written must not keep the others from being written:
            # it stays pending (tried again at the next start), the rest go on.
            failed += 1
            log.error(
                "the memory of tool call %s (agent %s) left by a stopped process: %s",
                row["action_id"],
                row["agent_id"],
                error.message,
            )
    if failed:
        log.error("%d tool calls' memories left by a stopped process still pending", failed)
    if written:
        log.info("wrote the memory of %d tool calls left by a stopped process", written)
    return written


async def interrupt_stale_calls(
    services: LoopServices, now: datetime, agent_id: str | None = None
) -> int:
    """Marks ``interrupted`` the calls left ``running`` by a process that stopped while they ran
    or before their outcome was written (started longer ago than a call may take: the tools'
    call timeout and the reasoner's for each try the retry budget allows, and the answer, twice
    over), of ``agent_id`` or every agent; returns how many. Run when the runtime starts (every
    agent) and with an agent's idle sessions' sweep. Each agent's are written in a transaction
    of their own under its lock (none of an agent being deleted: its deletion takes them)."""
    settings = services.settings
    tries = settings.loop.retry_budget + 1
    longest = tries * (settings.tools.call_timeout_s + settings.reasoner.timeout_s)
    before = now - timedelta(seconds=2 * (longest + settings.reasoner.timeout_s))
    if agent_id is None:
        rows = await services.graph.read("loop/tool_turns/list_stale_call_agents", before=before)
        agents = [str(row["agent_id"]) for row in rows]
    else:
        agents = [agent_id]
    count = 0
    for agent in agents:
        rows = await services.graph.write_alone(
            "loop/tool_turns/interrupt_stale_calls",
            agent_id=agent,
            before=before,
            now=now,
            why=INTERRUPTED,
        )
        count += int(rows[0]["interrupted"]) if rows else 0
    if count:
        log.warning("%d tool calls were left running by a stopped process: interrupted", count)
    return count


# The result of a call whose outcome was never written.
INTERRUPTED = (
    "interrupted: the call was recorded before it ran, and its outcome was not written "
    "(the turn failed or the process stopped); whether the tool acted is unknown"
)
# The result of a call that ran, whose turn failed before its result was verified.
INTERRUPTED_AFTER_RUN = (
    "interrupted: the call ran, and its turn failed before its result was verified; nothing "
    "was learned from it"
)
