"""Enrichment at birth (docs/packs.md §4): a directory (people-search) server fills in the
principal's profile and names the people around them, with their roles, seniority and reporting
lines, before the rest of the birth.

The provider is asked first, before any write and outside every transaction (a transaction the
driver retries must never call an outside service again). Its answer is validated whole with the
people store's own model (:class:`~app.memory.people.models.PersonCreate`): an answer that does
not validate is :class:`~app.errors.EnrichmentFailed` and nothing of the birth is written. Then,
right after the principal, one transaction writes the people (birth source ``enrichment``;
authority follows seniority, as for everyone) and their ``REPORTS_TO`` lines. The write matches
people on email, else on name, so writing the same answer twice changes nothing.

The directory's answer (the tool's structured content, or its text as JSON)::

    {"person": {"name": ..., "email": ..., "title": ..., "seniority": ..., "company": ...,
                "industry": ..., "reports_to": "<email or name>"} | null,
     "people": [{"name": ..., "email": ..., "title": ..., "seniority": ...,
                 "reports_to": "<email or name>"}, ...]}

``role`` may stand for ``title``; fields the people store does not keep are ignored.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Annotated, Any, Protocol

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, ValidationError

from app.agents.models import BirthProfile
from app.common import utc_now
from app.errors import EnrichmentFailed, ErrorEntry, validation_entries
from app.graph.agent_scope import lock_agent
from app.graph.client import GraphClient, Transaction
from app.memory.people.models import Person, PersonCreate
from app.memory.people.names import name_key
from app.memory.people.store import (
    insert_person_in,
    new_person,
    person_from_row,
    write_person_in,
)
from app.memory.settings import MemoryMechanics

MAX_PEOPLE = 200
# The profile fields a directory may fill in when the request left them out.
FILLABLE = ("email", "role", "seniority", "company", "industry")
Text = Annotated[str, Field(max_length=1000)]


class DirectoryPerson(BaseModel):
    """One person as a directory server describes them (unknown fields ignored)."""

    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True)

    name: Text
    email: Text | None = None
    role: Text | None = Field(default=None, validation_alias=AliasChoices("role", "title"))
    seniority: Text | None = None
    company: Text | None = None
    industry: Text | None = None
    reports_to: Text | None = None


class DirectoryAnswer(BaseModel):
    """What the directory's tool answers: the person looked up (null when unknown) and the
    people around them."""

    model_config = ConfigDict(extra="ignore")

    person: DirectoryPerson | None = None
    people: list[DirectoryPerson] = Field(default_factory=list, max_length=MAX_PEOPLE)


class EnrichmentProvider(Protocol):
    """Looks the principal up in a directory (docs/packs.md §4)."""

    # The server and tool asked, for reports and errors (``directory.lookup_person``).
    name: str

    async def lookup(self, profile: BirthProfile) -> DirectoryAnswer:
        """The directory's answer about ``profile``'s principal.

        Raises:
            EnrichmentFailed: the server failed or answered something that does not validate.
            EnrichmentTimedOut: it did not answer in time.
        """
        ...


@dataclass(frozen=True)
class EnrichedPerson:
    """A validated person of the answer, with the key the write matches them on."""

    key: str
    data: PersonCreate
    reports_to: str | None


@dataclass(frozen=True)
class EnrichmentPlan:
    """The answer validated whole, before anything is written."""

    provider: str
    found: bool
    profile: BirthProfile
    filled: list[str]
    principal_reports_to: str | None
    people: list[EnrichedPerson] = field(default_factory=list)
    # What the directory offered that the birth left out, each with why (docs/packs.md §4).
    ignored: list[str] = field(default_factory=list)
    # How long the directory took to answer.
    lookup_ms: float = 0.0


@dataclass(frozen=True)
class EnrichmentWritten:
    people: list[Person]
    reporting_lines: int


def person_key(email: str | None, name: str) -> str:
    """Who a person is for the write: their email (any case), else their name."""
    return f"email:{email.lower()}" if email else f"name:{name_key(name)}"


def same_person(email: str | None, name: str, other_email: str | None, other_name: str) -> bool:
    """Two descriptions are one person when their emails agree, or, where either has none,
    their names (any case)."""
    if email and other_email:
        return email.lower() == other_email.lower()
    return name_key(name) == name_key(other_name)


def _reference_keys(reference: str) -> str:
    """The key a ``reports_to`` value (an email or a name) points at."""
    return f"email:{reference.lower()}" if "@" in reference else f"name:{name_key(reference)}"


def _seniority(value: str | None) -> str:
    return re.sub(r"[\s-]+", "_", value.strip().lower()) if value else "unknown"


def _industry(value: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", value.lower()).strip("_")


def plan_enrichment(
    provider: str, profile: BirthProfile, answer: DirectoryAnswer
) -> EnrichmentPlan:
    """Validates the directory's answer and merges it into the profile: what the request gave
    stays, what it left out the directory fills in.

    Raises:
        EnrichmentFailed: the answer's principal or one of its people does not validate (every
            problem listed).
    """
    problems: list[ErrorEntry] = []
    merged, filled = _merged_profile(profile, answer.person, problems)
    people: list[EnrichedPerson] = []
    accepted: list[tuple[str | None, str]] = [(merged.email, merged.name)]
    for index, item in enumerate(answer.people):
        data = _person_create(item, ["answer", "people", index], problems)
        if data is None:
            continue
        if any(same_person(data.email, data.name, email, name) for email, name in accepted):
            continue  # the principal again, or someone already listed
        accepted.append((data.email, data.name))
        people.append(EnrichedPerson(person_key(data.email, data.name), data, item.reports_to))
    if problems:
        raise EnrichmentFailed(
            provider,
            f"the directory's answer does not validate: {first_problem(problems)}",
            errors=problems,
        )
    return EnrichmentPlan(
        provider=provider,
        found=answer.person is not None,
        profile=merged,
        filled=filled,
        principal_reports_to=answer.person.reports_to if answer.person else None,
        people=people,
    )


def _merged_profile(
    profile: BirthProfile, found: DirectoryPerson | None, problems: list[ErrorEntry]
) -> tuple[BirthProfile, list[str]]:
    if found is None:
        return profile, []
    given = profile.model_fields_set
    offered: dict[str, Any] = {
        "email": found.email,
        "role": found.role,
        "seniority": _seniority(found.seniority) if found.seniority else None,
        "company": found.company,
        "industry": _industry(found.industry) if found.industry else None,
    }
    filled = [
        name
        for name in FILLABLE
        if name not in given and offered[name] and offered[name] != getattr(profile, name)
    ]
    update = {name: offered[name] for name in filled}
    try:
        merged = BirthProfile.model_validate({**profile.model_dump(exclude_unset=True), **update})
    except ValidationError as error:
        problems += validation_entries(
            error.errors(include_input=False, include_url=False), ["answer", "person"]
        )
        return profile, []
    return merged, filled


def _person_create(
    item: DirectoryPerson, location: list[str | int], problems: list[ErrorEntry]
) -> PersonCreate | None:
    try:
        return PersonCreate.model_validate(
            {
                "name": item.name,
                "email": item.email,
                "role": item.role or "unknown",
                "seniority": _seniority(item.seniority),
            }
        )
    except ValidationError as error:
        problems += validation_entries(
            error.errors(include_input=False, include_url=False), location
        )
        return None


async def write_enrichment(
    graph: GraphClient,
    agent_id: str,
    principal: Person,
    plan: EnrichmentPlan,
    *,
    mechanics: MemoryMechanics | None = None,
    now: datetime | None = None,
) -> EnrichmentWritten:
    """Writes the plan's people (birth source ``enrichment``) and the reporting lines between
    them and the principal, in one transaction. People already there (same email, else same
    name) are updated, not doubled, so writing the same plan again changes nothing.

    Raises:
        AgentNotFound: no such agent.
    """
    memory = mechanics or MemoryMechanics()
    at = utc_now(now or graph.clock.now())

    async def work(tx: Transaction) -> EnrichmentWritten:
        await lock_agent(tx, agent_id)
        existing = await _existing_people(tx, agent_id, plan)
        written: list[Person] = []
        by_reference = _references(principal)
        for item in plan.people:
            known = next(
                (
                    person
                    for person in existing
                    if same_person(item.data.email, item.data.name, person.email, person.name)
                ),
                None,
            )
            if known is None:
                person = await insert_person_in(
                    tx, new_person(agent_id, item.data, "enrichment", at), memory, at
                )
            else:
                changes = {"role": item.data.role, "seniority": item.data.seniority}
                person = await write_person_in(tx, known.model_copy(update=changes), memory)
            written.append(person)
            by_reference |= _references(person)
        lines = _reporting_lines(plan, principal, written, by_reference)
        rows = await tx.run("agents/birth/set_reports_to", agent_id=agent_id, lines=lines)
        return EnrichmentWritten(people=written, reporting_lines=int(rows[0]["written"]))

    return await graph.write_transaction(work, action="writing the people of an enrichment")


async def _existing_people(tx: Transaction, agent_id: str, plan: EnrichmentPlan) -> list[Person]:
    """The agent's people who share an email or a name with the plan's, oldest first."""
    emails = [item.data.email.lower() for item in plan.people if item.data.email]
    names = [name_key(item.data.name) for item in plan.people]
    rows = await tx.run(
        "agents/birth/find_people_by_keys", agent_id=agent_id, emails=emails, name_keys=names
    )
    return [person_from_row(row["person"]) for row in rows]


def _references(person: Person) -> dict[str, Person]:
    """The keys a ``reports_to`` may name ``person`` by."""
    keys = {f"name:{name_key(person.name)}": person}
    if person.email:
        keys[f"email:{person.email.lower()}"] = person
    return keys


def _reporting_lines(
    plan: EnrichmentPlan,
    principal: Person,
    written: list[Person],
    by_reference: dict[str, Person],
) -> list[dict[str, str]]:
    """``person_id -> manager_id`` for every ``reports_to`` that names someone of the birth (a
    manager the directory did not list is left out)."""
    pairs = [(principal, plan.principal_reports_to)]
    pairs += [(person, item.reports_to) for person, item in zip(written, plan.people, strict=True)]
    lines: list[dict[str, str]] = []
    for person, reference in pairs:
        manager = by_reference.get(_reference_keys(reference)) if reference else None
        if manager is not None and manager.id != person.id:
            lines.append({"person_id": person.id, "manager_id": manager.id})
    return lines


def first_problem(problems: Sequence[Mapping[str, object]]) -> str:
    """The first problem as ``answer.people.0.seniority: <message>`` (and how many more)."""
    location, message = problems[0]["location"], problems[0]["message"]
    where = ".".join(map(str, location)) if isinstance(location, list) else str(location)
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return f"{where}: {message}{more}"
