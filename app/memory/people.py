"""People (docs/memory.md §2): who the agent deals with, how much their word weighs, how they
feel, and what they know and prefer (the user model lives on Person).

Storage choices:

* ``affect`` is three flat properties (``affect_valence``, ``affect_arousal``, ``affect_stress``):
  they are numbers that Cypher sorts and filters on ("who is stressed?") and that Browser shows.
* ``preferences`` is one JSON string: its keys are open-ended, Neo4j has no nested maps, and it
  is always read and written whole, never queried by key. Flat ``pref_<key>`` properties would
  need a property name per user key (identifier checks, an open-ended schema) for no query gain.
* ``name_key`` (the lower-cased name) makes case-insensitive look-ups an index seek; episode
  import micro-births speakers on the same key.

Every write runs under the agent's lock and recomputes ``relationship_value`` from the values it
writes, so the stored value is never stale.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, ValidationError, field_validator

from app.common import StrictModel, Unit, not_blank, utc_now
from app.errors import AgentNotFound, InvalidInput, PersonNotFound
from app.graph.agent_scope import lock_agent
from app.graph.client import GraphClient, Transaction
from app.memory.settings import MemoryMechanics, Seniority
from app.text.patterns import matched_patterns

KnowledgeLevel = Literal["unknown", "novice", "intermediate", "expert"]
BirthSource = Literal["full", "micro", "api"]
PersonSort = Literal["relationship", "recent", "name"]
Valence = Annotated[float, Field(ge=-1.0, le=1.0)]
PersonName = Annotated[str, Field(min_length=1, max_length=200)]
Email = Annotated[str, Field(max_length=320, pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$")]
Role = Annotated[str, Field(min_length=1, max_length=200)]
PreferenceKey = Annotated[str, Field(min_length=1, max_length=100)]
PreferenceValue = (
    Annotated[str, Field(max_length=1000)]
    | bool
    | int
    | float
    | list[Annotated[str, Field(max_length=200)]]
)
MAX_PREFERENCES = 50


class Affect(StrictModel):
    """How the person seems to feel: valence −1..1, arousal and stress 0..1."""

    valence: Valence = 0.0
    arousal: Unit = 0.0
    stress: Unit = 0.0


class AffectPatch(StrictModel):
    valence: Valence | None = None
    arousal: Unit | None = None
    stress: Unit | None = None


class PersonCreate(StrictModel):
    name: PersonName
    email: Email | None = None
    role: Role = "unknown"
    seniority: Seniority = "unknown"
    interaction_frequency: Unit = 0.0
    # Someone added on purpose is taken as moderately relevant; micro-births start at 0.
    context_relevance: Unit = 0.5
    trust: Unit = 0.5
    affect: Affect = Field(default_factory=Affect)
    knowledge_level: KnowledgeLevel = "unknown"
    preferences: dict[PreferenceKey, PreferenceValue] = Field(
        default_factory=dict, max_length=MAX_PREFERENCES
    )

    _check_name = field_validator("name")(not_blank)


class PersonUpdate(StrictModel):
    """A partial edit. ``email: null`` clears the email; ``preferences`` is merged key by key
    (a key set to null is removed); authority follows ``seniority``."""

    name: PersonName | None = None
    email: Email | None = None
    role: Role | None = None
    seniority: Seniority | None = None
    interaction_frequency: Unit | None = None
    context_relevance: Unit | None = None
    trust: Unit | None = None
    affect: AffectPatch | None = None
    knowledge_level: KnowledgeLevel | None = None
    preferences: dict[PreferenceKey, PreferenceValue | None] | None = Field(
        default=None, max_length=MAX_PREFERENCES
    )

    @field_validator(
        "name",
        "role",
        "seniority",
        "interaction_frequency",
        "context_relevance",
        "trust",
        "affect",
        "knowledge_level",
        "preferences",
    )
    @classmethod
    def _null_only_for_email(cls, value: Any) -> Any:
        # Only an explicit null reaches this (defaults are not validated): only email may be
        # cleared.
        if value is None:
            raise ValueError("may not be null (leave the field out to keep it)")
        if isinstance(value, str) and not value.strip():
            raise ValueError("must not be blank")
        return value


class Person(BaseModel):
    id: str
    agent_id: str
    name: str
    email: str | None = None
    role: str
    seniority: Seniority
    authority: float
    interaction_frequency: float
    interaction_count: int
    context_relevance: float
    relationship_value: float
    trust: float
    affect: Affect
    knowledge_level: KnowledgeLevel
    preferences: dict[str, Any]
    birth_source: BirthSource
    created_at: datetime | None = None
    last_seen: datetime | None = None


class PersonPage(BaseModel):
    data: list[Person]
    count: int


class MicroBirth(BaseModel):
    person: Person
    created: bool


class AffectResult(BaseModel):
    person: Person
    frustration_cues: list[str]
    praise_cues: list[str]
    changed: bool


class Mention(BaseModel):
    """A name found in a text: a known person (with id) or a capitalised name not known yet."""

    name: str
    person_id: str | None = None
    known: bool
    start: int


# --- pure rules ------------------------------------------------------------------------------


def authority_for(seniority: str, mechanics: MemoryMechanics) -> float:
    """Authority from seniority (docs/memory.md §2); an unknown seniority counts as ``unknown``."""
    table: dict[str, float] = {str(k): v for k, v in mechanics.authority_by_seniority.items()}
    return table.get(seniority, table["unknown"])


def relationship_value(
    authority: float,
    interaction_frequency: float,
    context_relevance: float,
    mechanics: MemoryMechanics,
) -> float:
    """0.6·authority + 0.2·interaction_frequency + 0.2·context_relevance (weights are settings)."""
    return (
        mechanics.relationship_weight_authority * authority
        + mechanics.relationship_weight_frequency * interaction_frequency
        + mechanics.relationship_weight_relevance * context_relevance
    )


def interaction_frequency_after(
    frequency: float,
    last_seen: datetime | None,
    now: datetime,
    mechanics: MemoryMechanics,
) -> float:
    """Frequency after one more interaction at ``now``.

    Silence since ``last_seen`` first halves the frequency every ``interaction_half_life_days``;
    the interaction then closes ``interaction_gain`` of the gap to 1. The result stays in [0, 1].
    """
    current = min(1.0, max(0.0, frequency))
    if last_seen is not None:
        idle_days = max(0.0, (now - last_seen).total_seconds() / 86400.0)
        current *= 0.5 ** (idle_days / mechanics.interaction_half_life_days)
    return min(1.0, current + mechanics.interaction_gain * (1.0 - current))


def affect_after(
    affect: Affect, text: str, mechanics: MemoryMechanics
) -> tuple[Affect, list[str], list[str]]:
    """The affect after reading ``text``, and the frustration and praise cues found in it.

    Frustration (any of its cues, once per text) raises stress by 0.2 and lowers valence by 0.3;
    thanks/praise raise valence by 0.2 and lower stress by 0.1. Frustration is applied first; each
    step is clamped (valence to [−1, 1], stress to [0, 1]). Arousal has no cue rule.
    """
    frustration = matched_patterns(mechanics.frustration_cues, text)
    praise = matched_patterns(mechanics.praise_cues, text)
    valence, stress = affect.valence, affect.stress
    if frustration:
        stress = _clamp(stress + mechanics.affect_frustration_stress, 0.0, 1.0)
        valence = _clamp(valence - mechanics.affect_frustration_valence, -1.0, 1.0)
    if praise:
        valence = _clamp(valence + mechanics.affect_praise_valence, -1.0, 1.0)
        stress = _clamp(stress - mechanics.affect_praise_stress, 0.0, 1.0)
    return (
        Affect(valence=round(valence, 10), arousal=affect.arousal, stress=round(stress, 10)),
        frustration,
        praise,
    )


def _clamp(value: float, low: float, high: float) -> float:
    return min(high, max(low, value))


# Capitalised words that are not names on their own (sentence starters, pronouns, greetings,
# titles, days and months). A run of capitalised words loses these at its ends.
_NOT_NAME_WORDS = """
    i i'm i've i'll i'd a an the this that these those it its we you he she they my our your their
    his her me us them please thanks thank hi hello hey dear yes no ok okay so but and or if when
    what why how who where which can could would should will shall may might must let let's also
    just then there here today tomorrow yesterday tonight regards best cheers sincerely team all
    everyone mr mrs ms miss dr prof sir madam monday tuesday wednesday thursday friday saturday
    sunday january february march april june july august september october november december
    re fw fwd cc bcc subject note ps
