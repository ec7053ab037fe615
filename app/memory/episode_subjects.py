"""Episodes linked to what they are about (``cypher/memory/episode_subjects/``): the people
and places a turn names, its speaker, and its topics (``app/text/entities.py``), as
``MENTIONS`` edges to the agent's ``:Subject`` nodes (a topic's edge keeps the word's form in
that episode), written in the transaction that writes the episodes. The episode search follows
them back (``app/retrieval/coverage.py``) to gather every turn about the question's subjects,
whichever session it was said in.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from app.graph.batches import in_locked_batches, in_parts
from app.graph.client import GraphClient, Transaction
from app.memory.people.names import KnownNames
from app.memory.session_order import ROLE_SPEAKERS
from app.text.entities import Entity, entities
from app.text.lexical import document_text

UNLINKED_BATCH = 500
# The most MENTIONS edges one link query is given (a batch's subjects go in parts).
LINKS_PER_QUERY = 20_000


def names_in(text: str, speakers: Sequence[str] | KnownNames = ()) -> list[str]:
    """The names ``text`` says (the people finder; ``speakers`` are known names, so that one
    found at a sentence start is not read together with the word before it; indexed once
    (:func:`speaker_names`) to read many texts)."""
    finder = speakers if isinstance(speakers, KnownNames) else speaker_names(speakers)
    return [mention.name for mention in finder.mentions(text)]


def speaker_names(speakers: Iterable[str]) -> KnownNames:
    """Speakers' names as the people finder's known names."""
    return KnownNames((name, name) for name in speakers)


def episode_subjects(
    text: str, speaker: str | None, speakers: Sequence[str] | KnownNames = ()
) -> list[Entity]:
    """What an episode is about: its speaker (unless named by a role only: "user", "agent"), the
    names it says and its topics."""
    said = [speaker] if speaker and speaker.lower() not in ROLE_SPEAKERS else []
    return entities(text, [*said, *names_in(text, speakers)])


@dataclass(frozen=True)
class BatchSubjects:
    """What a batch of episodes is about (:func:`read_subjects`): the link query's subjects for
    the whole batch (``ids``, in its order)."""

    ids: tuple[str, ...]
    subjects: list[dict[str, Any]]

    def of(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The subjects of ``rows``, some or all of the batch (an import may find some of its
        episodes written meanwhile): those of the batch, each with the episodes of ``rows``."""
        ids = [row["id"] for row in rows]
        if tuple(ids) == self.ids:
            return self.subjects
        written = set(ids)
        kept = (
            {**subject, "episodes": [e for e in subject["episodes"] if e["id"] in written]}
            for subject in self.subjects
        )
        return [subject for subject in kept if subject["episodes"]]


def read_subjects(rows: Iterable[dict[str, Any]]) -> BatchSubjects:
    """What the episodes ``rows`` (with ``id``, ``text``, ``speaker`` and, for turns of the loop,
    ``user_message`` / ``response``) are about, each text read with the batch's speakers as
    known names: each subject once, with the episodes that mention it (each episode's id and,
    for a topic, the word's form in that episode: ``surface``; None for a name), by key. Pure,
    and CPU work that grows with the texts (regular expressions over each): a batch's caller
    runs it off the event loop, before its transaction."""
    rows = list(rows)
    speakers = sorted({str(r["speaker"]) for r in rows if r.get("speaker")} - ROLE_SPEAKERS)
    known = speaker_names(speakers)
    subjects: dict[str, dict[str, Any]] = {}
    for row in rows:
        text = document_text(row.get("text"), row.get("user_message"), row.get("response"))
        for subject in episode_subjects(text, row.get("speaker"), known):
            entry = subjects.setdefault(
                subject.key, {"key": subject.key, "kind": subject.kind, "episodes": []}
            )
            entry["episodes"].append({"id": row["id"], "surface": subject.surface})
    return BatchSubjects(
        tuple(row["id"] for row in rows), [subjects[key] for key in sorted(subjects)]
    )


async def link_subjects_in(
    tx: Transaction,
    agent_id: str,
    rows: Iterable[dict[str, Any]],
    found: BatchSubjects | None = None,
) -> None:
    """Links written episodes (rows with ``id``, ``text``, ``speaker`` and, for turns of the
    loop, ``user_message`` / ``response``) to their subjects, inside the caller's transaction
    (which holds the agent's lock). ``found``: what they are about, read before the transaction
    (:func:`read_subjects`); the texts are read here when None. The subjects go in parts of at
    most ``LINKS_PER_QUERY`` mentions (app/graph/batches.py ``in_parts``)."""
    rows = list(rows)
    subjects = (found if found is not None else read_subjects(rows)).of(rows)
    for part in in_parts(subjects, _mentions, LINKS_PER_QUERY):
        await tx.run(
            "memory/episode_subjects/link_episode_subjects", agent_id=agent_id, subjects=part
        )


def _mentions(subject: dict[str, Any]) -> int:
    return 1 + len(subject["episodes"])


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
            for subject in read_subjects(rows).subjects
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
