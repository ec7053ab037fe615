"""People against the real Neo4j: create, read, list, edit, micro-birth, interactions, affect."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta

import pytest

from app.errors import AgentNotFound, InvalidInput, PersonNotFound
from app.graph.client import GraphClient
from app.memory.people import store as people
from app.memory.people.formulas import interaction_frequency_after
from app.memory.people.micro_birth import micro_birth
from app.memory.people.models import Affect, PersonCreate, PersonUpdate
from app.memory.settings import MemoryMechanics

M = MemoryMechanics()
T0 = datetime(2026, 4, 1, 9, 0, tzinfo=UTC)


async def test_a_person_is_created_with_derived_authority_and_relationship(
    graph: GraphClient, agent: str
) -> None:
    created = await people.create_person(
        graph,
        agent,
        PersonCreate(
            name="  Maria   Lopez ",
            email="maria@example.com",
            role="Controller",
            seniority="director",
            interaction_frequency=0.5,
            context_relevance=0.25,
            preferences={"tone": "brief", "updates": ["email"], "cc_manager": False},
            knowledge_level="expert",
        ),
        now=T0,
    )

    assert created.name == "Maria Lopez" and created.birth_source == "api"
    assert created.authority == 0.8
    assert created.relationship_value == pytest.approx(0.6 * 0.8 + 0.2 * 0.5 + 0.2 * 0.25)
    assert created.created_at == T0 and created.last_seen == T0
    read = await people.get_person(graph, agent, created.id)
    assert read == created
    assert read.preferences == {"tone": "brief", "updates": ["email"], "cc_manager": False}


async def test_an_update_keeps_relationship_value_current(graph: GraphClient, agent: str) -> None:
    person = await people.create_person(graph, agent, PersonCreate(name="Sam", seniority="junior"))

    promoted = await people.update_person(
        graph,
        agent,
        person.id,
        PersonUpdate(
            seniority="vp",
            context_relevance=1.0,
            affect={"stress": 0.4},
            preferences={"tone": "formal", "missing": None},
        ),
    )

    assert promoted.authority == 0.85
    assert promoted.relationship_value == pytest.approx(0.6 * 0.85 + 0.0 + 0.2 * 1.0)
    assert promoted.affect == Affect(valence=0.0, arousal=0.0, stress=0.4)
    assert promoted.preferences == {"tone": "formal"}
    merged = await people.update_person(
        graph, agent, person.id, PersonUpdate(preferences={"tone": None, "language": "de"})
    )
    assert merged.preferences == {"language": "de"}
    cleared = await people.update_person(
        graph, agent, person.id, PersonUpdate(email="sam@example.com")
    )
    assert cleared.email == "sam@example.com"
    cleared = await people.update_person(
        graph, agent, person.id, PersonUpdate.model_validate({"email": None})
    )
    assert cleared.email is None and cleared.seniority == "vp"


async def test_micro_birth_is_idempotent_case_insensitive_and_fast(
    graph: GraphClient, agent: str
) -> None:
    started = time.perf_counter()
    first = await micro_birth(graph, agent, "Priya Raman")
    elapsed = time.perf_counter() - started
    again = await micro_birth(graph, agent, "  priya   RAMAN ")

    assert first.created and not again.created
    assert again.person.id == first.person.id
    assert first.person.birth_source == "micro" and first.person.role == "unknown"
    assert first.person.authority == 0.5 and first.person.seniority == "unknown"
    # Seed 000: context relevance 0.5, so 0.6·0.5 + 0.2·0 + 0.2·0.5.
    assert first.person.relationship_value == pytest.approx(0.4)
    assert elapsed < 1.0


async def test_concurrent_micro_births_make_one_person(graph: GraphClient, agent: str) -> None:
    results = await asyncio.gather(*(micro_birth(graph, agent, "Omar") for _ in range(8)))

    assert sum(result.created for result in results) == 1
    assert len({result.person.id for result in results}) == 1
    page = await people.list_people(graph, agent, text="omar")
    assert page.count == 1


async def test_micro_birth_finds_a_person_created_through_the_api(
    graph: GraphClient, agent: str
) -> None:
    created = await people.create_person(graph, agent, PersonCreate(name="Ines Duarte"))
    found = await micro_birth(graph, agent, "ines duarte")
    assert not found.created and found.person.id == created.id


async def test_interactions_raise_frequency_by_the_bounded_rule(
    graph: GraphClient, agent: str
) -> None:
    person = await people.create_person(graph, agent, PersonCreate(name="Tom"), now=T0)

    once = await people.record_interaction(graph, agent, person.id, now=T0)
    later = T0 + timedelta(days=30)
    twice = await people.record_interaction(graph, agent, person.id, now=later)

    assert once.interaction_frequency == pytest.approx(0.1)
    assert twice.interaction_frequency == pytest.approx(
        interaction_frequency_after(0.1, T0, later, M)
    )
    assert twice.interaction_count == 2 and twice.last_seen == later
    assert twice.relationship_value == pytest.approx(
        0.6 * 0.5 + 0.2 * twice.interaction_frequency + 0.2 * 0.5
    )


async def test_affect_cues_are_applied_and_stored(graph: GraphClient, agent: str) -> None:
    person = await people.create_person(graph, agent, PersonCreate(name="Lena"))

    upset = await people.apply_affect(graph, agent, person.id, "This is useless, I'm fed up")
    calm = await people.apply_affect(graph, agent, person.id, "ok, carry on")
    pleased = await people.apply_affect(graph, agent, person.id, "Thanks, that was helpful")

    assert upset.changed and upset.frustration_cues == ["useless", "fed up"]
    assert upset.person.affect.stress == pytest.approx(0.2)
    assert upset.person.affect.valence == pytest.approx(-0.3)
    assert not calm.changed
    assert pleased.person.affect.valence == pytest.approx(-0.1)
    assert pleased.person.affect.stress == pytest.approx(0.1)
    stored = await people.get_person(graph, agent, person.id)
    assert stored.affect == pleased.person.affect


async def test_mentions_find_known_and_new_names(graph: GraphClient, agent: str) -> None:
    maria = await people.create_person(graph, agent, PersonCreate(name="Maria Lopez"))

    mentions = await people.mentioned_people(
        graph, agent, "Can you send Maria the file and copy Dev Patel?"
    )

    assert [(m.name, m.person_id, m.known) for m in mentions] == [
        ("Maria Lopez", maria.id, True),
        ("Dev Patel", None, False),
    ]


async def test_listing_sorts_filters_and_pages(graph: GraphClient, agent: str) -> None:
    # Fixed times (the order does not depend on today's date): both met on one day, Zed seen
    # again the next.
    met = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    low = await people.create_person(
        graph, agent, PersonCreate(name="Zed", seniority="entry"), now=met
    )
    high = await people.create_person(
        graph,
        agent,
        PersonCreate(name="Ada", seniority="c_suite", email="ada@corp.example"),
        now=met,
    )
    await people.record_interaction(graph, agent, low.id, now=met + timedelta(days=1))

    by_value = await people.list_people(graph, agent)
    by_name = await people.list_people(graph, agent, sort="name")
    recent = await people.list_people(graph, agent, sort="recent")
    by_email = await people.list_people(graph, agent, text="CORP.example".lower())
    page = await people.list_people(graph, agent, skip=1, limit=1)

    assert [p.id for p in by_value.data] == [high.id, low.id]
    assert [p.name for p in by_name.data] == ["Ada", "Zed"]
    assert recent.data[0].id == low.id
    assert [p.id for p in by_email.data] == [high.id]
    assert page.count == 2 and [p.id for p in page.data] == [low.id]


async def test_people_are_scoped_to_their_agent(
    graph: GraphClient, agent: str, other_agent: str
) -> None:
    mine = await people.create_person(graph, agent, PersonCreate(name="Private Pat"))

    assert (await people.list_people(graph, other_agent)).count == 0
    with pytest.raises(PersonNotFound):
        await people.get_person(graph, other_agent, mine.id)
    with pytest.raises(PersonNotFound):
        await people.record_interaction(graph, other_agent, mine.id)
    born = await micro_birth(graph, other_agent, "Private Pat")
    assert born.created and born.person.id != mine.id
    assert await people.mentioned_people(graph, other_agent, "a note for nobody") == []


async def test_unknown_agent(graph: GraphClient, agent_id: str) -> None:
    with pytest.raises(AgentNotFound):
        await people.list_people(graph, agent_id)
    with pytest.raises(AgentNotFound):
        await people.create_person(graph, agent_id, PersonCreate(name="Nobody"))
    with pytest.raises(AgentNotFound):
        await micro_birth(graph, agent_id, "Nobody")
    with pytest.raises(AgentNotFound):
        await people.get_person(graph, agent_id, "x")
    with pytest.raises(AgentNotFound):
        await people.mentioned_people(graph, agent_id, "Hi Bob")


async def test_micro_birth_refuses_a_blank_name(
    graph: GraphClient, test_graph: GraphClient, agent: str
) -> None:
    with pytest.raises(InvalidInput) as raised:
        await micro_birth(graph, agent, "   ")
    assert raised.value.details["errors"][0]["location"] == ["name"]
    assert (await test_graph.read("memory/count_labelled", agent_id=agent))[0]["people"] == 0