"""
_NOT_NAMES = frozenset(_NOT_NAME_WORDS.split())
_CAPITALISED_WORD = r"[A-Z][a-z]+(?:['’\-][A-Za-z][a-z]*)*"
_CAPITALISED_RUN = re.compile(rf"{_CAPITALISED_WORD}(?:[ \t]+{_CAPITALISED_WORD})*")
_SENTENCE_END = re.compile(r"(?:^|[.!?:;\n\"“(]\s*)$")
MAX_NAME_WORDS = 3


def find_mentions(text: str, known: Sequence[tuple[str, str]]) -> list[Mention]:
    """People named in ``text``, in order of first appearance, each once.

    A known person (``known`` = (id, name) pairs) is found by their full name (any case, whole
    words) or by a first name that is capitalised in the text and belongs to one known person
    only. Other names are runs of one to three capitalised words (``Maria``, ``Ana de Souza`` is
    read as ``Ana`` and ``Souza``) with non-name words (sentence starters, pronouns, greetings,
    titles, days, months) dropped at their ends; a lone word that opens a sentence is ignored
    (``Please`` / ``Invoices``), so a single name at a sentence start is found only when known,
    and a capitalised word that opens a sentence right before a name is read as part of it
    ("Ping Jo" at a sentence start). Deterministic; no model is involved.
    """
    found: dict[str, Mention] = {}
    taken: list[tuple[int, int]] = []

    def add(mention: Mention, end: int) -> None:
        key = mention.person_id or mention.name.lower()
        taken.append((mention.start, end))
        if key not in found or found[key].start > mention.start:
            found[key] = mention

    first_names: dict[str, list[tuple[str, str]]] = {}
    for person_id, name in known:
        words = name.split()
        if len(words) >= 2 and len(words[0]) >= 2:
            first_names.setdefault(words[0].lower(), []).append((person_id, name))
    for person_id, name in known:
        pattern = r"(?<!\w)" + r"\s+".join(re.escape(w) for w in name.split()) + r"(?!\w)"
        for match in re.finditer(pattern, text, flags=re.IGNORECASE):
            add(
                Mention(name=name, person_id=person_id, known=True, start=match.start()),
                match.end(),
            )
    for first, owners in first_names.items():
        if len(owners) != 1:
            continue
        person_id, name = owners[0]
        for match in re.finditer(r"(?<!\w)" + re.escape(first) + r"(?!\w)", text, re.IGNORECASE):
            if match.group(0)[0].isupper() and not _overlaps(taken, match.start(), match.end()):
                add(
                    Mention(name=name, person_id=person_id, known=True, start=match.start()),
                    match.end(),
                )

    for run in _CAPITALISED_RUN.finditer(text):
        spans = [
            (m.start() + run.start(), m.end() + run.start())
            for m in re.finditer(r"\S+", run.group(0))
        ]
        while spans and text[spans[0][0] : spans[0][1]].lower() in _NOT_NAMES:
            spans.pop(0)
        while spans and text[spans[-1][0] : spans[-1][1]].lower() in _NOT_NAMES:
            spans.pop()
        if not spans or len(spans) > MAX_NAME_WORDS:
            continue
        start, end = spans[0][0], spans[-1][1]
        if _overlaps(taken, start, end):
            continue
        if len(spans) == 1 and _SENTENCE_END.search(text[:start]):
            continue
        add(Mention(name=text[start:end], known=False, start=start), end)
    return sorted(found.values(), key=lambda mention: mention.start)


def _overlaps(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(start < taken_end and taken_start < end for taken_start, taken_end in spans)


# --- storage ---------------------------------------------------------------------------------


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
    )


def _float_or(value: Any, default: float) -> float:
    return default if value is None else float(value)


def name_key(name: str) -> str:
    """The case-insensitive look-up key of a name (as Cypher's ``toLower(trim(name))``)."""
    return " ".join(name.split()).lower()


def _stored(person: Person, mechanics: MemoryMechanics) -> dict[str, Any]:
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
    }


