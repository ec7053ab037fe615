"""``credence people``: the people an agent deals with."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from app.cli.common import (
    AgentOption,
    agent_id_of,
    bar,
    console,
    run_with_graph,
    validated,
    when,
)
from app.config import get_settings
from app.errors import InvalidInput, PersonNotFound, error_entry
from app.graph.client import GraphClient
from app.memory.people import store as people
from app.memory.people.aliases import add_alias, remove_alias
from app.memory.people.models import Person, PersonAlias, PersonCreate, PersonSort
from app.memory.people.names import name_key
from app.memory.people.removal import PersonDeletion, PersonMerger, delete_person, merge_people

people_app = typer.Typer(help="The people an agent deals with.", no_args_is_help=True)


def _people_table(found: list[Person], title: str) -> Table:
    table = Table(title=title)
    for column in ("id", "name", "role", "seniority", "relationship", "trust", "last seen"):
        table.add_column(column, overflow="fold")
    for person in found:
        table.add_row(
            person.id[:8],
            escape(person.name),
            escape(person.role),
            person.seniority,
            f"{person.relationship_value:.3f}",
            f"{person.trust:.2f}",
            when(person.last_seen),
        )
    return table


@people_app.command("list")
def people_list(
    agent: AgentOption = None,
    text: Annotated[str | None, typer.Option(help="Name or email contains")] = None,
    sort: Annotated[str, typer.Option(help="relationship | recent | name")] = "relationship",
    limit: Annotated[int, typer.Option(min=1, max=500)] = 50,
) -> None:
    """List people (highest relationship value first)."""
    agent_id = agent_id_of(agent)
    if sort not in ("relationship", "recent", "name"):
        raise typer.BadParameter("use relationship, recent or name", param_hint="--sort")
    order: PersonSort = sort  # type: ignore[assignment]  # checked just above
    page = run_with_graph(
        lambda graph: people.list_people(graph, agent_id, text=text, sort=order, limit=limit)
    )
    console.print(_people_table(page.data, f"{len(page.data)} of {page.count} people"))


@people_app.command("add")
def people_add(
    name: str,
    agent: AgentOption = None,
    email: Annotated[str | None, typer.Option()] = None,
    role: Annotated[str, typer.Option()] = "unknown",
    seniority: Annotated[
        str, typer.Option(help="entry|junior|senior|manager|director|vp|c_suite|unknown")
    ] = "unknown",
) -> None:
    """Add a person."""
    agent_id = agent_id_of(agent)
    data = validated(
        PersonCreate, {"name": name, "email": email, "role": role, "seniority": seniority}
    )
    settings = get_settings()
    person = run_with_graph(
        lambda graph: people.create_person(graph, agent_id, data, mechanics=settings.memory)
    )
    console.print(
        f"added person {person.id}: {escape(person.name)} (authority {person.authority:.2f}, "
        f"relationship {person.relationship_value:.3f})"
    )


@people_app.command("show")
def people_show(
    person: Annotated[str, typer.Argument(help="A person's id or name")],
    agent: AgentOption = None,
) -> None:
    """Show a person: authority, relationship value, trust, affect, preferences, and what the
    loop learned of them (knowledge per domain, topics, goals, patterns, trust changes)."""
    agent_id = agent_id_of(agent)
    mechanics = get_settings().memory

    async def load(graph: GraphClient) -> Person:
        try:
            return await people.get_person(graph, agent_id, person, mechanics=mechanics)
        except PersonNotFound:
            found = await people.find_person(graph, agent_id, person)
            if found is None:
                raise
            return await people.get_person(graph, agent_id, found.id, mechanics=mechanics)

    found = run_with_graph(load)
    affect = found.affect
    lines = [
        f"[bold]{escape(found.name)}[/] {escape(found.email or '')}",
        f"{escape(found.role)}, {found.seniority} (authority {found.authority:.2f}); "
        f"born {found.birth_source}; knowledge {found.knowledge_level}",
        f"relationship {bar(found.relationship_value)} {found.relationship_value:.3f}",
        f"frequency    {bar(found.interaction_frequency)} {found.interaction_frequency:.3f} "
        f"({found.interaction_count} interactions)",
        f"relevance    {bar(found.context_relevance)} {found.context_relevance:.3f}",
        f"trust        {bar(found.trust)} {found.trust:.3f}",
        f"affect: valence {affect.valence:+.2f}, arousal {affect.arousal:.2f}, "
        f"stress {affect.stress:.2f}",
        f"last seen {when(found.last_seen)}",
    ]
    if found.aliases:
        lines.append(escape("also known as: " + ", ".join(found.aliases)))
    lines += [escape(f"prefers {key}: {value}") for key, value in sorted(found.preferences.items())]
    lines += _user_model_lines(found)
    console.print(Panel("\n".join(lines), title=found.id))


async def _person_id(graph: GraphClient, agent_id: str, reference: str) -> str:
    """The id of the person ``reference`` names: an id, else a name (the oldest of that name).

    Raises:
        PersonNotFound: neither.
    """
    try:
        return (await people.get_person(graph, agent_id, reference)).id
    except PersonNotFound:
        found = await people.find_person(graph, agent_id, reference)
        if found is None:
            raise
        return found.id


@people_app.command("delete")
def people_delete(
    person: Annotated[str, typer.Argument(help="A person's id or name")],
    agent: AgentOption = None,
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask")] = False,
) -> None:
    """Delete a person and their own data (the agent forgets them); their episodes stay and
    lose the link to them."""
    agent_id = agent_id_of(agent)
    if not yes:
        typer.confirm(f"Delete {person} and everything kept about them?", abort=True)

    async def remove(graph: GraphClient) -> PersonDeletion:
        return await delete_person(graph, agent_id, await _person_id(graph, agent_id, person))

    deleted = run_with_graph(remove)
    console.print(
        f"deleted person {deleted.id}: {escape(deleted.name)} "
        f"({deleted.episodes_unlinked} episodes kept without them)"
    )


@people_app.command("merge")
def people_merge(
    person: Annotated[str, typer.Argument(help="The person who stays: id or name")],
    other: Annotated[str, typer.Argument(help="The person merged in, then deleted: id or name")],
    agent: AgentOption = None,
) -> None:
    """Merge OTHER into PERSON (one human under two names): PERSON keeps its id, OTHER's
    episodes, evidence and what the loop learned of them move to it, OTHER is deleted."""
    agent_id = agent_id_of(agent)
    mechanics = get_settings().memory

    async def merge(graph: GraphClient) -> PersonMerger:
        survivor = await _person_id(graph, agent_id, person)
        merged = await _person_id(graph, agent_id, other)
        if survivor == merged and other != merged:
            await _refuse_namesakes(graph, agent_id, other, survivor)
        return await merge_people(graph, agent_id, survivor, merged, mechanics=mechanics)

    result = run_with_graph(merge)
    console.print(
        f"merged {result.merged_id} into {result.person.id}: {escape(result.person.name)} "
        f"({result.episodes_moved} episodes moved, relationship "
        f"{result.person.relationship_value:.3f})"
    )


@people_app.command("alias")
def people_alias(
    person: Annotated[str, typer.Argument(help="The person: id or name")],
    name: Annotated[str, typer.Argument(help="The name that will also mean them")],
    agent: AgentOption = None,
) -> None:
    """Give PERSON the alias NAME (used when no person has that name); refused when another
    person has NAME as their name or alias."""
    agent_id = agent_id_of(agent)
    alias = validated(PersonAlias, {"name": name}).name

    async def add(graph: GraphClient) -> Person:
        return await add_alias(graph, agent_id, await _person_id(graph, agent_id, person), alias)

    _print_aliases(run_with_graph(add))


@people_app.command("unalias")
def people_unalias(
    person: Annotated[str, typer.Argument(help="The person: id or name")],
    name: Annotated[str, typer.Argument(help="The alias that will no longer mean them")],
    agent: AgentOption = None,
) -> None:
    """Take the alias NAME from PERSON (after a mistaken merge, or when the name now means
    someone else); their episodes stay theirs."""
    agent_id = agent_id_of(agent)

    async def remove(graph: GraphClient) -> Person:
        return await remove_alias(graph, agent_id, await _person_id(graph, agent_id, person), name)

    _print_aliases(run_with_graph(remove))


def _print_aliases(person: Person) -> None:
    known_as = ", ".join(person.aliases) or "no other name"
    console.print(escape(f"{person.name} ({person.id}) is also known as: {known_as}"))


async def _refuse_namesakes(graph: GraphClient, agent_id: str, name: str, oldest: str) -> None:
    """A name stands for the oldest person of that name: when several share it, merging them by
    name names one person twice. Raises :class:`InvalidInput` listing the others' ids to name
    instead (when nobody else has the name, the merge's own refusal says it is one person).

    Raises:
        InvalidInput: other people share the name.
    """
    key = name_key(name)
    page = await people.list_people(graph, agent_id, text=name, sort="name", limit=100)
    others = [p.id for p in page.data if name_key(p.name) == key and p.id != oldest]
    if others:
        message = (
            f"{name!r} names the oldest person of that name ({oldest}); "
            f"to merge another into them, name it by its id: {', '.join(others)}"
        )
        raise InvalidInput(message, errors=[error_entry(["other"], message, "same_person")])


def _user_model_lines(found: Person) -> list[str]:
    """What the loop has learned of the person: knowledge per domain, topics, goals, patterns
    and the latest trust changes with their reasons."""
    lines = [
        escape(f"knows {domain}: {k.level} ({k.score:.2f}, {k.signals} signals)")
        for domain, k in sorted(found.knowledge.items())
    ]
    if found.topics:
        lines.append(escape("topics: " + ", ".join(f"{t.topic} ({t.count})" for t in found.topics)))
    lines += [escape(f"goal: {g.goal} ({g.count}×)") for g in found.inferred_goals[:5]]
    lines += [escape(f"worked: {p.pattern} ({p.count}×)") for p in found.successful_patterns[:5]]
    lines += [
        f"trust {c.before:.3f} → {c.after:.3f} ({c.cause}, {when(c.at)}): {escape(c.reason)}"
        for c in found.trust_history[:5]
    ]
    return lines
