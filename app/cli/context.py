"""``credence context``: what an agent would retrieve for a text."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from pydantic import ValidationError
from rich.markup import escape
from rich.table import Table

from app.cli.common import AgentOption, agent_id_of, console, err_console, run_with_runtime
from app.retrieval.models import (
    ALL_SECTIONS,
    DEFAULT_K,
    K_DESCRIPTION,
    MAX_BUDGET_TOKENS,
    MIN_BUDGET_TOKENS,
    Context,
    ContextRequest,
)


def context_command(
    query: Annotated[str, typer.Argument(help="What the agent is asked")],
    agent: AgentOption = None,
    k: Annotated[int, typer.Option("-k", "--k", min=1, max=100, help=K_DESCRIPTION)] = DEFAULT_K,
    section: Annotated[
        list[str] | None, typer.Option("--section", help="Only these sections (repeat)")
    ] = None,
    mode: Annotated[str, typer.Option(help="fused, vector or fulltext")] = "fused",
    budget_tokens: Annotated[
        int | None,
        typer.Option(
            "--budget-tokens",
            min=MIN_BUDGET_TOKENS,
            max=MAX_BUDGET_TOKENS,
            help="The token budget shared by the sections (default: the frame's)",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON")] = False,
) -> None:
    """Print the context retrieval assembles for a query, section by section."""
    agent_id = agent_id_of(agent)
    try:
        request = ContextRequest.model_validate(
            {
                "q": query,
                "k": k,
                "sections": section or list(ALL_SECTIONS),
                "mode": mode,
                "budget_tokens": budget_tokens,
            }
        )
    except ValidationError as error:
        for item in error.errors():
            where = ".".join(map(str, item["loc"]))
            err_console.print(f"[red]invalid[/] {escape(where)}: {escape(item['msg'])}")
        raise typer.Exit(code=2) from error

    found = run_with_runtime(lambda runtime: runtime.retrieval.context(agent_id, request))
    if as_json:
        print(found.model_dump_json(indent=2))  # noqa: T201 - plain JSON on stdout
        return
    _print_context(found)


def _print_context(found: Context) -> None:
    frame = f"frame {escape(found.frame.key)} ({found.budget_tokens} tokens)" if found.frame else ""
    console.print(f"[bold]context[/] for {escape(repr(found.query))} {frame}")
    if found.degraded:
        console.print(f"[yellow]degraded:[/] {escape(str(found.degraded_reason))}")
    for name, section in found.sections.items():
        title = (
            f"{name}: {len(section.items)} items, {section.tokens}/{section.budget_tokens} tokens"
        )
        if section.error:
            console.print(f"[red]{name} failed:[/] {escape(section.error)}")
            continue
        table = Table(title=title, title_justify="left")
        table.add_column("score", justify="right")
        table.add_column("item", overflow="fold")
        table.add_column("detail", overflow="fold")
        for item in section.items:
            score = item.get("score")
            described = (escape(text) for text in _describe(name, item))
            table.add_row(f"{score:.4f}" if score is not None else "-", *described)
        console.print(table)


def _describe(section: str, item: dict[str, Any]) -> tuple[str, str]:
    if section == "beliefs":
        contradictions = item.get("contradictions") or []
        detail = f"strength {item['strength']:.2f} tension {item['tension']:.2f} ({item['via']})"
        if contradictions:
            detail += "; contradicted by: " + "; ".join(c["statement"] for c in contradictions)
        return item["statement"], detail
    if section == "episodes":
        return item["text"], (
            f"{item.get('external_id') or item['id'][:8]} {item.get('speaker')} "
            f"salience {item['salience']:.1f} interference {item['interference']}"
        )
    if section == "rules":
        return item["content"], f"confidence {item['effective_confidence']:.2f}"
    if section == "people":
        return item["name"], f"{item.get('role')} value {item.get('relationship_value') or 0:.2f}"
    if section == "decisions":
        return item["line"], f"{item.get('mode') or ''} {item.get('verb') or ''}".strip()
    if section == "conflicts":
        sides = "; ".join(f"{s.get('stance')}: {s.get('title')}" for s in item["sources"])
        return item["hypothesis"], f"{item['status']} ({sides}) {item.get('resolution') or ''}"
    return json.dumps(item, default=str)[:200], ""