def _new_person(
    agent_id: str, data: PersonCreate, birth_source: BirthSource, now: datetime
) -> Person:
    return Person(
        id=str(uuid.uuid4()),
        agent_id=agent_id,
        name=" ".join(data.name.split()),
        email=data.email,
        role=data.role,
        seniority=data.seniority,
        authority=0.0,  # recomputed by _stored
        interaction_frequency=data.interaction_frequency,
        interaction_count=0,
        context_relevance=data.context_relevance,
        relationship_value=0.0,  # recomputed by _stored
        trust=data.trust,
        affect=data.affect,
        knowledge_level=data.knowledge_level,
        preferences=dict(data.preferences),
        birth_source=birth_source,
        created_at=now,
        last_seen=now,
    )


async def _insert(
    tx: Transaction, person: Person, mechanics: MemoryMechanics, now: datetime
) -> Person:
    rows = await tx.run(
        "people/create_person",
        agent_id=person.agent_id,
        person_id=person.id,
        person=_stored(person, mechanics),
        now=now,
    )
    return person_from_row(rows[0]["person"])


async def _read_in(tx: Transaction, agent_id: str, person_id: str) -> Person:
    rows = await tx.run("people/get_person", agent_id=agent_id, person_id=person_id)
    if not rows:
        raise AgentNotFound(agent_id)
    if rows[0]["person"] is None:
        raise PersonNotFound(person_id, agent_id)
    return person_from_row(rows[0]["person"])


