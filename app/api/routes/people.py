"""People the agent deals with (the user model lives on Person)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, status

from app.api.deps import AgentIdDep, ClockDep, GraphDep, SettingsDep, SkipQuery
from app.memory.people import store as people
from app.memory.people.aliases import add_alias, remove_alias
from app.memory.people.models import (
    Person,
    PersonAlias,
    PersonCreate,
    PersonMerge,
    PersonPage,
    PersonSort,
    PersonUpdate,
)
from app.memory.people.removal import PersonDeletion, PersonMerger, delete_person, merge_people

router = APIRouter(prefix="/v1/agents/{agent_id}", tags=["people"])

PersonId = Annotated[str, Path(min_length=1, max_length=64)]
AliasName = Annotated[str, Path(min_length=1, max_length=200, description="Any case.")]


@router.get("/people")
async def list_people(
    graph: GraphDep,
    agent_id: AgentIdDep,
    text: Annotated[str | None, Query(min_length=1, max_length=200)] = None,
    sort: PersonSort = "relationship",
    skip: SkipQuery = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> PersonPage:
    """List people (by relationship value, most recently seen, or name; text in name or email)."""
    return await people.list_people(graph, agent_id, text=text, sort=sort, skip=skip, limit=limit)


@router.post("/people", status_code=status.HTTP_201_CREATED)
async def create_person(
    graph: GraphDep, settings: SettingsDep, agent_id: AgentIdDep, body: PersonCreate
) -> Person:
    """Create a person; authority and relationship value follow from the fields."""
    return await people.create_person(graph, agent_id, body, mechanics=settings.memory)


@router.get("/people/{person_id}")
async def read_person(
    graph: GraphDep, settings: SettingsDep, agent_id: AgentIdDep, person_id: PersonId
) -> Person:
    """One person, with the user model the loop keeps (trust and its changes, knowledge per
    domain, topics, inferred goals, successful patterns)."""
    return await people.get_person(graph, agent_id, person_id, mechanics=settings.memory)


@router.patch("/people/{person_id}")
async def update_person(
    graph: GraphDep,
    settings: SettingsDep,
    clock: ClockDep,
    agent_id: AgentIdDep,
    person_id: PersonId,
    body: PersonUpdate,
) -> Person:
    """Edit a person (preferences are merged; a null preference removes the key; a change of
    trust is recorded in its history)."""
    return await people.update_person(
        graph, agent_id, person_id, body, mechanics=settings.memory, now=clock.now()
    )


@router.delete(
    "/people/{person_id}",
    responses={404: {"description": "no such agent, or no such person in it"}},
)
async def remove_person(
    graph: GraphDep, agent_id: AgentIdDep, person_id: PersonId
) -> PersonDeletion:
    """Delete a person and their own data; their episodes stay (the agent's history) and lose
    the link to them."""
    return await delete_person(graph, agent_id, person_id)


@router.post(
    "/people/{person_id}/merge",
    responses={
        404: {"description": "no such agent, or either person is not in it"},
        422: {"description": "other_id is malformed, or is the person merged into"},
    },
)
async def merge_person(
    graph: GraphDep,
    settings: SettingsDep,
    agent_id: AgentIdDep,
    person_id: PersonId,
    body: PersonMerge,
) -> PersonMerger:
    """Merge another person (``other_id``) into this one, which keeps its id: their episodes,
    evidence and user model move to it, combined as docs/memory.md §2 says; the other is
    deleted."""
    return await merge_people(graph, agent_id, person_id, body.other_id, mechanics=settings.memory)


@router.post(
    "/people/{person_id}/aliases",
    responses={
        404: {"description": "no such agent, or no such person in it"},
        409: {"description": "another person has the name as their name or alias (alias_taken)"},
        422: {"description": "the name is missing, blank, too long, or the person's own name"},
    },
)
async def add_person_alias(
    graph: GraphDep, agent_id: AgentIdDep, person_id: PersonId, body: PersonAlias
) -> Person:
    """Give a person one more name (an alias: used when no person has that name); the person
    with their aliases."""
    return await add_alias(graph, agent_id, person_id, body.name)


@router.delete(
    "/people/{person_id}/aliases/{name}",
    responses={
        404: {"description": "no such agent, person, or alias of that person (alias_not_found)"},
        422: {"description": "the name is empty or too long"},
    },
)
async def remove_person_alias(
    graph: GraphDep, agent_id: AgentIdDep, person_id: PersonId, name: AliasName
) -> Person:
    """Take an alias from a person (the name no longer means them; their episodes stay theirs);
    the person with the aliases left."""
    return await remove_alias(graph, agent_id, person_id, name)
