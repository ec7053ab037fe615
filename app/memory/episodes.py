"""Episodes (docs/memory.md §1): one Episode per turn or imported utterance, sessions with peak-end
salience, interference counting on insert, links to the people who spoke and the beliefs touched.

Import is a first-class use: a batch is validated whole, embedded in one batched call, written in
one transaction under the agent's lock, and idempotent on ``external_id`` (an item whose external
id the agent already holds is reported as ``existing`` and changes nothing). Its texts are read
(names, topics, dates, scored words: :func:`read_texts`) once, in a worker thread, before the
transaction: a batch of long texts never holds the event loop, and a retried transaction does
not read them again.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable, Iterator
from datetime import datetime
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    field_validator,
    model_validator,
)

from app.common import Instant, StrictNumber, StrictUnit, one_line
from app.embeddings.embedder import Embedder
from app.embeddings.store import EPISODE_EMBEDDING_SCHEME, store_vectors_in
from app.errors import InvalidInput, NotFound, PayloadTooLarge, error_entry, field_path
from app.graph.agent_scope import lock_agent, require_agent
from app.graph.batches import in_parts
from app.graph.client import GraphClient, Transaction
from app.graph.vectors import vector_param
from app.memory.episode_subjects import BatchSubjects, link_subjects_in, read_subjects
from app.memory.lexical_stats import add_episode_statistics, add_scored_words
from app.memory.people.micro_birth import micro_birth_properties
from app.memory.people.names import name_key
from app.memory.session_order import AGENT_SPEAKERS, OrderPlan, Placed, plan_order, search_text
from app.memory.settings import EpisodeWriting, MemoryMechanics
from app.text.dates import mentioned_dates

Outcome = Literal["success", "failure", "partial", "neutral"]
MAX_BATCH = 1000
# The most characters one import request may carry (every episode's speaker, text, user message
# and response together): reading them (names, topics, dates, scored words) is CPU work in a
# worker thread that grows with them, ~0.4 ms of a 2-core machine's CPU per 1,000 characters of
# chat-like prose and ~1.6 ms at worst (random capitalised words), so at most ~1.6 s for one
# request (bench/episode_import_loop.py --cap prints both; bench/README.md). A larger batch is
# refused whole (413): the client splits it.
MAX_BATCH_CHARS = 1_000_000
# The most characters of text one create_episodes query is given (a batch goes in parts: the
# driver encodes a query's parameters on the event loop, app/graph/batches.py in_parts).
EPISODE_CHARS_PER_QUERY = 1_000_000


class EpisodeIn(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    external_id: Annotated[str | None, Field(min_length=1, max_length=200)] = None
    speaker: Annotated[str, Field(min_length=1, max_length=200)]
    text: Annotated[str, Field(min_length=1, max_length=20000)]
    user_message: Annotated[str | None, Field(max_length=20000)] = None
    response: Annotated[str | None, Field(max_length=20000)] = None
    occurred_at: Instant | None = None
    session: Annotated[str | None, Field(min_length=1, max_length=200)] = None
    outcome: Outcome | None = None
    emotional_valence: Annotated[StrictNumber | None, Field(ge=-1.0, le=1.0)] = None
    surprise: StrictUnit | None = None
    frame: Annotated[str | None, Field(max_length=80)] = None
    # Actions taken in the turn; fewer than 2 makes the episode trivial (kept, not consolidated).
    actions: Annotated[StrictInt, Field(ge=0, le=10000)] = 0
    about: list[Annotated[str, Field(min_length=1, max_length=64)]] = Field(
        default_factory=list, max_length=50, description="Ids of beliefs the episode touched."
    )

    # The speaker becomes a person's name, shown in Claude's system prompt and the CLI.
    _one_line_speaker = field_validator("speaker")(one_line)


class EpisodeBatch(BaseModel):
    model_config = ConfigDict(extra="forbid")

    episodes: list[EpisodeIn] = Field(min_length=1, max_length=MAX_BATCH)
    end_sessions: StrictBool = Field(
        default=False, description="End the batch's sessions afterwards (peak-end salience)."
    )

    @model_validator(mode="after")
    def _unique_external_ids(self) -> EpisodeBatch:
        seen: dict[str, int] = {}
        for index, item in enumerate(self.episodes):
            if item.external_id is None:
                continue
            if item.external_id in seen:
                raise ValueError(
                    f"episodes[{index}].external_id: {item.external_id!r} repeats "
                    f"episodes[{seen[item.external_id]}]"
                )
            seen[item.external_id] = index
        return self


class ImportedEpisode(BaseModel):
    index: int
    id: str
    external_id: str | None
    status: Literal["created", "existing"]


class SessionEnd(BaseModel):
    session: str
    episodes: int
    peak_id: str | None
    end_id: str


class ImportReport(BaseModel):
    created: int
    existing: int
    episodes: list[ImportedEpisode]
    sessions_ended: list[SessionEnd]
    embedded: bool
    degraded: str | None = Field(
        default=None, description="Why episodes were stored without embeddings, when they were."
    )


def _in_batch_interference(
    vectors: list[list[float]], times: list[datetime], threshold: float
) -> list[int]:
    """Interference among the batch itself: of each pair at cosine ≥ threshold the older memory
    (by occurred_at, then batch order) gets + 1."""
    if len(vectors) < 2:
        return [0] * len(vectors)
    matrix = np.asarray(vectors, dtype=np.float32)
    similar = (matrix @ matrix.T) >= threshold
    np.fill_diagonal(similar, False)
    order = sorted(range(len(times)), key=lambda i: (times[i], i))
    rank = np.empty(len(times), dtype=np.int64)
    rank[order] = np.arange(len(times))
    newer = rank[None, :] > rank[:, None]  # newer[i, j]: j is newer than i
    return [int(n) for n in (similar & newer).sum(axis=1)]


async def import_episodes(
    graph: GraphClient,
    embedder: Embedder,
    retrieval: EpisodeWriting,
    agent_id: str,
    batch: EpisodeBatch,
    *,
    memory: MemoryMechanics | None = None,
) -> ImportReport:
    """Imports a batch of episodes whole (or nothing).

    Raises:
        AgentNotFound: no such agent.
        InvalidInput: an item names a belief the agent does not have (index and field named).
        PayloadTooLarge: the batch carries more than ``MAX_BATCH_CHARS`` characters.
    """
    items = batch.episodes
    _check_size(items)
    now = graph.clock.now()
    await check_beliefs(graph, agent_id, items)
    external_ids = [item.external_id for item in items if item.external_id is not None]
    known = await _existing(graph, agent_id, external_ids) if external_ids else {}
    fresh = [i for i, item in enumerate(items) if item.external_id not in known]
    rows = _episode_rows(agent_id, items, fresh, memory or MemoryMechanics(), now)
    # CPU work over every text (up to 1,000 × 60,000 characters): in a thread, and once.
    subjects = await asyncio.to_thread(read_texts, rows)
    # Embedded before the write, outside the agent's lock, in one batch; the write re-plans the
    # order under the lock and embeds again only what a concurrent write changed.
    embedded = await embed_planned(embedder, await plan_rows(graph.read, agent_id, rows))
    degraded = None if embedded is not None else embedder.status().reason
    _add_batch_interference(
        rows, embedded or {}, embedder.threshold(retrieval.interference_similarity)
    )

    async def work(tx: Transaction) -> dict[str, str]:
        await lock_agent(tx, agent_id)
        # Re-checked under the lock: a concurrent import may have written some of them.
        again = {
            row["external_id"]: row["id"]
            for row in await tx.run(
                "memory/episodes/find_existing",
                agent_id=agent_id,
                external_ids=[r["external_id"] for r in rows if r["external_id"] is not None],
            )
        }
        await write_episodes_in(
            tx,
            retrieval,
            embedder,
            agent_id,
            [r for r in rows if r["external_id"] not in again],
            embedded=embedded or {},
            subjects=subjects,
        )
        return again

    raced = await graph.write_transaction(work)
    known.update(raced)
    created_ids = {r["index"]: r["id"] for r in rows if r["external_id"] not in raced}
    report = _imported(items, created_ids, known)
    ended: list[SessionEnd] = []
    keys = sorted({item.session for item in items if item.session is not None})
    if batch.end_sessions and keys:
        # An item already held keeps the session it was stored in: a key only such an item
        # names has no episode and nothing to end (the batch was written: no 404 for it).
        ended = await end_sessions_with_episodes(graph, retrieval, agent_id, keys)
    created = sum(1 for r in report if r.status == "created")
    return ImportReport(
        created=created,
        existing=len(report) - created,
        episodes=report,
        sessions_ended=ended,
        embedded=embedded is not None and bool(fresh),
        degraded=degraded,
    )


def episode_chars(item: EpisodeIn) -> int:
    """The characters of an episode that its import reads: speaker, text, user message and
    response."""
    return (
        len(item.speaker) + len(item.text) + len(item.user_message or "") + len(item.response or "")
    )


def _check_size(items: list[EpisodeIn]) -> None:
    """Refuses a batch whose texts would take its import too long to read.

    Raises:
        PayloadTooLarge: the batch's characters and ``MAX_BATCH_CHARS``.
    """
    size = sum(episode_chars(item) for item in items)
    if size > MAX_BATCH_CHARS:
        raise PayloadTooLarge(
            "episodes (the speaker, text, user_message and response of every episode together)",
            size,
            MAX_BATCH_CHARS,
            "split the batch into smaller ones",
        )


def import_batches(items: list[EpisodeIn], most: int = MAX_BATCH) -> Iterator[list[EpisodeIn]]:
    """``items`` in order, in batches an import takes: at most ``most`` episodes and
    ``MAX_BATCH_CHARS`` characters each."""
    for part in in_parts(items, episode_chars, MAX_BATCH_CHARS):
        for start in range(0, len(part), most):
            yield part[start : start + most]


async def check_beliefs(graph: GraphClient, agent_id: str, items: list[EpisodeIn]) -> None:
    """Refuses the batch (or a whole log, before its first batch) when an item is about a
    belief the agent does not have.

    Raises:
        AgentNotFound: no such agent.
        InvalidInput: every such item and belief, by index.
    """
    belief_ids = sorted({bid for item in items for bid in item.about})
    if not belief_ids:
        return
    missing = {
        row["belief_id"]
        for row in await graph.read(
            "memory/episodes/find_missing_beliefs", agent_id=agent_id, belief_ids=belief_ids
        )
    }
    if missing:
        await require_agent(graph, agent_id)  # an unknown agent has no beliefs: a 404, not 422
        errors = [
            error_entry(
                ["body", "episodes", i, "about", j], f"no belief {bid!r} in this agent", "not_found"
            )
            for i, item in enumerate(items)
            for j, bid in enumerate(item.about)
            if bid in missing
        ]
        first = errors[0]
        where = field_path(first["location"][1:-1])  # episodes[1].about
        raise InvalidInput(f"{where}: {first['message']}", errors=errors, agent_id=agent_id)


def _episode_rows(
    agent_id: str,
    items: list[EpisodeIn],
    fresh: list[int],
    memory: MemoryMechanics,
    now: datetime,
) -> list[dict[str, Any]]:
    """The rows of the new episodes (``fresh`` indices), each speaker micro-born once; their
    vectors, order and interference are added later."""
    people: dict[str, dict[str, Any]] = {}
    rows: list[dict[str, Any]] = []
    for index in fresh:
        item = items[index]
        speaker_is_person = item.speaker.casefold() not in AGENT_SPEAKERS
        # The speaker's key is a person's name key (white space collapsed, lower case): "Bob
        # Jones" and "bob  jones" are one speaker, one person.
        key = name_key(item.speaker)
        if speaker_is_person and key not in people:
            person = micro_birth_properties(agent_id, item.speaker, memory, now)
            person["last_seen"] = None  # set from the episodes' own times
            people[key] = person
        rows.append(
            {
                **item.model_dump(exclude={"occurred_at"}),
                "id": str(uuid.uuid4()),
                "speaker_key": key,
                "occurred_at": item.occurred_at or now,
                "person": people[key] if speaker_is_person else None,
                "trivial": item.actions < 2,
                "interference": 0,
                "index": index,
            }
        )
    return rows


def _add_batch_interference(
    rows: list[dict[str, Any]], embedded: dict[str, Embedded], threshold: float
) -> None:
    """Counts the interference among the batch's own episodes (those with vectors)."""
    with_vectors = [row for row in rows if row["id"] in embedded]
    counts = _in_batch_interference(
        [embedded[row["id"]][1] for row in with_vectors],
        [row["occurred_at"] for row in with_vectors],
        threshold,
    )
    for row, count in zip(with_vectors, counts, strict=True):
        row["interference"] += count