async def _write(tx: Transaction, person: Person, mechanics: MemoryMechanics) -> Person:
    rows = await tx.run(
        "people/update_person",
        agent_id=person.agent_id,
        person_id=person.id,
        changes=_stored(person, mechanics),
    )
    return person_from_row(rows[0]["person"])


# --- services --------------------------------------------------------------------------------


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
    person = _new_person(agent_id, data, birth_source, at)

    async def work(tx: Transaction) -> Person:
        await lock_agent(tx, agent_id)
        return await _insert(tx, person, mechanics, at)

    return await graph.write_transaction(work, action="creating a person")


async def get_person(graph: GraphClient, agent_id: str, person_id: str) -> Person:
    """One person of the agent.

    Raises:
        AgentNotFound: no such agent.
        PersonNotFound: no such person for this agent.
    """
    return await graph.read_transaction(
        lambda tx: _read_in(tx, agent_id, person_id), action="reading a person"
    )


async def find_person(graph: GraphClient, agent_id: str, name: str) -> Person | None:
    """The person called ``name`` (any case; the oldest if several share it), or None.

    Raises:
        AgentNotFound: no such agent.
    """

    rows = await graph.read(
        "people/find_person_by_name", agent_id=agent_id, name_key=name_key(name)
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
        "people/list_people",
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
) -> Person:
    """Applies a partial edit (see :class:`PersonUpdate`).

    Raises:
        AgentNotFound: no such agent.
        PersonNotFound: no such person.
        InvalidInput: the merged preferences would exceed the size limit.
    """
    mechanics = mechanics or MemoryMechanics()
    given = changes.model_fields_set

    async def work(tx: Transaction) -> Person:
        await lock_agent(tx, agent_id)
        current = await _read_in(tx, agent_id, person_id)
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
                    errors=[{"location": ["body", "preferences"], "message": "too many keys"}],
                )
            fields["preferences"] = merged
        return await _write(tx, current.model_copy(update=fields), mechanics)

    return await graph.write_transaction(work, action="updating a person")


