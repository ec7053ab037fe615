"""``credence beliefs | tension | revisions``: the belief engine from the terminal."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from app.beliefs import history, store, writes
from app.beliefs.dissatisfaction import compute_dissatisfaction
from app.beliefs.models import Belief, BeliefCreate, Dissatisfaction
from app.beliefs.replay import check_consistency
from app.cli.common import (
    AgentOption,
    agent_id_of,
    bar,
    console,
    meter,
    run_with_graph,
    validated,
)
from app.common import Category
from app.config import get_settings
from app.embeddings.embedder import shared_embedder
from app.graph.client import GraphClient

beliefs_app = typer.Typer(help="An agent's beliefs.", no_args_is_help=True)


def _belief_table(beliefs: list[Belief], title: str) -> Table:
    table = Table(title=title)
    for column in ("id", "statement", "category", "strength", "tension", "active"):
        table.add_column(column, overflow="fold")
    for belief in beliefs:
        table.add_row(
            belief.id[:8],
            escape(belief.statement),
            belief.category,
            f"{belief.strength:.3f}",
            f"{belief.tension:.3f}",
            "yes" if belief.is_active else "no",
        )
    return table


@beliefs_app.command("list")
def beliefs_list(
    agent: AgentOption = None,
    category: Annotated[Category | None, typer.Option(help="Only this category")] = None,
    text: Annotated[str | None, typer.Option(help="Statement contains")] = None,
    min_tension: Annotated[float | None, typer.Option(min=0, max=1)] = None,
    include_inactive: Annotated[bool, typer.Option(help="Also superseded ones")] = False,
    needing_attention: Annotated[
        bool,
        typer.Option(
            "--needing-attention",
            help="Only invalidated beliefs (below their category's threshold)",
        ),
    ] = False,
    limit: Annotated[int, typer.Option(min=1, max=500)] = 50,
) -> None:
    """List beliefs (newest first)."""
    agent_id = agent_id_of(agent)
    page = run_with_graph(
        lambda graph: store.list_beliefs(
            graph,
            agent_id,
            category=category,
            active=None if include_inactive else True,
            min_tension=min_tension,
            text=text,
            invalidated=True if needing_attention else None,
            limit=limit,
        )
    )
    console.print(_belief_table(page.data, f"{len(page.data)} of {page.count} beliefs"))


@beliefs_app.command("replay")
def beliefs_replay(agent: AgentOption = None) -> None:
    """Rebuild every belief from the event log and compare with the graph (exit 1 on a
    difference)."""
    agent_id = agent_id_of(agent)
    settings = get_settings()
    report = run_with_graph(lambda graph: check_consistency(graph, settings.mechanics, agent_id))
    console.print(
        f"{report.events} events replayed over {report.beliefs} beliefs: "
        + (
            "[green]the event log explains every belief[/]"
            if report.consistent
            else f"[red]{report.difference_count} difference(s)[/]"
        )
    )
    for difference in report.differences:
        console.print(f"  {escape(difference)}")
    if report.trusted_cascades:
        console.print(
            f"  {report.trusted_cascades} cascade event(s) without their supporters recorded "
            "(written before events recorded them) taken on trust"
        )
    if not report.consistent:
        raise typer.Exit(1)


@beliefs_app.command("add")
def beliefs_add(
    statement: str,
    agent: AgentOption = None,
    category: Annotated[Category, typer.Option()] = "contextual",
    strength: Annotated[float, typer.Option(min=0, max=1)] = 0.5,
    importance: Annotated[float, typer.Option(min=0, max=1)] = 0.5,
) -> None:
    """Add a belief (embedded before the command returns, as over REST)."""
    agent_id = agent_id_of(agent)
    data = validated(
        BeliefCreate,
        {
            "statement": statement,
            "category": category,
            "strength": strength,
            "importance": importance,
        },
    )
    settings = get_settings()
    embedder = shared_embedder(settings.embeddings)
    belief = run_with_graph(
        lambda graph: writes.create_belief(graph, settings.mechanics, embedder, agent_id, data)
    )
    console.print(f"added belief {belief.id}: {escape(belief.statement)}")


@beliefs_app.command("show")
def beliefs_show(
    belief_id: str,
    agent: AgentOption = None,
    context: Annotated[str | None, typer.Option(help="e.g. month_end")] = None,
) -> None:
    """Show a belief: strength (in a context), tension, evidence, events and lineage."""
    agent_id = agent_id_of(agent)
    settings = get_settings()
    detail = run_with_graph(
        lambda graph: store.get_belief(graph, settings.mechanics, agent_id, belief_id, context)
    )
    belief = detail.belief
    lines = [
        f"[bold]{escape(belief.statement)}[/]",
        f"{belief.category}, importance {belief.importance:.2f}, "
        f"{'active' if belief.is_active else 'inactive'}"
        f"{', immutable' if belief.is_immutable else ''}"
        f"{', distrusted' if belief.is_distrusted else ''}"
        f"{', invalidated' if belief.is_invalidated else ''}",
        f"strength {bar(belief.strength)} {belief.strength:.3f}",
        f"tension  {bar(belief.tension)} {belief.tension:.3f}",
        f"in context {escape(context or '(default)')}: {detail.strength_in_context:.3f} → "
        f"{detail.supervision_mode}",
    ]
    lines += [f"supersedes {p.id[:8]}: {escape(p.statement)}" for p in detail.predecessors]
    lines += [f"superseded by {s.id[:8]}: {escape(s.statement)}" for s in detail.successors]
    lines += [f"supports {s.id[:8]} (w {s.weight}): {escape(s.statement)}" for s in detail.supports]
    lines += [
        f"supported by {s.id[:8]} (w {s.weight}): {escape(s.statement)}"
        for s in detail.supported_by
    ]
    lines += [
        f"contradicts {c.id[:8]} ({c.status}): {escape(c.statement)}" for c in detail.contradictions
    ]
    console.print(Panel("\n".join(lines), title=belief.id))
    events = Table(title="events (newest first)")
    for column in ("seq", "kind", "action", "strength", "tension", "note"):
        events.add_column(column, overflow="fold")
    for event in detail.events[:20]:
        old_s, new_s = event.get("old_strength"), event.get("new_strength")
        old_t, new_t = event.get("old_tension"), event.get("new_tension")
        events.add_row(
            str(event["seq"]),
            event["kind"],
            event.get("action") or "",
            f"{old_s if old_s is None else round(old_s, 3)} → {round(new_s, 3)}"
            if new_s is not None
            else "",
            f"{old_t if old_t is None else round(old_t, 3)} → {round(new_t, 3)}"
            if new_t is not None
            else "",
            escape(event.get("note") or event.get("context") or ""),
        )
    console.print(events)


def tension(
    agent: AgentOption = None, limit: Annotated[int, typer.Option(min=1, max=500)] = 20
) -> None:
    """The ``limit`` most tense beliefs, a bar each, and the dissatisfaction meter."""
    agent_id = agent_id_of(agent)
    settings = get_settings()

    async def load(graph: GraphClient) -> tuple[list[Belief], Dissatisfaction]:
        page = await store.list_beliefs(
            graph, agent_id, active=True, min_tension=0.0, sort="tension", limit=limit
        )
        current = await compute_dissatisfaction(graph, settings.mechanics, agent_id)
        return page.data, current

    beliefs, current = run_with_graph(load)
    threshold = settings.mechanics.revision_threshold
    table = Table(title=f"tension (revision at {threshold})")
    for column in ("id", "statement", "tension", ""):
        table.add_column(column, overflow="fold")
    for belief in beliefs:
        colour = (
            "red"
            if belief.tension >= threshold
            else ("yellow" if belief.tension >= threshold / 2 else "green")
        )
        table.add_row(
            belief.id[:8],
            escape(belief.statement),
            f"[{colour}]{bar(belief.tension)}[/]",
            f"{belief.tension:.3f}",
        )
    console.print(table)
    console.print(meter(current))
    for contributor in current.contributors:
        console.print(
            f"  {contributor.share:.3f} from {contributor.id[:8]} {escape(contributor.statement)}"
        )


def revisions(
    agent: AgentOption = None, limit: Annotated[int, typer.Option(min=1, max=500)] = 20
) -> None:
    """The agent's revisions, newest first."""
    agent_id = agent_id_of(agent)
    page = run_with_graph(lambda graph: history.list_revisions(graph, agent_id, 0, limit))
    table = Table(title=f"{len(page.data)} of {page.count} revisions")
    for column in ("when", "mode", "depth", "trigger", "before", "after", "reasoner"):
        table.add_column(column, overflow="fold")
    for revision in page.data:
        table.add_row(
            f"{revision.at:%Y-%m-%d %H:%M}" if revision.at else "",
            revision.mode,
            str(revision.depth),
            f"{revision.trigger_tension:.2f}",
            escape(revision.old_statement),
            escape(revision.new_statement or ""),
            revision.reasoner,
        )
    console.print(table)