def _imported(
    items: list[EpisodeIn], created_ids: dict[int, str], known: dict[str, str]
) -> list[ImportedEpisode]:
    """Each item's outcome in input order: created now, or already there (by external id)."""
    report: list[ImportedEpisode] = []
    for index, item in enumerate(items):
        if index in created_ids:
            episode_id, status = created_ids[index], "created"
        else:
            assert item.external_id is not None
            episode_id, status = known[item.external_id], "existing"
        report.append(
            ImportedEpisode(index=index, id=episode_id, external_id=item.external_id, status=status)
        )
    return report


Embedded = tuple[str, list[float]]  # the text embedded and its vector
Runner = Callable[..., Awaitable[list[dict[str, Any]]]]  # GraphClient.read or Transaction.run


async def plan_rows(run: Runner, agent_id: str, rows: list[dict[str, Any]]) -> OrderPlan:
    """Where new episode rows join their sessions (read with ``run``), each row given its
    search text."""
    for row in rows:
        row["search_text"] = search_text(row["speaker"], row["text"])
    since: dict[str, datetime] = {}
    for row in rows:
        if row["session"] is not None:
            key = row["session"]
            since[key] = min(since.get(key, row["occurred_at"]), row["occurred_at"])
    stored = (
        [
            Placed.from_row(found)
            for found in await run(
                "memory/episodes/session_order",
                agent_id=agent_id,
                sessions=[{"key": key, "since": at} for key, at in sorted(since.items())],
            )
        ]
        if since
        else []
    )
    arriving = [
        Placed(row["id"], row["session"], row["occurred_at"], position, row["search_text"])
        for position, row in enumerate(rows)
    ]
    return plan_order(stored, arriving)


