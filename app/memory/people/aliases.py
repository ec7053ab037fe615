"""Editing a person's aliases by hand (docs/memory.md §2): the other names that mean them, made
by a merge or given here. A name means one person of an agent: an alias another person has as
their name or alias is refused, naming them. Each edit is one write transaction under the
agent's lock."""

from __future__ import annotations

from app.errors import AliasNotFound, AliasTaken, InvalidInput, error_entry
from app.graph.agent_scope import lock_agent
from app.graph.client import GraphClient, Transaction
from app.memory.people.models import Person
from app.memory.people.names import name_key
from app.memory.people.store import person_from_row, read_person_in


async def add_alias(graph: GraphClient, agent_id: str, person_id: str, name: str) -> Person:
    """Gives the person the alias ``name`` (white space collapsed, kept as written); a name
    that is already their alias is left as it is.

    Raises:
        AgentNotFound: no such agent.
        PersonNotFound: no such person in this agent.
        InvalidInput: ``name`` is the person's own name.
        AliasTaken: another person of the agent has ``name`` as their name or alias.
    """
    written = " ".join(name.split())
    key = name_key(written)

    async def work(tx: Transaction) -> Person:
        await lock_agent(tx, agent_id)
        person = await read_person_in(tx, agent_id, person_id)
        if key == name_key(person.name):
            raise InvalidInput(
                f"{written!r} is the person's own name, not an alias",
                errors=[error_entry(["body", "name"], "is the person's own name", "own_name")],
            )
        rows = await tx.run(
            "memory/people/add_alias",
            agent_id=agent_id,
            person_id=person_id,
            alias={"key": key, "name": written},
        )
        if rows[0]["holders"]:
            raise AliasTaken(written, person_id, agent_id, list(rows[0]["holders"]))
        return person_from_row(rows[0]["person"])

    return await graph.write_transaction(work, action="adding an alias")


async def remove_alias(graph: GraphClient, agent_id: str, person_id: str, name: str) -> Person:
    """Takes the alias ``name`` (any case) from the person: it no longer means them.

    Raises:
        AgentNotFound: no such agent.
        PersonNotFound: no such person in this agent.
        AliasNotFound: the person has no such alias.
    """

    async def work(tx: Transaction) -> Person:
        await lock_agent(tx, agent_id)
        await read_person_in(tx, agent_id, person_id)
        rows = await tx.run(
            "memory/people/remove_alias",
            agent_id=agent_id,
            person_id=person_id,
            key=name_key(name),
        )
        if not rows[0]["removed"]:
            raise AliasNotFound(name, person_id, agent_id)
        return person_from_row(rows[0]["person"])

    return await graph.write_transaction(work, action="removing an alias")
