"""The episode a turn (or a resumed turn) writes, as a row for
``cypher/episodes/create_episodes.cypher`` (via ``episodes.write_episodes_in``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from app.graph.client import Transaction
from app.graph.vectors import vector_param
from app.loop.models import TurnEvent
from app.loop.recording import TurnRecorder, usage_of
from app.memory.episodes import AGENT_SPEAKERS
from app.memory.people import micro_birth_properties
from app.memory.settings import MemoryMechanics


def is_person(speaker: str | None) -> bool:
    """A named speaker who is not the agent itself ("assistant", "system", ...)."""
    return speaker is not None and speaker.casefold() not in AGENT_SPEAKERS


def turn_episode_row(
    *,
    agent_id: str,
    episode_id: str,
    speaker: str | None,
    text: str,
    session: str | None,
    outcome: str,
    frame: str,
    actions: int,
    about: list[str],
    vector: list[float] | None,
    now: datetime,
    memory: MemoryMechanics,
    emotional_valence: float | None = None,
    surprise: float | None = None,
) -> dict[str, Any]:
    """One turn's episode: the person's words now, the response filled in when it is known;
    fewer than 2 actions make it trivial (kept, never consolidated)."""
    return {
        "id": episode_id,
        "external_id": None,
        "speaker": speaker or "user",
        "person": (
            micro_birth_properties(agent_id, speaker, memory, now)
            if speaker is not None and is_person(speaker)
            else None
        ),
        "text": text,
        "user_message": text,
        "response": None,
        "occurred_at": now,
        "session": session,
        "outcome": outcome,
        "emotional_valence": emotional_valence,
        "surprise": surprise,
        "frame": frame,
        "actions": actions,
        "trivial": actions < 2,
        "interference": 0,
        "embedding": vector_param(vector) if vector is not None else None,
        "about": about,
    }


async def finish_turn_episode_in(
    tx: Transaction,
    recorder: TurnRecorder,
    agent_id: str,
    episode_id: str,
    *,
    response: str,
    mode: str,
    dissatisfaction: float,
    revision_triggered: bool,
    frame: str,
    decision_id: str | None,
) -> None:
    """Writes the response and how the turn ran (with what its judgements cost) on its
    episode, then marks the respond phase and streams the response."""
    await tx.run(
        "loop/complete_turn_episode",
        agent_id=agent_id,
        episode_id=episode_id,
        turn={
            "response": response,
            "supervision_mode": mode,
            "dissatisfaction": dissatisfaction,
            "revision_triggered": revision_triggered,
            "frame": frame,
            "decision_id": decision_id,
            **usage_of(recorder),
        },
    )
    await recorder.phase("respond")
    await recorder.emit(TurnEvent(type="response", data={"text": response}))