async def embed_planned(
    embedder: Embedder, plan: OrderPlan, embedded: dict[str, Embedded] | None = None
) -> dict[str, Embedded] | None:
    """The vector of every text the plan needs, reusing those already ``embedded`` for the same
    text; None when embeddings do not work."""
    done = dict(embedded or {})
    missing = [(eid, text) for eid, text in plan.embed.items() if done.get(eid, ("",))[0] != text]
    if missing:
        vectors = await embedder.embed([text for _, text in missing])
        if vectors is None:
            return None
        done.update(
            {eid: (text, vector) for (eid, text), vector in zip(missing, vectors, strict=True)}
        )
    return {eid: done[eid] for eid in plan.embed}


def read_texts(rows: list[dict[str, Any]]) -> BatchSubjects:
    """What the write needs of new episode rows' texts, none of it from the graph: each row's
    ``search_text``, ``mentioned_dates`` (resolved against the day it was said,
    ``app/text/dates.py``) and scored words (``lexical_stats.add_scored_words``) are set on it;
    what they are about (``episode_subjects.read_subjects``, the batch's speakers as known
    names) is returned. Pure CPU work that grows with the texts: a caller with a batch runs it
    in a thread before its transaction (:func:`import_episodes`)."""
    for row in rows:
        row["search_text"] = search_text(row["speaker"], row["text"])
        row["mentioned_dates"] = mentioned_dates(row["text"], row["occurred_at"].date())
    add_scored_words(rows)
    return read_subjects(rows)


