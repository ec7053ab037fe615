"""Removing a person (docs/memory.md §2): deleting one the agent should forget, or merging two
Person nodes that are one human. Each is one write transaction under the agent's lock; the
agent's kept name index (:mod:`app.memory.people.name_index`) is dropped after, so no deleted
name stays in memory."""

from __future__ import annotations

from pydantic import BaseModel

from app.errors import InvalidInput, PersonNotFound, error_entry
from app.graph.agent_scope import lock_agent
from app.graph.client import GraphClient, Transaction
from app.memory.people.merging import merged_person
from app.memory.people.models import Person
from app.memory.people.name_index import forget_names
from app.memory.people.store import person_from_row, read_person_in, stored_properties
from app.memory.settings import MemoryMechanics


class PersonDeletion(BaseModel):
    """What deleting a person did."""

    id: str
    name: str
    episodes_unlinked: int


class PersonMerger(BaseModel):
    """What merging a person into another did: the survivor as it is now, the id of the person
    merged into it (deleted), and how many of their episodes moved to the survivor."""

    person: Person
    merged_id: str
    episodes_moved: int


async def delete_person(graph: GraphClient, agent_id: str, person_id: str) -> PersonDeletion:
    """Deletes a person and their own data; their episodes, evidence and learned beliefs stay
    (the agent's history) and lose the link to them.

    Raises:
        AgentNotFound: no such agent.
        PersonNotFound: no such person in this agent.
    """

    async def work(tx: Transaction) -> PersonDeletion:
        await lock_agent(tx, agent_id)
        await read_person_in(tx, agent_id, person_id)
        rows = await tx.run("memory/people/delete_person", agent_id=agent_id, person_id=person_id)
        return PersonDeletion(
            id=person_id, name=rows[0]["name"], episodes_unlinked=rows[0]["episodes"]
        )

    try:
        return await graph.write_transaction(work, action="deleting a person")
    finally:
        forget_names(agent_id)


async def merge_people(
    graph: GraphClient,
    agent_id: str,
    person_id: str,
    other_id: str,
    *,
    mechanics: MemoryMechanics | None = None,
) -> PersonMerger:
    """Merges the person ``other_id`` into ``person_id`` (the survivor keeps its id; user
    models combined by :func:`app.memory.people.merging.merged_person`; episodes, evidence,
    learned beliefs, revisions told, reporting lines move to it); ``other_id`` is deleted.

    Raises:
        InvalidInput: ``other_id`` is ``person_id``.
        AgentNotFound: no such agent.
        PersonNotFound: either person is not in this agent.
    """
    mechanics = mechanics or MemoryMechanics()
    if other_id == person_id:
        raise InvalidInput(
            "a person cannot be merged into itself",
            errors=[error_entry(["body", "other_id"], "is the person merged into", "same_person")],
        )

    async def work(tx: Transaction) -> PersonMerger:
        await lock_agent(tx, agent_id)
        keep = await read_person_in(tx, agent_id, person_id)
        gone = await read_person_in(tx, agent_id, other_id)
        combined = merged_person(keep, gone, mechanics)
        rows = await tx.run(
            "memory/people/merge_people",
            agent_id=agent_id,
            survivor_id=person_id,
            merged_id=other_id,
            changes=stored_properties(combined, mechanics),
        )
        if not rows:
            raise PersonNotFound(other_id, agent_id)
        return PersonMerger(
            person=person_from_row(rows[0]["person"]),
            merged_id=other_id,
            episodes_moved=rows[0]["episodes"],
        )

    try:
        return await graph.write_transaction(work, action="merging people")
    finally:
        forget_names(agent_id)
