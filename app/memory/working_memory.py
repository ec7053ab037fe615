"""Working memory (docs/memory.md §4): three columns, loaded in one read.

1. **Active tasks** — ``Task`` nodes in an open state, newest first. The states are seed 000's:
   ``planning`` → ``executing`` → ``completed``, with ``awaiting_input`` (an approval waits for
   a person) and ``blocked`` (a tool call failed, no executor or connection could run the work,
   verification escalated) on the way; two more end a task that was not done: ``cancelled``
   (rejected by a person, refused by the guardian) and ``evicted``. The open states are
   planning, executing, awaiting_input and blocked. Each transition is kept on the task (its
   ``history``: state, time from the injected clock, cause). At most ``max_active_tasks`` (4)
   are open: adding one more marks the oldest open task ``evicted`` (not ``completed``: it was
   not done, only pushed out), so the most recent ones are kept; a task awaiting a person is
   pushed out only when every other open task awaits one too (failed work must not hide a
   question someone still has to answer). The loop opens a task for each
   turn's work unit and moves it (app/loop/work_tasks.py); the API adds and completes others.
2. **Notes** — ``Note`` nodes with a priority (0..10, higher first) and an ``expires_at`` set
   from a TTL; an expired note drops out of every read (it stays in the graph, nothing is
   deleted). Sorted by priority, then newest.
3. **Objects** — the people seen most recently, the salient entities (``Entity`` nodes, most
   recently mentioned first), the temporal context of the day, and the agent's active beliefs
   with strength ≥ 0.8.

Temporal context (:func:`temporal_context`): a month "ends" during its last N business days
(Mon–Fri, no holiday calendar; N = ``period_end_business_days``, 3): from the N-th last business
day to the last calendar day. A quarter end is a month end in March, June, September or
December; a year end is one in December. The next deadline is the last business day of the
month (of the next month once that day has passed); ``days_to_deadline`` counts calendar days
to it. The urgency multiplier is 1.0 outside a period end and the largest that applies inside one:
month end 1.5, quarter end 2.0, year end 2.5. ``contexts`` names the period ends that apply
(``month_end`` …) so callers can read context-conditional belief strengths in them.
"""

from __future__ import annotations

import uuid
from datetime import date, datetime, timedelta
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StrictInt, field_validator

from app.common import Category, StrictModel, not_blank, utc_now
from app.errors import AgentNotFound, InvalidInput, TaskClosed, TaskNotFound
from app.graph.agent_scope import lock_agent
from app.graph.client import GraphClient, Transaction
from app.graph.times import datetimes_read
from app.memory.people.models import Person
from app.memory.people.names import name_key
from app.memory.people.store import person_from_row
from app.memory.settings import MemoryMechanics

TaskState = Literal[
    "planning", "executing", "awaiting_input", "blocked", "completed", "cancelled", "evicted"
]
# The states of a task still in working memory's first column.
OPEN_TASK_STATES: tuple[TaskState, ...] = ("planning", "executing", "awaiting_input", "blocked")
# The open states of a task waiting for a person: evicted only after every other open task.
WAITING_TASK_STATES: tuple[TaskState, ...] = ("awaiting_input",)
DeadlineKind = Literal["month_end", "quarter_end", "year_end"]
QUARTER_END_MONTHS = frozenset({3, 6, 9, 12})


class TaskCreate(StrictModel):
    description: Annotated[str, Field(min_length=1, max_length=2000)]
    source: Annotated[str, Field(min_length=1, max_length=100)] = "api"

    _check = field_validator("description")(not_blank)


class TaskTransition(BaseModel):
    """One move of a task: the state it entered, when (the injected clock) and why."""

    state: TaskState
    at: datetime
    cause: str