async def write_episodes_in(
    tx: Transaction,
    retrieval: EpisodeWriting,
    embedder: Embedder,
    agent_id: str,
    rows: list[dict[str, Any]],
    *,
    embedded: dict[str, Embedded] | None = None,
    defer_vectors: bool = False,
    subjects: BatchSubjects | None = None,
) -> dict[str, str]:
    """Creates episode rows (``cypher/memory/episodes/create_episodes.cypher``) inside the caller's
    transaction, which holds the agent lock: merges them into their sessions' order (``NEXT``
    edges, ``session_order.py``), counts their words into the agent's lexical statistics
    (``lexical_stats.py``), links them to the names and topics they mention
    (``episode_subjects.py``), stores the dates their text mentions (those three read from the
    texts by :func:`read_texts`, before the transaction when the caller passes ``subjects``),
    embeds what ``embedded`` does not already hold, counts their interference with the stored
    episodes (the older of each similar pair suffers), and gives the stored episodes whose
    previous turn changed their new vectors.

    Args:
        defer_vectors: write no vector (and so count no interference) now; the caller hands
            the returned texts to :func:`embed_deferred_episodes` once its transaction has
            committed.
        subjects: what :func:`read_texts` returned for these rows (or more), read before the
            transaction; when None the texts are read here (a turn's one episode).

    Returns:
        With ``defer_vectors``: the text each new episode's vector must embed, by episode id;
        else nothing.
    """
    if not rows:
        return {}
    if subjects is None:
        subjects = read_texts(rows)
    plan = await plan_rows(tx.run, agent_id, rows)
    new_ids = {row["id"] for row in rows}
    restitched = plan.restitched(new_ids)
    deferred = {eid: text for eid, text in plan.embed.items() if eid in new_ids}
    if defer_vectors:
        # Stored episodes whose previous turn changed (a turn arriving out of order, rare)
        # still get their new vectors now: only the new ones wait.
        now_embedded = {eid: plan.embed[eid] for eid in restitched}
        vectors = await embed_planned(embedder, OrderPlan(embed=now_embedded), embedded)
    else:
        vectors = await embed_planned(embedder, plan, embedded)
    for row in rows:
        row["seq"] = plan.seq[row["id"]]
        vector = vectors.get(row["id"]) if vectors else None
        row["embedding"] = vector_param(vector[1]) if vector else None
    await _add_stored_interference(tx, embedder, retrieval, agent_id, rows)
    # Before the create: statistics an older agent lacks are built from the episodes stored so far.
    await add_episode_statistics(tx, agent_id, rows)
    for part in in_parts(rows, _encoded_size, EPISODE_CHARS_PER_QUERY):
        await tx.run(
            "memory/episodes/create_episodes",
            agent_id=agent_id,
            episodes=part,
            scheme=EPISODE_EMBEDDING_SCHEME,
            embedding_model=embedder.model_id,
        )
    await link_subjects_in(tx, agent_id, rows, subjects)
    if plan.link or plan.unlink:  # none for episodes without a session, or a session's first
        await tx.run(
            "memory/episodes/link_session_order",
            agent_id=agent_id,
            unlink=[list(pair) for pair in plan.unlink],
            link=[list(pair) for pair in plan.link],
        )
    if vectors and restitched:
        await store_vectors_in(
            tx,
            agent_id,
            "Episode",
            [{"id": eid, "embedding": vector_param(vectors[eid][1])} for eid in restitched],
            embedder.model_id,
        )
    return deferred if defer_vectors else {}


