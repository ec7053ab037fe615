"""``credence people | frames | memory``: people, frames, working memory and reflection from the
terminal."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import typer
from pydantic import ValidationError
from rich.panel import Panel
from rich.table import Table

from app.cli_beliefs import AgentOption, agent_id_of, bar, console, run_with_graph
from app.config import get_settings
from app.embeddings.embedder import shared_embedder
from app.errors import PersonNotFound
from app.graph.client import GraphClient
from app.memory import frames, people, reflection, working_memory
from app.memory.people import Person, PersonCreate, PersonSort
from app.memory.reflection import ReflectRequest
from app.memory.settings import MAX_EPISODES_LIMIT
from app.reasoning.factory import make_reasoner

people_app = typer.Typer(help="The people an agent deals with.", no_args_is_help=True)
frames_app = typer.Typer(help="The frames an agent thinks in.", no_args_is_help=True)
memory_app = typer.Typer(help="Working memory.", no_args_is_help=True)


def _when(value: object) -> str:
    return f"{value:%Y-%m-%d %H:%M}" if isinstance(value, datetime) else ""


def _people_table(found: list[Person], title: str) -> Table:
    table = Table(title=title)
    for column in ("id", "name", "role", "seniority", "relationship", "trust", "last seen"):
        table.add_column(column, overflow="fold")
    for person in found:
        table.add_row(
            person.id[:8],
            person.name,
            person.role,
            person.seniority,
            f"{person.relationship_value:.3f}",
            f"{person.trust:.2f}",
            _when(person.last_seen),
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
    try:
        data = PersonCreate.model_validate(
            {"name": name, "email": email, "role": role, "seniority": seniority}
        )
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in item['loc'])}: {item['msg']}" for item in error.errors()
        )
        raise typer.BadParameter(problems) from None
    settings = get_settings()
    person = run_with_graph(
        lambda graph: people.create_person(graph, agent_id, data, mechanics=settings.memory)
    )
    console.print(
        f"added person {person.id}: {person.name} (authority {person.authority:.2f}, "
        f"relationship {person.relationship_value:.3f})"
    )


@people_app.command("show")
def people_show(
    person: Annotated[str, typer.Argument(help="A person's id or name")],
    agent: AgentOption = None,
) -> None:
    """Show a person: authority, relationship value, trust, affect and preferences."""
    agent_id = agent_id_of(agent)

    async def load(graph: GraphClient) -> Person:
        try:
            return await people.get_person(graph, agent_id, person)
        except PersonNotFound:
            found = await people.find_person(graph, agent_id, person)
            if found is None:
                raise
            return found

    found = run_with_graph(load)
    affect = found.affect
    lines = [
        f"[bold]{found.name}[/] {found.email or ''}",
        f"{found.role}, {found.seniority} (authority {found.authority:.2f}); "
        f"born {found.birth_source}; knowledge {found.knowledge_level}",
        f"relationship {bar(found.relationship_value)} {found.relationship_value:.3f}",
        f"frequency    {bar(found.interaction_frequency)} {found.interaction_frequency:.3f} "
        f"({found.interaction_count} interactions)",
        f"relevance    {bar(found.context_relevance)} {found.context_relevance:.3f}",
        f"trust        {bar(found.trust)} {found.trust:.3f}",
        f"affect: valence {affect.valence:+.2f}, arousal {affect.arousal:.2f}, "
        f"stress {affect.stress:.2f}",
        f"last seen {_when(found.last_seen)}",
    ]
    lines += [f"prefers {key}: {value}" for key, value in sorted(found.preferences.items())]
    console.print(Panel("\n".join(lines), title=found.id))


def _frames_table(installed: list[frames.Frame]) -> Table:
    table = Table(title=f"{len(installed)} frames")
    for column in ("key", "name", "stakes", "category", "budget", "patterns"):
        table.add_column(column, overflow="fold")
    for frame in installed:
        table.add_row(
            frame.key,
            frame.name,
            frame.default_stakes,
            frame.default_category,
            str(frame.context_budget),
            ", ".join(frame.activation_patterns),
        )
    return table


@frames_app.command("list")
def frames_list(agent: AgentOption = None) -> None:
    """List the agent's installed frames."""
    agent_id = agent_id_of(agent)
    page = run_with_graph(lambda graph: frames.list_frames(graph, agent_id))
    console.print(_frames_table(page.data))
    if not page.data:
        console.print("no frames installed: `credence frames install` adds seeds/frames.yaml")


@frames_app.command("install")
def frames_install(agent: AgentOption = None) -> None:
    """Install the shipped frames (seeds/frames.yaml) into the agent (idempotent)."""
    agent_id = agent_id_of(agent)
    installed = run_with_graph(lambda graph: frames.install_frames(graph, agent_id))
    console.print(_frames_table(installed))


@frames_app.command("select")
def frames_select(text: str, agent: AgentOption = None) -> None:
    """Which frame TEXT would select, with every frame's matches."""
    agent_id = agent_id_of(agent)
    choice = run_with_graph(lambda graph: frames.choose_frame(graph, agent_id, text))
    selection = choice.selection
    reason = (
        f"{selection.matches} match(es): {', '.join(selection.patterns)}"
        if selection.matched
        else "no pattern matched (fallback)"
    )
    console.print(f"selected [bold]{selection.key}[/] — {reason}")
    if choice.frame is not None:
        console.print(
            f"stakes {choice.frame.default_stakes}, category {choice.frame.default_category}, "
            f"context budget {choice.frame.context_budget}"
        )
    if choice.from_defaults:
        console.print("(the agent has no frames installed: the shipped defaults were used)")
    table = Table()
    for column in ("frame", "matches", "patterns"):
        table.add_column(column, overflow="fold")
    for score in selection.scores:
        table.add_row(score.key, str(score.matches), ", ".join(score.patterns))
    console.print(table)


