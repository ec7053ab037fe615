"""People the agent deals with (the user model lives on Person)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, status

from app.api.deps import AgentIdDep, ClockDep, GraphDep, SettingsDep, SkipQuery
from app.memory.people import store as people
from app.memory.people.models import Person, PersonCreate, PersonPage, PersonSort, PersonUpdate

router = APIRouter(prefix="/v1/agents/{agent_id}", tags=["people"])

PersonId = Annotated[str, Path(min_length=1, max_length=64)]


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