def _encoded_size(row: dict[str, Any]) -> int:
    """About how many characters the driver encodes for an episode row: its texts, and its
    scored words at a few characters each."""
    texts = (row.get(field) or "" for field in ("text", "user_message", "response", "search_text"))
    return sum(len(text) for text in texts) + 8 * len(row.get("lexical_terms") or ())


async def embed_deferred_episodes(
    graph: GraphClient,
    retrieval: EpisodeWriting,
    embedder: Embedder,
    agent_id: str,
    texts: dict[str, str],
) -> int:
    """The vectors :func:`write_episodes_in` deferred (``texts``: what each episode's vector
    embeds, by id), stored under the agent's lock with the interference they bring, as the
    write would have counted it: each similar stored older episode gets + 1, the episode the
    count of similar newer ones. An episode that got a vector meanwhile (a later write
    restitched it) keeps it. Returns how many vectors were stored; 0 without embeddings (the
    episodes then wait for ``credence embed backfill``, as any episode written then does).
    """
    if not texts:
        return 0
    ids = list(texts)
    vectors = await embedder.embed([texts[eid] for eid in ids])
    if vectors is None:
        return 0

    async def work(tx: Transaction) -> int:
        await lock_agent(tx, agent_id)
        rows = [
            {"id": eid, "embedding": vector_param(vector)}
            for eid, vector in zip(ids, vectors, strict=True)
        ]
        waiting = await tx.run(
            "memory/episodes/find_episodes_without_vectors", agent_id=agent_id, ids=ids
        )
        pending = {row["id"]: row["occurred_at"] for row in waiting}
        rows = [row for row in rows if row["id"] in pending]
        if not rows:
            return 0
        newer = await tx.run(
            "memory/episodes/apply_interference",
            agent_id=agent_id,
            episodes=[row | {"occurred_at": pending[row["id"]]} for row in rows],
            k=retrieval.interference_neighbours,
            score_floor=(1.0 + embedder.threshold(retrieval.interference_similarity)) / 2.0,
            embedding_model=embedder.model_id,
        )
        extra = {row["id"]: int(row["newer_neighbours"]) for row in newer}
        stored = await tx.run(
            "memory/episodes/store_deferred_vectors",
            agent_id=agent_id,
            rows=[row | {"newer": extra.get(row["id"], 0)} for row in rows],
            scheme=EPISODE_EMBEDDING_SCHEME,
            embedding_model=embedder.model_id,
        )
        return int(stored[0]["stored"]) if stored else 0

    return await graph.write_transaction(work, action="storing deferred episode vectors")


