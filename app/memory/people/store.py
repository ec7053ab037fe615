"""Reading and writing people: create, read, find by name, list, edit, count an interaction,
apply the affect cues of a text, and the people a text mentions.

Storage choices:

* ``affect`` is three flat properties (``affect_valence``, ``affect_arousal``, ``affect_stress``):
  they are numbers that Cypher sorts and filters on ("who is stressed?") and that Browser shows.
* ``preferences`` is one JSON string: its keys are open-ended, Neo4j has no nested maps, and it
  is always read and written whole, never queried by key. Flat ``pref_<key>`` properties would
  need a property name per user key (identifier checks, an open-ended schema) for no query gain.
* the user model the loop keeps (``knowledge`` per domain, ``trust_history``,
  ``inferred_goals``, ``successful_patterns``) is one JSON string each, for the same reasons:
  nested, always read and written whole with the person (app/memory/people/user_model.py).
  Topics are not stored: they are read from the subjects the person's episodes mention.
* ``name_key`` (the lower-cased name) makes case-insensitive look-ups an index seek; episode
  import micro-births speakers on the same key.
* aliases (docs/memory.md §2) are two aligned lists: ``alias_keys`` (what the look-ups match)
  and ``alias_names`` (the same names as written, what is shown and what a mention carries).

Every write runs under the agent's lock and recomputes ``relationship_value`` from the values it
writes, so the stored value is never stale.
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from app.common import utc_now
from app.errors import AgentNotFound, InvalidInput, PersonNotFound, error_entry, validation_entries
from app.graph.agent_scope import lock_agent
from app.graph.client import GraphClient, Transaction
from app.memory.people.formulas import (
    affect_after,
    authority_for,
    interaction_frequency_after,
    relationship_value,
)
from app.memory.people.models import (
    MAX_PREFERENCES,
    Affect,
    AffectResult,
    BirthSource,
    Mention,
    Person,
    PersonCreate,
    PersonPage,
    PersonSort,
    PersonUpdate,
    Topic,
)
from app.memory.people.name_index import known_names
from app.memory.people.names import name_key
from app.memory.people.user_model import with_trust_change
from app.memory.settings import MemoryMechanics


def person_from_row(row: dict[str, Any]) -> Person:
    """A Person from its stored properties (tolerates people micro-born by other writers)."""
    preferences = row.get("preferences")
    return Person(
        id=row["id"],
        agent_id=row["agent_id"],
        name=row["name"],
        email=row.get("email"),
        role=row.get("role") or "unknown",
        seniority=row.get("seniority") or "unknown",
        authority=_float_or(row.get("authority"), 0.5),
        interaction_frequency=float(row.get("interaction_frequency") or 0.0),
        interaction_count=int(row.get("interaction_count") or 0),
        context_relevance=float(row.get("context_relevance") or 0.0),
        relationship_value=float(row.get("relationship_value") or 0.0),
        trust=_float_or(row.get("trust"), 0.5),
        affect=Affect(
            valence=float(row.get("affect_valence") or 0.0),
            arousal=float(row.get("affect_arousal") or 0.0),
            stress=float(row.get("affect_stress") or 0.0),
        ),
        knowledge_level=row.get("knowledge_level") or "unknown",
        preferences=json.loads(preferences) if preferences else {},
        birth_source=row.get("birth_source") or "micro",
        created_at=row.get("created_at"),
        last_seen=row.get("last_seen"),
        knowledge=_json(row.get("knowledge"), {}),
        trust_history=_json(row.get("trust_history"), []),
        inferred_goals=_json(row.get("inferred_goals"), []),
        successful_patterns=_json(row.get("successful_patterns"), []),
        aliases=aliases_of(row),
    )


def aliases_of(row: dict[str, Any]) -> list[str]:
    """A person's aliases as written (``alias_names``, kept in the order of ``alias_keys``);
    an alias stored before the written names were kept is shown as its key."""
    keys = list(row.get("alias_keys") or [])
    names = list(row.get("alias_names") or [])
    return [names[i] if i < len(names) and names[i] else key for i, key in enumerate(keys)]


def _json(value: Any, empty: Any) -> Any:
    return json.loads(value) if value else empty


def _dumped(items: Any) -> str:
    return json.dumps(items, ensure_ascii=False, sort_keys=True, default=str)


def _float_or(value: Any, default: float) -> float:
    return default if value is None else float(value)


def stored_properties(person: Person, mechanics: MemoryMechanics) -> dict[str, Any]:
    """The property map written for ``person`` (authority and relationship value recomputed)."""
    authority = authority_for(person.seniority, mechanics)
    return {
        "name": person.name,
        "name_key": name_key(person.name),
        "email": person.email,
        "role": person.role,
        "seniority": person.seniority,
        "authority": authority,
        "interaction_frequency": person.interaction_frequency,
        "interaction_count": person.interaction_count,
        "context_relevance": person.context_relevance,
        "relationship_value": relationship_value(
            authority, person.interaction_frequency, person.context_relevance, mechanics
        ),
        "trust": person.trust,
        "affect_valence": person.affect.valence,
        "affect_arousal": person.affect.arousal,
        "affect_stress": person.affect.stress,
        "knowledge_level": person.knowledge_level,
        "preferences": json.dumps(person.preferences, ensure_ascii=False, sort_keys=True),
        "birth_source": person.birth_source,
        "last_seen": person.last_seen,
        "knowledge": _dumped(
            {domain: k.model_dump(mode="json") for domain, k in person.knowledge.items()}
        ),
        "trust_history": _dumped([c.model_dump(mode="json") for c in person.trust_history]),
        "inferred_goals": _dumped([g.model_dump(mode="json") for g in person.inferred_goals]),
        "successful_patterns": _dumped(
            [p.model_dump(mode="json") for p in person.successful_patterns]
        ),
    }


def new_person(
    agent_id: str, data: PersonCreate, birth_source: BirthSource, now: datetime
) -> Person:
    return Person(
        id=str(uuid.uuid4()),
        agent_id=agent_id,
        name=" ".join(data.name.split()),
        email=data.email,
        role=data.role,
        seniority=data.seniority,
        authority=0.0,  # recomputed by stored_properties
        interaction_frequency=data.interaction_frequency,
        interaction_count=0,
        context_relevance=data.context_relevance,
        relationship_value=0.0,  # recomputed by stored_properties
        trust=data.trust,
        affect=data.affect,
        knowledge_level=data.knowledge_level,
        preferences=dict(data.preferences),
        birth_source=birth_source,
        created_at=now,
        last_seen=now,
    )


async def insert_person_in(
    tx: Transaction, person: Person, mechanics: MemoryMechanics, now: datetime
) -> Person:
    rows = await tx.run(
        "memory/people/create_person",
        agent_id=person.agent_id,
        person_id=person.id,
        person=stored_properties(person, mechanics),
        now=now,
    )
    return person_from_row(rows[0]["person"])


async def read_person_in(tx: Transaction, agent_id: str, person_id: str) -> Person:
    rows = await tx.run("memory/people/get_person", agent_id=agent_id, person_id=person_id)
    if not rows:
        raise AgentNotFound(agent_id)
    if rows[0]["person"] is None:
        raise PersonNotFound(person_id, agent_id)
    return person_from_row(rows[0]["person"])


async def write_person_in(tx: Transaction, person: Person, mechanics: MemoryMechanics) -> Person:
    rows = await tx.run(
        "memory/people/update_person",
        agent_id=person.agent_id,
        person_id=person.id,
        changes=stored_properties(person, mechanics),
    )
    return person_from_row(rows[0]["person"])


async def create_person(
    graph: GraphClient,
    agent_id: str,
    data: PersonCreate,
    *,
    birth_source: BirthSource = "api",
    mechanics: MemoryMechanics | None = None,
    now: datetime | None = None,
) -> Person:
    """Creates a person (always a new one; two people may share a name).

    Args:
        birth_source: ``api`` for the REST API, ``full`` for full birth, ``micro`` for a mention.

    Raises:
        AgentNotFound: no such agent.
    """
    mechanics = mechanics or MemoryMechanics()
    at = utc_now(now)
    person = new_person(agent_id, data, birth_source, at)

    async def work(tx: Transaction) -> Person:
        await lock_agent(tx, agent_id)
        return await insert_person_in(tx, person, mechanics, at)

    return await graph.write_transaction(work, action="creating a person")


async def get_person(
    graph: GraphClient,
    agent_id: str,
    person_id: str,
    *,
    mechanics: MemoryMechanics | None = None,
) -> Person:
    """One person of the agent, with the topics of their turns (the subjects their latest
    ``topic_episodes`` episodes mention, counted, most recent first, at most ``topics_shown``).

    Raises:
        AgentNotFound: no such agent.
        PersonNotFound: no such person for this agent.
    """
    mechanics = mechanics or MemoryMechanics()

    async def work(tx: Transaction) -> Person:
        person = await read_person_in(tx, agent_id, person_id)
        if mechanics.topics_shown == 0:
            return person
        rows = await tx.run(
            "memory/people/list_person_topics",
            agent_id=agent_id,
            person_id=person_id,
            episodes=mechanics.topic_episodes,
            limit=mechanics.topics_shown,
        )
        return person.model_copy(update={"topics": [Topic.model_validate(r) for r in rows]})

    return await graph.read_transaction(work, action="reading a person")


async def find_person(graph: GraphClient, agent_id: str, name: str) -> Person | None:
    """The person called ``name`` (any case; the oldest if several share it), or None.

    Raises:
        AgentNotFound: no such agent.
    """

    rows = await graph.read(
        "memory/people/find_person_by_name", agent_id=agent_id, name_key=name_key(name)
    )
    if not rows:
        raise AgentNotFound(agent_id)
    return person_from_row(rows[0]["person"]) if rows[0]["person"] is not None else None


async def list_people(
    graph: GraphClient,
    agent_id: str,
    *,
    text: str | None = None,
    sort: PersonSort = "relationship",
    skip: int = 0,
    limit: int = 50,
) -> PersonPage:
    """A page of the agent's people: by relationship value (default), most recently seen, or name.

    Raises:
        AgentNotFound: no such agent.
    """
    rows = await graph.read(
        "memory/people/list_people",
        agent_id=agent_id,
        text=text.lower() if text else None,
        sort=sort,
        skip=skip,
        limit=limit,
    )
    if not rows:
        raise AgentNotFound(agent_id)
    return PersonPage(data=[person_from_row(p) for p in rows[0]["people"]], count=rows[0]["count"])


async def update_person(
    graph: GraphClient,
    agent_id: str,
    person_id: str,
    changes: PersonUpdate,
    *,
    mechanics: MemoryMechanics | None = None,
    now: datetime | None = None,
) -> Person:
    """Applies a partial edit (see :class:`PersonUpdate`); a change of trust is recorded in
    the person's trust history (cause ``edit``).

    Raises:
        AgentNotFound: no such agent.
        PersonNotFound: no such person.
        InvalidInput: the merged preferences would exceed the size limit.
    """
    mechanics = mechanics or MemoryMechanics()
    at = utc_now(now)
    given = changes.model_fields_set

    async def work(tx: Transaction) -> Person:
        await lock_agent(tx, agent_id)
        current = await read_person_in(tx, agent_id, person_id)
        fields: dict[str, Any] = {
            name: getattr(changes, name)
            for name in given
            if name not in ("affect", "preferences", "name")
        }
        if "name" in given and changes.name is not None:
            fields["name"] = " ".join(changes.name.split())
        if changes.affect is not None:
            fields["affect"] = current.affect.model_copy(
                update=changes.affect.model_dump(exclude_none=True)
            )
        if changes.preferences is not None:
            merged = dict(current.preferences)
            for key, value in changes.preferences.items():
                if value is None:
                    merged.pop(key, None)
                else:
                    merged[key] = value
            if len(merged) > MAX_PREFERENCES:
                raise InvalidInput(
                    f"preferences would hold {len(merged)} keys (at most {MAX_PREFERENCES})",
                    errors=[error_entry(["body", "preferences"], "too many keys", "too_long")],
                )
            fields["preferences"] = merged
        updated = current.model_copy(update=fields)
        if changes.trust is not None:
            # An edit of trust is a change like any other: recorded with its reason.
            updated = with_trust_change(
                updated.model_copy(update={"trust": current.trust}),
                "edit",
                changes.trust,
                "set through the API",
                None,
                at,
                mechanics,
            )
        return await write_person_in(tx, updated, mechanics)

    return await graph.write_transaction(work, action="updating a person")


async def record_interaction(
    graph: GraphClient,
    agent_id: str,
    person_id: str,
    *,
    mechanics: MemoryMechanics | None = None,
    now: datetime | None = None,
) -> Person:
    """Counts one interaction at ``now``: frequency by :func:`interaction_frequency_after`,
    ``interaction_count`` + 1, ``last_seen`` = now, relationship value recomputed.

    Raises:
        AgentNotFound: no such agent.
        PersonNotFound: no such person.
    """
    mechanics = mechanics or MemoryMechanics()
    at = utc_now(now)

    async def work(tx: Transaction) -> Person:
        await lock_agent(tx, agent_id)
        current = await read_person_in(tx, agent_id, person_id)
        frequency = interaction_frequency_after(
            current.interaction_frequency, current.last_seen, at, mechanics
        )
        last_seen = at if current.last_seen is None else max(at, current.last_seen)
        updated = current.model_copy(
            update={
                "interaction_frequency": frequency,
                "interaction_count": current.interaction_count + 1,
                "last_seen": last_seen,
            }
        )
        return await write_person_in(tx, updated, mechanics)

    return await graph.write_transaction(work, action="recording an interaction")


async def apply_affect(
    graph: GraphClient,
    agent_id: str,
    person_id: str,
    text: str,
    *,
    mechanics: MemoryMechanics | None = None,
) -> AffectResult:
    """Reads the person's affect cues in ``text`` (see :func:`affect_after`) and stores the result.

    Raises:
        AgentNotFound: no such agent.
        PersonNotFound: no such person.
    """
    mechanics = mechanics or MemoryMechanics()

    async def work(tx: Transaction) -> AffectResult:
        await lock_agent(tx, agent_id)
        current = await read_person_in(tx, agent_id, person_id)
        affect, frustration, praise = affect_after(current.affect, text, mechanics)
        if affect == current.affect:
            return AffectResult(
                person=current, frustration_cues=frustration, praise_cues=praise, changed=False
            )
        person = await write_person_in(tx, current.model_copy(update={"affect": affect}), mechanics)
        return AffectResult(
            person=person, frustration_cues=frustration, praise_cues=praise, changed=True
        )

    return await graph.write_transaction(work, action="applying affect cues")


async def mentioned_people(graph: GraphClient, agent_id: str, text: str) -> list[Mention]:
    """The people named in ``text``: known ones with their id, others as new capitalised names
    (see :func:`app.memory.people.names.find_mentions`; the agent's index is kept between calls:
    :mod:`app.memory.people.name_index`). Nothing is written; micro-birth the unknown ones if
    wanted.

    Raises:
        AgentNotFound: no such agent.
    """
    rows = await graph.read("memory/people/list_person_names", agent_id=agent_id)
    if not rows:
        raise AgentNotFound(agent_id)
    return known_names(agent_id, [(p["id"], p["name"]) for p in rows[0]["people"]]).mentions(text)


def validated_create(data: dict[str, Any]) -> PersonCreate:
    try:
        return PersonCreate.model_validate(data)
    except ValidationError as error:
        problems = validation_entries(error.errors())
        raise InvalidInput(f"invalid person: {problems[0]['message']}", errors=problems) from None