class Task(BaseModel):
    id: str
    agent_id: str
    description: str
    state: TaskState
    source: str | None = None
    started_at: datetime
    ended_at: datetime | None = None
    verb: str | None = Field(default=None, description="The work unit's verb (a turn's task).")
    approval_id: str | None = Field(
        default=None, description="The approval the task waited on, if it did."
    )
    history: list[TaskTransition] = Field(
        default_factory=list, description="Every state the task entered, oldest first."
    )


class TasksPublic(BaseModel):
    data: list[Task]
    count: int


def task_from_row(row: dict[str, Any]) -> Task:
    """A Task from its node's properties (its history is kept as three parallel lists)."""
    states = row.get("history_states") or []
    times = row.get("history_at") or []
    causes = row.get("history_causes") or []
    history = [
        TaskTransition(state=state, at=at, cause=cause)
        for state, at, cause in zip(states, times, causes, strict=False)
    ]
    return Task.model_validate({**row, "history": history})


def transitions(moves: list[tuple[TaskState, str]], at: datetime) -> list[dict[str, Any]]:
    """The ``$moves`` parameter of the task queries: each (state, cause) at ``at``."""
    return [{"state": state, "at": at, "cause": cause[:1000]} for state, cause in moves]


class TaskAdded(BaseModel):
    task: Task
    # Ids of the open tasks pushed out to keep at most max_active_tasks.
    evicted: list[str]


class TaskDraft(BaseModel):
    """A task about to be opened: what it is and where it comes from."""

    description: str
    source: str
    verb: str | None = None
    approval_id: str | None = None


class NoteCreate(StrictModel):
    content: Annotated[str, Field(min_length=1, max_length=4000)]
    priority: Annotated[StrictInt, Field(ge=0, le=10)] = 5
    # Seconds until the note expires (default: the note_default_ttl_s setting).
    ttl_s: Annotated[StrictInt | None, Field(ge=1)] = None
    source: Annotated[str, Field(min_length=1, max_length=100)] = "api"

    _check = field_validator("content")(not_blank)


class Note(BaseModel):
    id: str
    agent_id: str
    content: str
    priority: int
    source: str | None = None
    created_at: datetime
    expires_at: datetime


class EntityCreate(StrictModel):
    name: Annotated[str, Field(min_length=1, max_length=200)]
    kind: Annotated[str, Field(min_length=1, max_length=80)] = "thing"

    _check = field_validator("name")(not_blank)


class Entity(BaseModel):
    id: str
    agent_id: str
    name: str
    kind: str | None = None
    mention_count: int = 0
    first_seen: datetime | None = None
    last_seen: datetime | None = None


class TemporalContext(BaseModel):
    day: date
    is_month_end: bool
    is_quarter_end: bool
    is_year_end: bool
    period_end_business_days: int
    next_deadline: date
    deadline_kind: DeadlineKind
    days_to_deadline: int
    urgency_multiplier: float
    contexts: list[DeadlineKind]


class StrongBelief(BaseModel):
    id: str
    statement: str
    category: Category
    domain: str | None = None
    strength: float
    importance: float


class WorkingObjects(BaseModel):
    people: list[Person]
    entities: list[Entity]
    temporal: TemporalContext
    beliefs: list[StrongBelief]


class WorkingMemory(BaseModel):
    agent_id: str
    at: datetime
    tasks: list[Task]
    notes: list[Note]
    objects: WorkingObjects


# --- temporal context (pure) -----------------------------------------------------------------