async def _add_stored_interference(
    tx: Transaction,
    embedder: Embedder,
    retrieval: EpisodeWriting,
    agent_id: str,
    rows: list[dict[str, Any]],
) -> None:
    """Interference with the stored episodes: older similar ones get + 1 (in the database), each
    row the count of stored newer ones."""
    with_vectors = [
        {"id": r["id"], "occurred_at": r["occurred_at"], "embedding": r["embedding"]}
        for r in rows
        if r["embedding"] is not None
    ]
    if not with_vectors:
        return
    newer = await tx.run(
        "memory/episodes/apply_interference",
        agent_id=agent_id,
        episodes=with_vectors,
        k=retrieval.interference_neighbours,
        score_floor=(1.0 + embedder.threshold(retrieval.interference_similarity)) / 2.0,
        embedding_model=embedder.model_id,
    )
    extra = {row["id"]: int(row["newer_neighbours"]) for row in newer}
    for r in rows:
        r["interference"] += extra.get(r["id"], 0)


async def _existing(graph: GraphClient, agent_id: str, external_ids: list[str]) -> dict[str, str]:
    rows = await graph.read(
        "memory/episodes/find_existing", agent_id=agent_id, external_ids=external_ids
    )
    return {row["external_id"]: row["id"] for row in rows}


async def end_sessions(
    graph: GraphClient, retrieval: EpisodeWriting, agent_id: str, keys: list[str]
) -> list[SessionEnd]:
    """Ends the sessions: peak-end salience for their episodes.

    Raises:
        NotFound: a session key the agent does not have.
    """
    ended = await end_sessions_with_episodes(graph, retrieval, agent_id, keys)
    found = {end.session for end in ended}
    missing = [key for key in keys if key not in found]
    if missing:
        raise NotFound(
            f"no session {missing[0]!r} with episodes in agent {agent_id!r}",
            sessions=missing,
            agent_id=agent_id,
        )
    return ended


async def end_sessions_with_episodes(
    graph: GraphClient, retrieval: EpisodeWriting, agent_id: str, keys: list[str]
) -> list[SessionEnd]:
    """Ends those of the sessions that have episodes (peak-end salience) and returns them."""
    salience = {
        "peak": retrieval.salience_peak,
        "end": retrieval.salience_end,
        "plain": retrieval.salience_plain,
    }

    async def work(tx: Transaction) -> list[dict[str, Any]]:
        await lock_agent(tx, agent_id)
        return await tx.run(
            "memory/episodes/end_sessions", agent_id=agent_id, keys=keys, salience=salience
        )

    rows = await graph.write_transaction(work)
    return [SessionEnd.model_validate(row) for row in rows]


async def list_episodes(
    graph: GraphClient,
    agent_id: str,
    *,
    session: str | None = None,
    speaker: str | None = None,
    skip: int = 0,
    limit: int = 50,
) -> list[dict[str, Any]]:
    rows = await graph.read(
        "memory/episodes/list_episodes",
        agent_id=agent_id,
        session=session,
        speaker_key=None if speaker is None else name_key(speaker),
        skip=skip,
        limit=limit,
    )
    if not rows:
        await require_agent(graph, agent_id)
    return [row["episode"] for row in rows]


async def get_episode(graph: GraphClient, agent_id: str, episode_id: str) -> dict[str, Any]:
    rows = await graph.read("memory/episodes/get_episode", agent_id=agent_id, id=episode_id)
    if not rows:
        await require_agent(graph, agent_id)
        raise NotFound(
            f"episode {episode_id!r} does not exist in agent {agent_id!r}",
            episode_id=episode_id,
            agent_id=agent_id,
        )
    row = rows[0]
    return {**row["episode"], "people": row["people"], "about": row["about"]}
