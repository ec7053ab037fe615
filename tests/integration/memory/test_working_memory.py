"""Working memory against the real Neo4j: the three columns, task eviction, note expiry."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app.beliefs.mechanics import Mechanics
from app.beliefs.models import BeliefCreate
from app.beliefs.store import create_belief
from app.errors import AgentNotFound, InvalidInput, TaskClosed, TaskNotFound
from app.graph.agent_scope import lock_agent
from app.graph.client import GraphClient, Transaction
from app.memory import working_memory
from app.memory.people import store as people
from app.memory.people.models import PersonCreate
from app.memory.settings import MemoryMechanics
from app.memory.working_memory import EntityCreate, NoteCreate, TaskCreate

# Friday 29 May 2026: the last business day of May (month end, not a quarter end).
NOW = datetime(2026, 5, 29, 10, 0, tzinfo=UTC)


async def test_a_fifth_task_evicts_the_oldest(graph: GraphClient, agent: str) -> None:
    added = [
        await working_memory.add_task(
            graph, agent, TaskCreate(description=f"task {n}"), now=NOW + timedelta(minutes=n)
        )
        for n in range(6)
    ]

    assert [a.evicted for a in added[:4]] == [[], [], [], []]
    assert added[4].evicted == [added[0].task.id]
    assert added[5].evicted == [added[1].task.id]
    memory = await working_memory.load_working_memory(graph, agent, NOW + timedelta(hours=1))
    assert [t.description for t in memory.tasks] == ["task 5", "task 4", "task 3", "task 2"]
    assert [t.started_at for t in memory.tasks] == [
        NOW + timedelta(minutes=n) for n in (5, 4, 3, 2)
    ]
    assert [m.at for m in memory.tasks[0].history] == [NOW + timedelta(minutes=5)]

    done = await working_memory.complete_task(graph, agent, added[3].task.id, now=NOW)
    assert done.state == "completed" and done.ended_at == NOW
    memory = await working_memory.load_working_memory(graph, agent, NOW + timedelta(hours=1))
    assert len(memory.tasks) == 3
    with pytest.raises(TaskNotFound):
        await working_memory.complete_task(graph, agent, "no-such-task")


async def test_each_task_transition_is_kept_with_its_time_and_cause(
    graph: GraphClient, agent: str
) -> None:
    """Seed 000's states: a task added through the API starts in planning; eviction and
    completion are transitions, each with its time and cause; the tasks list shows them all."""
    two = MemoryMechanics(max_active_tasks=2)
    added = [
        await working_memory.add_task(
            graph, agent, TaskCreate(description=f"t{n}"), mechanics=two, now=NOW + timedelta(n)
        )
        for n in range(3)
    ]
    first = added[0].task
    assert first.state == "planning"
    assert [(m.state, m.at, m.cause) for m in first.history] == [
        ("planning", NOW, "added through the api")
    ]
    done = await working_memory.complete_task(
        graph, agent, added[2].task.id, now=NOW + timedelta(days=4)
    )
    assert [(m.state, m.at) for m in done.history] == [
        ("planning", NOW + timedelta(days=2)),
        ("completed", NOW + timedelta(days=4)),
    ]
    assert done.history[-1].cause == "marked completed through the API"
    every = await working_memory.list_tasks(graph, agent)
    assert [t.description for t in every.data] == ["t2", "t1", "t0"]
    evicted = every.data[2]
    assert [(m.state, m.at) for m in evicted.history] == [
        ("planning", NOW),
        ("evicted", NOW + timedelta(days=2)),
    ]
    assert evicted.history[-1].cause == "pushed out by a newer task (at most 2 open)"
    only = await working_memory.list_tasks(graph, agent, ["evicted", "completed"])
    assert [t.description for t in only.data] == ["t2", "t0"]
    # Completing a task that is no longer open is refused, naming its state; nothing changes.
    with pytest.raises(TaskClosed) as refused:
        await working_memory.complete_task(graph, agent, first.id, now=NOW + timedelta(days=9))
    assert refused.value.details == {"agent_id": agent, "task_id": first.id, "state": "evicted"}
    assert "evicted" in refused.value.message
    [still] = [t for t in (await working_memory.list_tasks(graph, agent)).data if t.id == first.id]
    assert still.state == "evicted" and len(still.history) == 2
    # Completing a completed task again is the same answer (a retried request).
    again = await working_memory.complete_task(graph, agent, done.id, now=NOW + timedelta(days=9))
    assert again.state == "completed" and again.history == done.history


async def test_the_task_limit_is_a_setting(graph: GraphClient, agent: str) -> None:
    two = MemoryMechanics(max_active_tasks=2)
    for n in range(3):
        await working_memory.add_task(
            graph, agent, TaskCreate(description=f"t{n}"), mechanics=two, now=NOW + timedelta(n)
        )
    memory = await working_memory.load_working_memory(graph, agent, NOW + timedelta(days=5))
    assert [t.description for t in memory.tasks] == ["t2", "t1"]


async def test_failed_work_does_not_push_out_a_task_awaiting_a_person(
    graph: GraphClient, agent: str
) -> None:
    """Four failures in a row (blocked tasks stay open) evict the older open tasks, but not one
    waiting for an approval; when every other open task waits too, the oldest waiting one goes."""

    async def open_task(
        name: str, moves: list[tuple[working_memory.TaskState, str]], minute: int
    ) -> working_memory.TaskAdded:
        async def work(tx: Transaction) -> working_memory.TaskAdded:
            await lock_agent(tx, agent)
            draft = working_memory.TaskDraft(description=name, source="tool_call")
            return await working_memory.open_task_in(
                tx, agent, draft, moves, None, NOW + timedelta(minutes=minute)
            )

        return await graph.write_transaction(work, action="opening a task")

    waiting = await open_task("approve", [("planning", "p"), ("awaiting_input", "asks")], 0)
    older = await open_task("older", [("planning", "p")], 1)
    failed = [
        await open_task(
            f"fail {n}", [("planning", "p"), ("executing", "x"), ("blocked", "e")], 2 + n
        )
        for n in range(4)
    ]

    assert failed[2].evicted == [older.task.id]
    assert failed[3].evicted == [failed[0].task.id]
    memory = await working_memory.load_working_memory(graph, agent, NOW + timedelta(hours=1))
    assert [t.description for t in memory.tasks] == ["fail 3", "fail 2", "fail 1", "approve"]

    asks: list[tuple[working_memory.TaskState, str]] = [("planning", "p"), ("awaiting_input", "a")]
    more = [await open_task(f"ask {n}", asks, 10 + n) for n in range(4)]
    assert [m.evicted for m in more[:3]] == [
        [failed[1].task.id],
        [failed[2].task.id],
        [failed[3].task.id],
    ]
    assert more[3].evicted == [waiting.task.id]
    memory = await working_memory.load_working_memory(graph, agent, NOW + timedelta(hours=1))
    assert [t.description for t in memory.tasks] == ["ask 3", "ask 2", "ask 1", "ask 0"]


async def test_notes_expire_and_sort_by_priority(graph: GraphClient, agent: str) -> None:
    await working_memory.add_note(
        graph, agent, NoteCreate(content="short-lived", priority=9, ttl_s=60), now=NOW
    )
    await working_memory.add_note(graph, agent, NoteCreate(content="low", priority=1), now=NOW)
    await working_memory.add_note(graph, agent, NoteCreate(content="high", priority=8), now=NOW)

    fresh = await working_memory.load_working_memory(graph, agent, NOW + timedelta(seconds=30))
    later = await working_memory.load_working_memory(graph, agent, NOW + timedelta(minutes=5))
    tomorrow = await working_memory.load_working_memory(graph, agent, NOW + timedelta(days=2))

    assert [n.content for n in fresh.notes] == ["short-lived", "high", "low"]
    assert [n.content for n in later.notes] == ["high", "low"]
    assert tomorrow.notes == []  # the default TTL is one day
    assert fresh.notes[0].expires_at == NOW + timedelta(seconds=60)


async def test_a_ttl_beyond_the_maximum_is_refused(graph: GraphClient, agent: str) -> None:
    with pytest.raises(InvalidInput) as raised:
        await working_memory.add_note(
            graph, agent, NoteCreate(content="forever", ttl_s=10**9), now=NOW
        )
    assert raised.value.details["errors"][0]["location"] == ["body", "ttl_s"]
    assert (await working_memory.load_working_memory(graph, agent, NOW)).notes == []


async def test_objects_people_entities_time_and_strong_beliefs(
    graph: GraphClient, agent: str
) -> None:
    mechanics = Mechanics()
    strong = await create_belief(
        graph,
        mechanics,
        agent,
        BeliefCreate(statement="Close the books by day 3", category="contextual", strength=0.9),
    )
    await create_belief(
        graph,
        mechanics,
        agent,
        BeliefCreate(statement="Weak hunch", category="aesthetic", strength=0.5),
    )
    edge = await create_belief(
        graph,
        mechanics,
        agent,
        BeliefCreate(statement="Exactly at the floor", category="relational", strength=0.8),
    )
    old = await people.create_person(graph, agent, PersonCreate(name="Old"), now=NOW)
    recent = await people.create_person(
        graph, agent, PersonCreate(name="Recent"), now=NOW + timedelta(hours=1)
    )
    await working_memory.note_entity(graph, agent, EntityCreate(name="Invoice 4711"), now=NOW)
    await working_memory.note_entity(
        graph, agent, EntityCreate(name="ACME Ltd", kind="company"), now=NOW + timedelta(1)
    )
    again = await working_memory.note_entity(
        graph, agent, EntityCreate(name="invoice  4711"), now=NOW + timedelta(2)
    )

    memory = await working_memory.load_working_memory(graph, agent, NOW + timedelta(hours=2))

    objects = memory.objects
    assert [p.id for p in objects.people] == [recent.id, old.id]
    assert again.mention_count == 2 and again.name == "invoice 4711"
    # A mention that names no kind keeps the entity's; one that names a kind replaces it.
    acme = await working_memory.note_entity(
        graph, agent, EntityCreate(name="acme ltd"), now=NOW + timedelta(1)
    )
    assert acme.kind == "company" and again.kind == "thing"
    assert [e.name for e in objects.entities] == ["invoice 4711", "ACME Ltd"]
    # The times travel as text (toString) and read back as the instants written.
    assert [p.created_at for p in objects.people] == [NOW + timedelta(hours=1), NOW]
    assert [(e.first_seen, e.last_seen) for e in objects.entities] == [
        (NOW, NOW + timedelta(2)),
        (NOW + timedelta(1), NOW + timedelta(1)),
    ]
    assert [b.id for b in objects.beliefs] == [strong.id, edge.id]
    temporal = objects.temporal
    assert temporal.is_month_end and not temporal.is_quarter_end
    assert temporal.days_to_deadline == 0 and temporal.urgency_multiplier == 1.5
    assert temporal.contexts == ["month_end"]


async def test_working_memory_is_scoped_to_its_agent(
    graph: GraphClient, agent: str, other_agent: str, agent_id: str
) -> None:
    await working_memory.add_task(graph, agent, TaskCreate(description="mine"), now=NOW)
    await working_memory.add_note(graph, agent, NoteCreate(content="mine"), now=NOW)
    await working_memory.note_entity(graph, agent, EntityCreate(name="Mine"), now=NOW)
    await people.create_person(graph, agent, PersonCreate(name="Mine"), now=NOW)

    theirs = await working_memory.load_working_memory(graph, other_agent, NOW)
    assert theirs.tasks == [] and theirs.notes == []
    assert theirs.objects.people == [] and theirs.objects.entities == []
    with pytest.raises(AgentNotFound):
        await working_memory.load_working_memory(graph, agent_id, NOW)
    with pytest.raises(AgentNotFound):
        await working_memory.add_task(graph, agent_id, TaskCreate(description="x"))
