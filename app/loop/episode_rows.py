"""The episode a turn (or a resumed turn) writes, as a row for
``cypher/memory/episodes/create_episodes.cypher`` (via ``episodes.write_episodes_in``), and what the
turn says about itself on it: how it felt, how surprising it was, how many actions it took."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.graph.client import Transaction
from app.loop.activation import Activation
from app.loop.models import TurnEvent
from app.loop.planning import Plan
from app.loop.recording import TurnRecorder, usage_of
from app.memory.people.micro_birth import micro_birth_properties
from app.memory.session_order import AGENT_SPEAKERS
from app.memory.settings import MemoryMechanics
from app.reasoning.protocol import ExecutionResult, WorkUnit
from app.text.lexical import scored_words


@dataclass(frozen=True, slots=True)
class EpisodeDraft:
    """A turn's episode as the write phase first records it; the response comes later
    (:func:`finish_turn_episode_in`)."""

    speaker: str | None
    text: str
    session: str | None
    outcome: str
    frame: str
    actions: int
    about: list[str]
    emotional_valence: float | None = None
    surprise: float | None = None
    # Negative when the turn's tier-3 audit failed (GuardianSettings.creed_violation_...).
    coherence_penalty: float = 0.0


@dataclass(frozen=True, slots=True)
class TurnConduct:
    """How the turn ran, written on its episode together with the response."""

    mode: str
    dissatisfaction: float
    revision_triggered: bool
    frame: str
    decision_id: str | None


def is_person(speaker: str | None) -> bool:
    """A named speaker who is not the agent itself ("assistant", "system", ...)."""
    return speaker is not None and speaker.casefold() not in AGENT_SPEAKERS


def turn_episode_row(
    draft: EpisodeDraft,
    *,
    agent_id: str,
    episode_id: str,
    now: datetime,
    memory: MemoryMechanics,
) -> dict[str, Any]:
    """One turn's episode: the person's words now, the response filled in when it is known;
    fewer than 2 actions make it trivial (kept, never consolidated)."""
    speaker = draft.speaker
    return {
        "id": episode_id,
        "external_id": None,
        "speaker": speaker or "user",
        "person": (
            micro_birth_properties(agent_id, speaker, memory, now)
            if speaker is not None and is_person(speaker)
            else None
        ),
        "text": draft.text,
        "user_message": draft.text,
        "response": None,
        "occurred_at": now,
        "session": draft.session,
        "outcome": draft.outcome,
        "emotional_valence": draft.emotional_valence,
        "surprise": draft.surprise,
        "coherence_penalty": draft.coherence_penalty,
        "frame": draft.frame,
        "actions": draft.actions,
        "trivial": draft.actions < 2,
        "interference": 0,
        "about": draft.about,
    }


async def finish_turn_episode_in(
    tx: Transaction,
    recorder: TurnRecorder,
    agent_id: str,
    episode_id: str,
    response: str,
    conduct: TurnConduct,
) -> None:
    """Writes the response and how the turn ran (with what its judgements cost) on its
    episode, then marks the respond phase and streams the response."""
    await complete_turn_episode_in(
        tx, agent_id, episode_id, turn_params(recorder, response, conduct)
    )
    await responded(recorder, response)


async def complete_turn_episode_in(
    tx: Transaction, agent_id: str, episode_id: str, turn: dict[str, Any]
) -> None:
    """Writes the response and how the turn ran on its episode (``turn``: :func:`turn_params`);
    the response's words join those the episode is scored by."""
    words = scored_words(turn["response"])
    await tx.run(
        "loop/episode_rows/complete_turn_episode",
        agent_id=agent_id,
        episode_id=episode_id,
        turn=turn,
        response_terms=words["lexical_terms"],
        response_tokens=words["token_count"],
    )


def turn_params(recorder: TurnRecorder, response: str, conduct: TurnConduct) -> dict[str, Any]:
    """The ``turn`` parameter of the queries that complete a turn's episode."""
    return {
        "response": response,
        "supervision_mode": conduct.mode,
        "dissatisfaction": conduct.dissatisfaction,
        "revision_triggered": conduct.revision_triggered,
        "frame": conduct.frame,
        "decision_id": conduct.decision_id,
        **usage_of(recorder),
    }


async def responded(recorder: TurnRecorder, response: str) -> None:
    """Marks the respond phase and streams the response (once the episode holds it)."""
    await recorder.phase("respond")
    await recorder.emit(TurnEvent(type="response", data={"text": response}))


def emotional_valence(outcome: str, frustrated: bool, praised: bool) -> float:
    """How the turn felt, in [-1, 1], for peak-end salience: frustration −0.3, praise +0.2,
    a failure −0.4, a success +0.2 (the largest |valence| of a session is its peak)."""
    value = (-0.3 if frustrated else 0.0) + (0.2 if praised else 0.0)
    value += {"failure": -0.4, "success": 0.2}.get(outcome, 0.0)
    return max(-1.0, min(1.0, round(value, 3)))


# Seed 002's structural surprise: the turn's work raised an error (0.9), a tool call it made
# answered with an error (0.3). A turn that fails outright writes nothing, so its episode never
# exists; the work that failed is the structural error an episode can carry.
SURPRISE_WORK_ERROR = 0.9
SURPRISE_TOOL_ERROR = 0.3


def surprise(plan: Plan, activation: Activation) -> float:
    """How surprising the turn was: the strongest contradicting confidence times that belief's
    strength, raised to 0.9 when the turn's work failed and to 0.3 when a tool call it made
    failed (seed 002), whichever is largest (0 when nothing contradicted or failed)."""
    strengths = {b.id: b.strength for b in activation.beliefs}
    contradiction = max(
        (
            item.confidence * strengths.get(item.belief_id, 0.0)
            for item in (plan.evidence.items if plan.evidence else [])
            if item.stance == "contradicting"
        ),
        default=0.0,
    )
    return round(max(contradiction, error_surprise(plan.execution, plan.work_unit)), 3)


def error_surprise(execution: ExecutionResult | None, unit: WorkUnit | None) -> float:
    """Seed 002's structural surprise of work that failed: 0.3 for a tool call, 0.9 for other
    work; 0 when nothing failed."""
    if execution is None or execution.status != "failed":
        return 0.0
    return (
        SURPRISE_TOOL_ERROR if unit is not None and unit.call is not None else SURPRISE_WORK_ERROR
    )


def coherence_penalty(plan: Plan) -> float:
    """What the turn's failed tier-3 audit cost in coherence (0 when it passed or none ran)."""
    return float((plan.guardian.audit or {}).get("coherence_penalty", 0.0))


def turn_actions(plan: Plan) -> int:
    """Actions the turn took: judging evidence, proposing, executing, verifying (docs/memory.md §1:
    fewer than 2 makes the episode trivial)."""
    count = 1 if plan.evidence and plan.evidence.items else 0
    count += 1 if plan.work_unit is not None else 0
    count += 1 if plan.execution is not None else 0
    count += 1 if plan.verification is not None else 0
    return count
