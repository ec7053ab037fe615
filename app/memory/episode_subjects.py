"""Episodes linked to what they are about (``cypher/memory/episode_subjects/``): the people
and places a turn names, its speaker, and its topics (``app/text/entities.py``), as
``MENTIONS`` edges to the agent's ``:Subject`` nodes (a topic's edge keeps the word's form in
that episode), written in the transaction that writes the episodes. The episode search follows
them back (``app/retrieval/coverage.py``) to gather every turn about the question's subjects,
whichever session it was said in.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from app.graph.batches import in_locked_batches
from app.graph.client import GraphClient, Transaction
from app.memory.people.names import find_mentions
from app.memory.session_order import ROLE_SPEAKERS
from app.text.entities import Entity, entities
from app.text.lexical import document_text

UNLINKED_BATCH = 500


def names_in(text: str, speakers: Sequence[str] = ()) -> list[str]:
    """The names ``text`` says (the people finder; ``speakers`` are known names, so that one
    found at a sentence start is not read together with the word before it)."""
    known = [(name, name) for name in speakers]
    return [mention.name for mention in find_mentions(text, known)]


def episode_subjects(text: str, speaker: str | None, speakers: Sequence[str] = ()) -> list[Entity]:
    """What an episode is about: its speaker (unless named by a role only: "user", "agent"), the
    names it says and its topics."""
    said = [speaker] if speaker and speaker.lower() not in ROLE_SPEAKERS else []
    return entities(text, [*said, *names_in(text, speakers)])


def _subjects(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each subject of the episodes ``rows`` once, with those that mention it: each episode's
    id and, for a topic, the word's form in that episode (``surface``; None for a name)."""
    rows = list(rows)
    speakers = sorted({str(r["speaker"]) for r in rows if r.get("speaker")} - ROLE_SPEAKERS)
    found: dict[str, dict[str, Any]] = {}
    for row in rows:
        text = document_text(row.get("text"), row.get("user_message"), row.get("response"))
        for subject in episode_subjects(text, row.get("speaker"), speakers):
            entry = found.setdefault(
                subject.key, {"key": subject.key, "kind": subject.kind, "episodes": []}
            )
            entry["episodes"].append({"id": row["id"], "surface": subject.surface})
    return [found[key] for key in sorted(found)]


async def link_subjects_in(tx: Transaction, agent_id: str, rows: Iterable[dict[str, Any]]) -> None:
    """Links written episodes (rows with ``id``, ``text``, ``speaker`` and, for turns of the
    loop, ``user_message`` / ``response``) to their subjects, inside the caller's transaction
    (which holds the agent's lock)."""
    subjects = _subjects(rows)
    if subjects:
        await tx.run(
            "memory/episode_subjects/link_episode_subjects", agent_id=agent_id, subjects=subjects
        )


async def link_stored_episodes(graph: GraphClient, agent_id: str) -> int:
    """Links the agent's stored episodes that mention no subject yet (episodes written before
    subjects were kept), in batches under the agent's lock; returns how many were read."""

    async def step(tx: Transaction, after: str) -> tuple[int, str | None]:
        rows = await tx.run(
            "memory/episode_subjects/list_unlinked_episodes",
            agent_id=agent_id,
            after=after,
            limit=UNLINKED_BATCH,
        )
        await link_subjects_in(tx, agent_id, rows)
        return len(rows), _next_after(rows)

    return await in_locked_batches(graph, agent_id, step, action="linking episode subjects")


async def fill_topic_surfaces(graph: GraphClient, agent_id: str) -> int:
    """Gives the topic edges of the agent's episodes linked before word forms were kept their
    episode's form of the word, in batches under the agent's lock; returns how many edges got
    one. Idempotent: an edge with a form keeps it."""

    async def step(tx: Transaction, after: str) -> tuple[int, str | None]:
        rows = await tx.run(
            "memory/episode_subjects/list_episodes_without_surfaces",
            agent_id=agent_id,
            after=after,
            limit=UNLINKED_BATCH,
        )
        mentions = [
            {"episode": episode["id"], "key": subject["key"], "surface": episode["surface"]}
            for subject in _subjects(rows)
            for episode in subject["episodes"]
            if episode["surface"] is not None
        ]
        if not mentions:
            return 0, _next_after(rows)
        [done] = await tx.run(
            "memory/episode_subjects/set_topic_surfaces", agent_id=agent_id, mentions=mentions
        )
        return int(done["filled"]), _next_after(rows)

    return await in_locked_batches(graph, agent_id, step, action="keeping topic word forms")


def _next_after(rows: list[dict[str, Any]]) -> str | None:
    """The cursor after a batch listed by episode id: its last id, or None when the batch was
    short (nothing is left)."""
    return str(rows[-1]["id"]) if len(rows) >= UNLINKED_BATCH else None