@memory_app.command("show")
def memory_show(agent: AgentOption = None) -> None:
    """Show working memory: active tasks, notes, people, entities, time and strong beliefs."""
    agent_id = agent_id_of(agent)
    settings = get_settings()
    memory = run_with_graph(
        lambda graph: working_memory.load_working_memory(graph, agent_id, mechanics=settings.memory)
    )
    tasks = Table(title=f"active tasks ({len(memory.tasks)})")
    for column in ("id", "task", "since"):
        tasks.add_column(column, overflow="fold")
    for task in memory.tasks:
        tasks.add_row(task.id[:8], task.description, _when(task.started_at))
    notes = Table(title=f"notes ({len(memory.notes)})")
    for column in ("priority", "note", "expires"):
        notes.add_column(column, overflow="fold")
    for note in memory.notes:
        notes.add_row(str(note.priority), note.content, _when(note.expires_at))
    console.print(tasks)
    console.print(notes)
    objects = memory.objects
    temporal = objects.temporal
    console.print(
        f"[bold]today[/] {temporal.day:%Y-%m-%d}: "
        f"{', '.join(temporal.contexts) or 'no period end'}; next deadline "
        f"{temporal.next_deadline:%Y-%m-%d} ({temporal.deadline_kind}, "
        f"{temporal.days_to_deadline} days); urgency ×{temporal.urgency_multiplier:g}"
    )
    console.print("[bold]people[/] " + (", ".join(p.name for p in objects.people) or "(none)"))
    console.print("[bold]entities[/] " + (", ".join(e.name for e in objects.entities) or "(none)"))
    beliefs = Table(title=f"strong beliefs ({len(objects.beliefs)})")
    for column in ("strength", "statement"):
        beliefs.add_column(column, overflow="fold")
    for belief in objects.beliefs:
        beliefs.add_row(f"{belief.strength:.3f}", belief.statement)
    console.print(beliefs)


@memory_app.command("reflect")
def memory_reflect(
    agent: AgentOption = None,
    since: Annotated[
        datetime | None, typer.Option(help="Only episodes that occurred at or after this time")
    ] = None,
    min_cluster_size: Annotated[int | None, typer.Option(min=2, max=1000)] = None,
    similarity: Annotated[
        float | None, typer.Option(min=0.0, max=1.0, help="Cosine at which episodes cluster")
    ] = None,
    max_episodes: Annotated[int | None, typer.Option(min=1, max=MAX_EPISODES_LIMIT)] = None,
    dry_run: Annotated[bool, typer.Option(help="Cluster and abstract, write nothing")] = False,
) -> None:
    """Consolidate recent similar episodes into rules, capabilities and knowledge gaps."""
    agent_id = agent_id_of(agent)
    settings = get_settings()
    request = ReflectRequest(
        since=since,
        min_cluster_size=min_cluster_size,
        similarity=similarity,
        max_episodes=max_episodes,
        dry_run=dry_run,
    )
    embedder = shared_embedder(settings.embeddings)
    report = run_with_graph(
        lambda graph: reflection.reflect(
            graph,
            embedder,
            make_reasoner(settings.reasoner, embedder),
            agent_id,
            request,
            settings=settings.reflection,
            mechanics=settings.memory,
        )
    )
    table = Table(
        title=f"{len(report.clusters)} cluster(s) from {report.considered} episode(s)"
        + (" — dry run, nothing written" if report.dry_run else "")
    )
    for column in ("rule", "episodes", "cohesion", "outcomes", "domain", "rule content"):
        table.add_column(column, overflow="fold")
    for cluster in report.clusters:
        outcomes = ", ".join(f"{k} {v}" for k, v in cluster.outcomes.items() if v)
        table.add_row(
            cluster.rule_id[:8] if cluster.rule_id else "(preview)",
            str(cluster.size),
            f"{cluster.cohesion:.2f}",
            outcomes,
            cluster.domain,
            f"[bold]{cluster.trigger_concept}[/]: {cluster.content} "
            f"(confidence {cluster.confidence:.2f}, {cluster.reasoner})",
        )
    console.print(table)
    skipped = report.skipped
    console.print(
        f"skipped: {skipped.unclustered} unclustered, {skipped.trivial} trivial, "
        f"{skipped.without_embedding} without embedding, {skipped.beyond_limit} beyond the limit"
        + (f", {skipped.raced} taken by a concurrent reflection" if skipped.raced else "")
    )
    if skipped.without_embedding:
        console.print("(`credence embed backfill` gives the episodes without embedding a vector)")
    for change in report.capabilities:
        console.print(
            f"capability [bold]{change.domain}[/]: +{change.successes} / -{change.failures}; "
            f"proficiency {change.before.proficiency:.3f} → {change.after.proficiency:.3f}, "
            f"success rate {change.before.success_rate:.3f} → {change.after.success_rate:.3f}"
        )
    for gap in report.knowledge_gaps_added:
        console.print(f"knowledge gap: {gap}")
