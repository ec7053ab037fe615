"""``credence memory``: working memory and reflection."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, cast, get_args

import typer
from rich.markup import escape
from rich.table import Table

from app.cli.common import (
    AgentOption,
    agent_id_of,
    console,
    run_with_graph,
    run_with_runtime,
    validated,
    when,
)
from app.common import control_character_problem
from app.config import get_settings
from app.memory import rules, working_memory
from app.memory.introspection import introspect
from app.memory.reflection.models import (
    TARGETED_MAX,
    ReflectionReport,
    ReflectRequest,
    SkippedEpisodes,
)
from app.memory.reflection.procedure import reflect
from app.memory.rules import RuleCreate
from app.memory.settings import MAX_EPISODES_LIMIT
from app.memory.working_memory import TaskState
from app.text.words import content_words

memory_app = typer.Typer(help="Working memory, reflection and introspection.", no_args_is_help=True)


@memory_app.command("show")
def memory_show(agent: AgentOption = None) -> None:
    """Show working memory: active tasks, notes, people, entities, time and strong beliefs."""
    agent_id = agent_id_of(agent)
    settings = get_settings()
    memory = run_with_graph(
        lambda graph: working_memory.load_working_memory(graph, agent_id, mechanics=settings.memory)
    )
    tasks = Table(title=f"active tasks ({len(memory.tasks)})")
    for column in ("id", "task", "state", "why", "since"):
        tasks.add_column(column, overflow="fold")
    for task in memory.tasks:
        why = task.history[-1].cause if task.history else ""
        tasks.add_row(
            task.id[:8], escape(task.description), task.state, escape(why), when(task.started_at)
        )
    notes = Table(title=f"notes ({len(memory.notes)})")
    for column in ("priority", "note", "expires"):
        notes.add_column(column, overflow="fold")
    for note in memory.notes:
        notes.add_row(str(note.priority), escape(note.content), when(note.expires_at))
    console.print(tasks)
    console.print(notes)
    objects = memory.objects
    temporal = objects.temporal
    console.print(
        f"[bold]today[/] {temporal.day:%Y-%m-%d}: "
        f"{escape(', '.join(temporal.contexts)) or 'no period end'}; next deadline "
        f"{temporal.next_deadline:%Y-%m-%d} ({temporal.deadline_kind}, "
        f"{temporal.days_to_deadline} days); urgency ×{temporal.urgency_multiplier:g}"
    )
    people = escape(", ".join(p.name for p in objects.people)) or "(none)"
    entities = escape(", ".join(e.name for e in objects.entities)) or "(none)"
    console.print(f"[bold]people[/] {people}")
    console.print(f"[bold]entities[/] {entities}")
    beliefs = Table(title=f"strong beliefs ({len(objects.beliefs)})")
    for column in ("strength", "statement"):
        beliefs.add_column(column, overflow="fold")
    for belief in objects.beliefs:
        beliefs.add_row(f"{belief.strength:.3f}", escape(belief.statement))
    console.print(beliefs)


@memory_app.command("tasks")
def memory_tasks(
    agent: AgentOption = None,
    state: Annotated[
        list[str] | None, typer.Option(help="Only tasks in this state (repeat for more)")
    ] = None,
    limit: Annotated[int, typer.Option(min=1, max=500)] = 20,
) -> None:
    """Tasks in any state, newest first, with every transition (state, time, cause)."""
    agent_id = agent_id_of(agent)
    states = [_task_state(name) for name in state or []]
    found = run_with_graph(lambda graph: working_memory.list_tasks(graph, agent_id, states, limit))
    table = Table(title=f"tasks ({found.count})")
    for column in ("id", "task", "state", "transitions"):
        table.add_column(column, overflow="fold")
    for task in found.data:
        moves = "\n".join(f"{when(move.at)} {move.state}: {move.cause}" for move in task.history)
        table.add_row(task.id[:8], escape(task.description), task.state, escape(moves))
    console.print(table)


def _task_state(name: str) -> TaskState:
    if name not in get_args(TaskState):
        raise typer.BadParameter(f"{name!r} is not a task state ({', '.join(get_args(TaskState))})")
    return cast(TaskState, name)


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
    episode: Annotated[
        list[str] | None,
        typer.Option(help="Reflect on this episode (repeat for up to 10) as one group"),
    ] = None,
    recent: Annotated[
        int | None,
        typer.Option(min=1, max=TARGETED_MAX, help="Reflect on the last N episodes as one group"),
    ] = None,
) -> None:
    """Consolidate recent similar episodes into rules, capabilities and knowledge gaps; with
    --episode or --recent, draw one rule from those episodes (no clustering)."""
    agent_id = agent_id_of(agent)
    if episode and recent is not None:
        raise typer.BadParameter("give --episode or --recent, not both")
    request = validated(
        ReflectRequest,
        {
            "since": since,
            "min_cluster_size": min_cluster_size,
            "similarity": similarity,
            "max_episodes": max_episodes,
            "dry_run": dry_run,
            "episode_ids": episode or None,
            "recent": recent,
        },
    )
    report = _reflect(agent_id, request)
    console.print(_clusters_table(report))
    _print_skipped(report.skipped)
    _print_self_model_changes(report)


def _reflect(agent_id: str, request: ReflectRequest) -> ReflectionReport:
    return run_with_runtime(
        lambda runtime: reflect(
            runtime.graph,
            runtime.embedder,
            runtime.reasoner,
            agent_id,
            request,
            settings=runtime.settings.reflection,
            mechanics=runtime.settings.memory,
        )
    )


def _clusters_table(report: ReflectionReport) -> Table:
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
            escape(cluster.domain),
            f"[bold]{escape(cluster.trigger_concept)}[/]: {escape(cluster.content)} "
            f"(confidence {cluster.confidence:.2f}, {cluster.reasoner})",
        )
    return table


def _print_skipped(skipped: SkippedEpisodes) -> None:
    console.print(
        f"skipped: {skipped.unclustered} unclustered, {skipped.trivial} trivial, "
        f"{skipped.without_embedding} without embedding, {skipped.beyond_limit} beyond the limit"
        + (f", {skipped.raced} taken by a concurrent reflection" if skipped.raced else "")
        + (f", {skipped.consolidated} consolidated already" if skipped.consolidated else "")
    )
    if skipped.without_embedding:
        console.print("(`credence embed backfill` gives the episodes without embedding a vector)")


def _print_self_model_changes(report: ReflectionReport) -> None:
    for change in report.capabilities:
        console.print(
            f"capability [bold]{escape(change.domain)}[/]: "
            f"+{change.successes} / -{change.failures}; "
            f"proficiency {change.before.proficiency:.3f} → {change.after.proficiency:.3f}, "
            f"success rate {change.before.success_rate:.3f} → {change.after.success_rate:.3f}"
        )
    for gap in report.knowledge_gaps_added:
        console.print(f"knowledge gap: {escape(gap)}")
    for goal in report.suggested_goals:
        console.print(f"suggested goal: {escape(goal)}")


@memory_app.command("learn")
def memory_learn(
    insight: Annotated[str, typer.Argument(help="The lesson or heuristic to remember")],
    agent: AgentOption = None,
    domain: Annotated[
        str | None,
        typer.Option(help="What it applies to (default: the insight's first content words)"),
    ] = None,
) -> None:
    """Capture an insight by hand: a manual rule at confidence 0.8 (seed 003's /s3-learn)."""
    agent_id = agent_id_of(agent)
    text = " ".join(insight.split())
    if not text:
        raise typer.BadParameter("the insight is empty")
    problem = control_character_problem(text) or control_character_problem(domain or "")
    if problem is not None:
        raise typer.BadParameter(problem)
    concept = " ".join((domain or " ".join(content_words(text)[:3]) or text[:60]).split())
    data = validated(
        RuleCreate, {"trigger_concept": concept[:200], "content": text, "source": "manual"}
    )
    rule = run_with_runtime(
        lambda runtime: rules.create_rule(
            runtime.graph, agent_id, data, runtime.embedder, now=runtime.clock.now()
        )
    )
    console.print(
        f"rule {rule.id[:8]} [bold]{escape(rule.trigger_concept)}[/]: {escape(rule.content)} "
        f"(confidence {rule.confidence:.2f}, {rule.source})"
    )


@memory_app.command("introspect")
def memory_introspect(agent: AgentOption = None) -> None:
    """Read the agent's track record: capability gaps and the goals it suggests."""
    agent_id = agent_id_of(agent)
    settings = get_settings()
    looked = run_with_runtime(
        lambda runtime: introspect(
            runtime.graph, agent_id, mechanics=settings.memory, now=runtime.clock.now()
        )
    )
    console.print(f"{looked.judged} capability(ies) with enough outcomes to judge")
    for gap in looked.gaps_added:
        console.print(f"knowledge gap: {escape(gap)}")
    for gap in looked.gaps_resolved:
        console.print(f"gap resolved: {escape(gap)}")
    for goal in looked.suggested_goals or ["(no goal: nothing stands out yet)"]:
        console.print(f"suggested goal: {escape(goal)}")
