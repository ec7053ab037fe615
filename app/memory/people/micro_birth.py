"""A person born from a mention (docs/memory.md §2): the first time a name is met, in a message
or an imported episode, a person is created with what little is known (birth source ``micro``);
and a person met in a turn: found or micro-born, one interaction counted, their affect read."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from app.common import utc_now
from app.graph.agent_scope import lock_agent
from app.graph.client import GraphClient, Transaction
from app.memory.people.formulas import affect_after, interaction_frequency_after
from app.memory.people.models import MetPerson, MicroBirth
from app.memory.people.names import name_key
from app.memory.people.store import (
    insert_person_in,
    new_person,
    person_from_row,
    stored_properties,
    validated_create,
    write_person_in,
)
from app.memory.settings import MemoryMechanics


def micro_birth_properties(
    agent_id: str, name: str, mechanics: MemoryMechanics, now: datetime
) -> dict[str, Any]:
    """The property map of a person micro-born with ``name`` (for writers that create people in
    bulk inside their own statement, such as the episode import): role and seniority unknown,
    authority 0.5, frequency 0, context relevance ``micro_birth_context_relevance`` (0.5), birth
    source ``micro``.

    Raises:
        InvalidInput: the name is blank or too long.
    """
    data = validated_create(
        {"name": name, "context_relevance": mechanics.micro_birth_context_relevance}
    )
    return stored_properties(new_person(agent_id, data, "micro", now), mechanics)


async def micro_birth(
    graph: GraphClient,
    agent_id: str,
    name: str,
    *,
    mechanics: MemoryMechanics | None = None,
    now: datetime | None = None,
) -> MicroBirth:
    """The person called ``name`` (any case), micro-born on first mention (docs/memory.md §2).

    A new person has role and seniority ``unknown`` (authority 0.5), interaction frequency 0,
    context relevance ``micro_birth_context_relevance`` (0.5, seed 000) and birth source
    ``micro``. Idempotent, also under concurrency: the
    look-up and the creation happen under the agent's lock.

    Raises:
        AgentNotFound: no such agent.
        InvalidInput: the name is blank or too long.
    """
    mechanics = mechanics or MemoryMechanics()
    at = utc_now(now)
    data = validated_create(
        {"name": name, "context_relevance": mechanics.micro_birth_context_relevance}
    )

    async def work(tx: Transaction) -> MicroBirth:
        await lock_agent(tx, agent_id)
        rows = await tx.run(
            "memory/people/find_person_by_name", agent_id=agent_id, name_key=name_key(data.name)
        )
        if rows and rows[0]["person"] is not None:
            return MicroBirth(person=person_from_row(rows[0]["person"]), created=False)
        person = new_person(agent_id, data, "micro", at)
        return MicroBirth(person=await insert_person_in(tx, person, mechanics, at), created=True)

    return await graph.write_transaction(work, action="micro-birth of a person")


async def meet_in(
    tx: Transaction,
    agent_id: str,
    name: str,
    text: str | None,
    mechanics: MemoryMechanics,
    now: datetime,
) -> MetPerson:
    """Inside the caller's transaction (holding the agent lock): the person called ``name``,
    micro-born when new; one interaction counted and, when ``text`` is theirs, the affect cues
    in it applied (one write).

    Raises:
        InvalidInput: the name is blank or too long.
    """
    data = validated_create(
        {"name": name, "context_relevance": mechanics.micro_birth_context_relevance}
    )
    rows = await tx.run(
        "memory/people/find_person_by_name", agent_id=agent_id, name_key=name_key(data.name)
    )
    created = not rows or rows[0]["person"] is None
    current = (
        await insert_person_in(tx, new_person(agent_id, data, "micro", now), mechanics, now)
        if created
        else person_from_row(rows[0]["person"])
    )
    frustration: list[str] = []
    praise: list[str] = []
    affect = current.affect
    if text is not None:
        affect, frustration, praise = affect_after(current.affect, text, mechanics)
    frequency = interaction_frequency_after(
        current.interaction_frequency, None if created else current.last_seen, now, mechanics
    )
    updated = current.model_copy(
        update={
            "affect": affect,
            "interaction_frequency": frequency,
            "interaction_count": current.interaction_count + 1,
            "last_seen": now if current.last_seen is None else max(now, current.last_seen),
        }
    )
    person = await write_person_in(tx, updated, mechanics)
    return MetPerson(
        person=person, created=created, frustration_cues=frustration, praise_cues=praise
    )
