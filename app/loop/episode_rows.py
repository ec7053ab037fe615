"""The episode a turn (or a resumed turn) writes, as a row for
``cypher/episodes/create_episodes.cypher`` (via ``episodes.write_episodes_in``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from app.graph.vectors import vector_param
from app.memory.episodes import AGENT_SPEAKERS
from app.memory.memory_mechanics import MemoryMechanics
from app.memory.people import micro_birth_properties


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