def _last_day(year: int, month: int) -> date:
    first_of_next = date(year + month // 12, month % 12 + 1, 1)
    return first_of_next - timedelta(days=1)


def last_business_days(year: int, month: int, count: int) -> list[date]:
    """The last ``count`` business days (Mon–Fri) of a month, latest first."""
    days: list[date] = []
    day = _last_day(year, month)
    while len(days) < count:
        if day.weekday() < 5:
            days.append(day)
        day -= timedelta(days=1)
    return days


def _kind_of(month: int) -> DeadlineKind:
    if month == 12:
        return "year_end"
    return "quarter_end" if month in QUARTER_END_MONTHS else "month_end"


def temporal_context(day: date, mechanics: MemoryMechanics | None = None) -> TemporalContext:
    """The period-end view of ``day`` (rules in the module docstring)."""
    mechanics = mechanics or MemoryMechanics()
    window = last_business_days(day.year, day.month, mechanics.period_end_business_days)
    is_month_end = day >= window[-1]
    is_quarter_end = is_month_end and day.month in QUARTER_END_MONTHS
    is_year_end = is_month_end and day.month == 12
    deadline = window[0]
    if day > deadline:
        following = _last_day(day.year, day.month) + timedelta(days=1)
        deadline = last_business_days(following.year, following.month, 1)[0]
    contexts: list[DeadlineKind] = []
    urgency = 1.0
    if is_month_end:
        contexts.append("month_end")
        urgency = max(urgency, mechanics.urgency_month_end)
    if is_quarter_end:
        contexts.append("quarter_end")
        urgency = max(urgency, mechanics.urgency_quarter_end)
    if is_year_end:
        contexts.append("year_end")
        urgency = max(urgency, mechanics.urgency_year_end)
    return TemporalContext(
        day=day,
        is_month_end=is_month_end,
        is_quarter_end=is_quarter_end,
        is_year_end=is_year_end,
        period_end_business_days=mechanics.period_end_business_days,
        next_deadline=deadline,
        deadline_kind=_kind_of(deadline.month),
        days_to_deadline=(deadline - day).days,
        urgency_multiplier=urgency,
        contexts=contexts,
    )


# --- services --------------------------------------------------------------------------------


async def add_task(
    graph: GraphClient,
    agent_id: str,
    data: TaskCreate,
    *,
    mechanics: MemoryMechanics | None = None,
    now: datetime | None = None,
) -> TaskAdded:
    """Adds a task in ``planning``; beyond ``max_active_tasks`` the oldest open ones are
    evicted.

    Raises:
        AgentNotFound: no such agent.
    """
    at = utc_now(now or graph.clock.now())
    draft = TaskDraft(description=data.description, source=data.source)
    moves: list[tuple[TaskState, str]] = [("planning", f"added through the {data.source}")]

    async def work(tx: Transaction) -> TaskAdded:
        await lock_agent(tx, agent_id)
        return await open_task_in(tx, agent_id, draft, moves, mechanics, at)

    return await graph.write_transaction(work, action="adding a task")


async def open_task_in(
    tx: Transaction,
    agent_id: str,
    draft: TaskDraft,
    moves: list[tuple[TaskState, str]],
    mechanics: MemoryMechanics | None,
    now: datetime,
) -> TaskAdded:
    """Inside the caller's transaction (holding the agent lock): opens a task that went through
    ``moves`` (each (state, cause), the last its state, all at ``now``); beyond
    ``max_active_tasks`` open tasks the oldest are evicted (none when the new one is closed), a
    task waiting for a person (``awaiting_input``) only when all the others wait too."""
    mechanics = mechanics or MemoryMechanics()
    is_open = moves[-1][0] in OPEN_TASK_STATES
    rows = await tx.run(
        "memory/working_memory/add_task",
        agent_id=agent_id,
        task={"id": str(uuid.uuid4()), **draft.model_dump()},
        moves=transitions(moves, now),
        open_states=list(OPEN_TASK_STATES),
        waiting_states=list(WAITING_TASK_STATES),
        keep=mechanics.max_active_tasks - 1 if is_open else mechanics.max_active_tasks,
        evicted_cause=f"pushed out by a newer task (at most {mechanics.max_active_tasks} open)",
        now=now,
    )
    return TaskAdded(task=task_from_row(rows[0]["task"]), evicted=rows[0]["evicted"])


async def move_task_in(
    tx: Transaction,
    agent_id: str,
    approval_id: str,
    moves: list[tuple[TaskState, str]],
    now: datetime,
    from_states: tuple[TaskState, ...] = (),
) -> Task | None:
    """Inside the caller's transaction (holding the agent lock): moves the task that waits on
    ``approval_id`` through ``moves`` (each (state, cause) at ``now``), only from one of
    ``from_states`` when given; None when there is none to move (a turn paused before tasks
    were recorded)."""
    rows = await tx.run(
        "memory/working_memory/move_task",
        agent_id=agent_id,
        approval_id=approval_id,
        moves=transitions(moves, now),
        open_states=list(OPEN_TASK_STATES),
        from_states=list(from_states),
    )
    return task_from_row(rows[0]["task"]) if rows else None


async def complete_task(
    graph: GraphClient, agent_id: str, task_id: str, *, now: datetime | None = None
) -> Task:
    """Marks an open task completed (a completed one is returned as it is: a retried request).

    Raises:
        AgentNotFound: no such agent.
        TaskNotFound: no such task for this agent.
        TaskClosed: the task is no longer open (evicted or cancelled); nothing is written.
    """
    at = utc_now(now or graph.clock.now())

    async def work(tx: Transaction) -> Task:
        await lock_agent(tx, agent_id)
        rows = await tx.run(
            "memory/working_memory/complete_task",
            agent_id=agent_id,
            task_id=task_id,
            now=at,
            cause="marked completed through the API",
            open_states=list(OPEN_TASK_STATES),
        )
        if not rows:
            raise TaskNotFound(task_id, agent_id)
        task = task_from_row(rows[0]["task"])
        if task.state != "completed":
            raise TaskClosed(task_id, agent_id, task.state)
        return task

    return await graph.write_transaction(work, action="completing a task")


async def list_tasks(
    graph: GraphClient, agent_id: str, states: list[TaskState] | None = None, limit: int = 50
) -> TasksPublic:
    """The agent's tasks in any state (or only in ``states``), newest first, with their
    transitions.

    Raises:
        AgentNotFound: no such agent.
    """
    rows = await graph.read(
        "memory/working_memory/list_tasks", agent_id=agent_id, states=states or [], limit=limit
    )
    if not rows:
        raise AgentNotFound(agent_id)
    data = [task_from_row(row) for row in rows[0]["tasks"]]
    return TasksPublic(data=data, count=len(data))


async def add_note(
    graph: GraphClient,
    agent_id: str,
    data: NoteCreate,
    *,
    mechanics: MemoryMechanics | None = None,
    now: datetime | None = None,
) -> Note:
    """Adds a note that expires after ``ttl_s`` seconds (default: the setting).

    Raises:
        AgentNotFound: no such agent.
        InvalidInput: ``ttl_s`` exceeds the ``note_max_ttl_s`` setting.
    """
    mechanics = mechanics or MemoryMechanics()
    ttl_s = data.ttl_s if data.ttl_s is not None else mechanics.note_default_ttl_s
    if ttl_s > mechanics.note_max_ttl_s:
        raise InvalidInput(
            f"ttl_s {ttl_s} exceeds the maximum of {mechanics.note_max_ttl_s} seconds",
            errors=[
                {
                    "location": ["body", "ttl_s"],
                    "message": f"at most {mechanics.note_max_ttl_s}",
                    "type": "less_than_equal",
                }
            ],
        )
    at = utc_now(now or graph.clock.now())
    params: dict[str, Any] = {
        "id": str(uuid.uuid4()),
        "content": data.content,
        "priority": data.priority,
        "source": data.source,
        "expires_at": at + timedelta(seconds=ttl_s),
    }

    async def work(tx: Transaction) -> Note:
        await lock_agent(tx, agent_id)
        rows = await tx.run(
            "memory/working_memory/add_note", agent_id=agent_id, note=params, now=at
        )
        return Note.model_validate(rows[0]["note"])

    return await graph.write_transaction(work, action="adding a note")


# A turn notes at most this many of its work unit's entities.
MAX_NOTED_ENTITIES = 5


async def note_entities_in(
    tx: Transaction, agent_id: str, names: list[str], kind: str, now: datetime
) -> None:
    """Inside the caller's transaction (holding the agent lock): a mention of each named entity
    (at most ``MAX_NOTED_ENTITIES``, blank and over-long names skipped), as :func:`note_entity`
    records one; ``kind`` is that of an entity new to working memory (one noted before keeps
    its own). The loop notes the entities its work units act on, so working memory's entities
    follow the work."""
    kept = [" ".join(name.split()) for name in names]
    kept = list(dict.fromkeys(name for name in kept if 0 < len(name) <= 200))
    for name in kept[:MAX_NOTED_ENTITIES]:
        await tx.run(
            "memory/working_memory/note_entity",
            agent_id=agent_id,
            entity={"name": name, "name_key": name_key(name), "kind": None},
            default_kind=kind,
            new_id=str(uuid.uuid4()),
            now=now,
        )


async def note_entity(
    graph: GraphClient, agent_id: str, data: EntityCreate, *, now: datetime | None = None
) -> Entity:
    """Records a mention of an entity (merged on its case-insensitive name): it becomes the most
    salient entity of working memory. A kind given replaces the entity's; none keeps it (a new
    entity is a ``thing``).

    Raises:
        AgentNotFound: no such agent.
    """
    at = utc_now(now or graph.clock.now())
    params = {"name": " ".join(data.name.split()), "name_key": name_key(data.name)}

    async def work(tx: Transaction) -> Entity:
        await lock_agent(tx, agent_id)
        rows = await tx.run(
            "memory/working_memory/note_entity",
            agent_id=agent_id,
            entity={**params, "kind": data.kind if "kind" in data.model_fields_set else None},
            default_kind=data.kind,
            new_id=str(uuid.uuid4()),
            now=at,
        )
        return Entity.model_validate(rows[0]["entity"])

    return await graph.write_transaction(work, action="noting an entity")


# The times load_working_memory.cypher returns as text (app/graph/times.py).
_TASK_TIMES = ("started_at", "ended_at", "history_at")
_NOTE_TIMES = ("created_at", "expires_at")
_SEEN_TIMES = ("created_at", "last_seen")


async def load_working_memory(
    graph: GraphClient,
    agent_id: str,
    now: datetime | None = None,
    *,
    mechanics: MemoryMechanics | None = None,
) -> WorkingMemory:
    """The agent's working memory at ``now`` (default: the current time), in one read.

    The temporal context is computed for ``now``'s calendar date in ``now``'s own time zone.

    Raises:
        AgentNotFound: no such agent.
    """
    mechanics = mechanics or MemoryMechanics()
    at = utc_now(now or graph.clock.now())
    rows = await graph.read(
        "memory/working_memory/load_working_memory",
        agent_id=agent_id,
        now=at,
        limits={
            "notes": mechanics.working_memory_notes,
            "people": mechanics.working_memory_people,
            "entities": mechanics.working_memory_entities,
            "beliefs": mechanics.working_memory_beliefs,
        },
        belief_floor=mechanics.high_strength_belief_floor,
        open_states=list(OPEN_TASK_STATES),
    )
    if not rows:
        raise AgentNotFound(agent_id)
    row = rows[0]
    return WorkingMemory(
        agent_id=agent_id,
        at=at,
        tasks=[task_from_row(datetimes_read(t, *_TASK_TIMES)) for t in row["tasks"]],
        notes=[Note.model_validate(datetimes_read(n, *_NOTE_TIMES)) for n in row["notes"]],
        objects=WorkingObjects(
            people=[person_from_row(datetimes_read(p, *_SEEN_TIMES)) for p in row["people"]],
            entities=[
                Entity.model_validate(datetimes_read(e, "first_seen", "last_seen"))
                for e in row["entities"]
            ],
            temporal=temporal_context(at.date(), mechanics),
            beliefs=[StrongBelief.model_validate(b) for b in row["beliefs"]],
        ),
    )