def micro_birth_properties(
    agent_id: str, name: str, mechanics: MemoryMechanics, now: datetime
) -> dict[str, Any]:
    """The property map of a person micro-born with ``name`` (for writers that create people in
    bulk inside their own statement, such as the episode import): role and seniority unknown,
    authority 0.5, frequency and relevance 0, birth source ``micro``.

    Raises:
        InvalidInput: the name is blank or too long.
    """
    data = _validated_create({"name": name, "context_relevance": 0.0})
    return _stored(_new_person(agent_id, data, "micro", now), mechanics)


async def micro_birth(
    graph: GraphClient,
    agent_id: str,
    name: str,
    *,
    mechanics: MemoryMechanics | None = None,
    now: datetime | None = None,
) -> MicroBirth:
    """The person called ``name`` (any case), micro-born on first mention (docs/memory.md §2).

    A new person has role and seniority ``unknown`` (authority 0.5), interaction frequency and
    context relevance 0, and birth source ``micro``. Idempotent, also under concurrency: the
    look-up and the creation happen under the agent's lock.

    Raises:
        AgentNotFound: no such agent.
        InvalidInput: the name is blank or too long.
    """
    mechanics = mechanics or MemoryMechanics()
    at = utc_now(now)
    data = _validated_create({"name": name, "context_relevance": 0.0})

    async def work(tx: Transaction) -> MicroBirth:
        await lock_agent(tx, agent_id)
        rows = await tx.run(
            "people/find_person_by_name", agent_id=agent_id, name_key=name_key(data.name)
        )
        if rows and rows[0]["person"] is not None:
            return MicroBirth(person=person_from_row(rows[0]["person"]), created=False)
        person = _new_person(agent_id, data, "micro", at)
        return MicroBirth(person=await _insert(tx, person, mechanics, at), created=True)

    return await graph.write_transaction(work, action="micro-birth of a person")


class MetPerson(BaseModel):
    """A person met in a turn: found or micro-born, one interaction counted, affect read."""

    person: Person
    created: bool
    frustration_cues: list[str]
    praise_cues: list[str]


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
    data = _validated_create({"name": name, "context_relevance": 0.0})
    rows = await tx.run(
        "people/find_person_by_name", agent_id=agent_id, name_key=name_key(data.name)
    )
    created = not rows or rows[0]["person"] is None
    current = (
        await _insert(tx, _new_person(agent_id, data, "micro", now), mechanics, now)
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
    person = await _write(tx, updated, mechanics)
    return MetPerson(
        person=person, created=created, frustration_cues=frustration, praise_cues=praise
    )


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
        current = await _read_in(tx, agent_id, person_id)
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
        return await _write(tx, updated, mechanics)

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
        current = await _read_in(tx, agent_id, person_id)
        affect, frustration, praise = affect_after(current.affect, text, mechanics)
        if affect == current.affect:
            return AffectResult(
                person=current, frustration_cues=frustration, praise_cues=praise, changed=False
            )
        person = await _write(tx, current.model_copy(update={"affect": affect}), mechanics)
        return AffectResult(
            person=person, frustration_cues=frustration, praise_cues=praise, changed=True
        )

    return await graph.write_transaction(work, action="applying affect cues")


async def mentioned_people(graph: GraphClient, agent_id: str, text: str) -> list[Mention]:
    """The people named in ``text``: known ones with their id, others as new capitalised names
    (see :func:`find_mentions`). Nothing is written; micro-birth the unknown ones if wanted.

    Raises:
        AgentNotFound: no such agent.
    """
    rows = await graph.read("people/list_person_names", agent_id=agent_id)
    if not rows:
        raise AgentNotFound(agent_id)
    known = [(p["id"], p["name"]) for p in rows[0]["people"]]
    return find_mentions(text, known)


def _validated_create(data: dict[str, Any]) -> PersonCreate:
    try:
        return PersonCreate.model_validate(data)
    except ValidationError as error:
        problems = [
            {"location": list(item["loc"]), "message": item["msg"]} for item in error.errors()
        ]
        raise InvalidInput(f"invalid person: {problems[0]['message']}", errors=problems) from None
