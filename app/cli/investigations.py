"""``credence research start|status|resume|pause|cancel|report``: investigations from the command
line. ``start`` and ``resume`` run the investigation in this process, printing each step as it
commits (Ctrl-C or a kill loses at most the step in flight; ``resume`` continues from the graph);
``pause`` and ``cancel`` change the status that any runner reads between steps."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, TypeVar

import typer
from rich.markdown import Markdown
from rich.markup import escape
from rich.table import Table

from app.cli.common import AgentOption, agent_id_of, console, run_with_runtime, when
from app.cli.research import research_app
from app.research import investigations
from app.research.models import Investigation, InvestigationDetail, ResearchStep
from app.research.runner import run_investigation
from app.research.services import ResearchServices

T = TypeVar("T")

InvestigationArgument = Annotated[str, typer.Argument(help="The investigation's id")]


def _with_services(work: Callable[[ResearchServices], Awaitable[T]]) -> T:
    return run_with_runtime(lambda runtime: work(runtime.research))


async def _print_step(step: ResearchStep) -> None:
    cost = f"{step.model_calls} call(s)"
    if step.input_tokens or step.output_tokens:
        cost += f", {step.input_tokens}+{step.output_tokens} tokens"
    console.print(
        f"[bold]{step.ordinal:>3} {step.kind:<10}[/] {escape(step.summary)} "
        f"[dim]({step.duration_ms:.0f} ms, {cost})[/]"
    )


def _print_end(investigation: Investigation) -> None:
    colour = {"finished": "green", "paused": "yellow"}.get(investigation.status, "red")
    verdict = f", verdict [bold]{escape(investigation.verdict)}[/]" if investigation.verdict else ""
    error = f": {escape(investigation.error)}" if investigation.error else ""
    console.print(
        f"investigation {investigation.id} [{colour}]{investigation.status}[/]{verdict}{error}"
    )


def _print_run_end(investigation: Investigation) -> None:
    """The end of an investigation run here; a failed one exits non-zero."""
    _print_end(investigation)
    if investigation.status == "failed":
        raise typer.Exit(1)


def start(
    question: Annotated[str, typer.Argument(help="A question or a claim to investigate")],
    agent: AgentOption = None,
    cap: Annotated[
        int | None, typer.Option("--cap", min=1, max=100, help="Iteration cap (steps)")
    ] = None,
    source: Annotated[
        list[str] | None, typer.Option("--source", help="Only this source (repeat)")
    ] = None,
    detach: Annotated[
        bool, typer.Option("--detach", help="Only create it (run it later with resume)")
    ] = False,
) -> None:
    """Start an investigation and run it here, printing each step."""
    agent_id = agent_id_of(agent)

    async def work(services: ResearchServices) -> Investigation:
        started = await investigations.start_investigation(
            services, None, agent_id, question, iteration_cap=cap, sources=source,
            started_by="cli",
        )  # fmt: skip
        console.print(f"investigation [bold]{started.id}[/] of “{escape(started.question)}”")
        if detach:
            return started
        return await run_investigation(services, agent_id, started.id, _print_step)

    _print_run_end(_with_services(work))


def resume(investigation_id: InvestigationArgument, agent: AgentOption = None) -> None:
    """Resume a paused or failed investigation (or one whose process died) and run it here."""
    agent_id = agent_id_of(agent)

    async def work(services: ResearchServices) -> Investigation:
        await investigations.resume_investigation(services, None, agent_id, investigation_id)
        return await run_investigation(services, agent_id, investigation_id, _print_step)

    _print_run_end(_with_services(work))


def pause(investigation_id: InvestigationArgument, agent: AgentOption = None) -> None:
    """Pause a running investigation (its runner stops after the step in flight)."""
    agent_id = agent_id_of(agent)
    _print_end(
        _with_services(
            lambda services: investigations.pause_investigation(
                services, agent_id, investigation_id
            )
        )
    )


def cancel(investigation_id: InvestigationArgument, agent: AgentOption = None) -> None:
    """Cancel an investigation for good."""
    agent_id = agent_id_of(agent)
    _print_end(
        _with_services(
            lambda services: investigations.cancel_investigation(
                services, agent_id, investigation_id
            )
        )
    )


def status(investigation_id: InvestigationArgument, agent: AgentOption = None) -> None:
    """An investigation's state: hypotheses, conflicts and the steps taken."""
    agent_id = agent_id_of(agent)
    detail: InvestigationDetail = _with_services(
        lambda services: investigations.get_investigation(services, agent_id, investigation_id)
    )
    investigation = detail.investigation
    console.print(f"[bold]{escape(investigation.question)}[/]")
    verdict = f", verdict {escape(investigation.verdict)}" if investigation.verdict else ""
    console.print(
        f"status {investigation.status}, iteration {investigation.iteration}/"
        f"{investigation.iteration_cap}, started {when(investigation.started_at)} by "
        f"{escape(investigation.started_by)}{verdict}"
    )
    if investigation.error:
        console.print(f"[red]failed: {escape(investigation.error)}[/]")
    hypotheses = Table(title="hypotheses", title_justify="left")
    for column in ("#", "statement", "status", "confidence", "searches"):
        hypotheses.add_column(column)
    for h in detail.hypotheses:
        hypotheses.add_row(
            str(h.ordinal + 1),
            escape(h.statement),
            h.status,
            f"{h.confidence:.2f}",
            str(h.searches),
        )
    console.print(hypotheses)
    numbers = {s.id: s.number for s in detail.sources}
    if detail.conflicts:
        conflicts = Table(title="conflicts between sources", title_justify="left")
        for column in ("sources", "status", "resolution"):
            conflicts.add_column(column, overflow="fold")
        for c in detail.conflicts:
            conflicts.add_row(
                escape(f"[{numbers[c.first_source_id]}] vs [{numbers[c.second_source_id]}]"),
                c.status,
                escape(c.resolution or ""),
            )
        console.print(conflicts)
    for step in detail.steps:
        console.print(f"{step.ordinal:>3} {step.kind:<10} {escape(step.summary)}")


def report(investigation_id: InvestigationArgument, agent: AgentOption = None) -> None:
    """Print the investigation's markdown report."""
    agent_id = agent_id_of(agent)
    text = _with_services(
        lambda services: investigations.get_report(services, agent_id, investigation_id)
    )
    if text is None:
        console.print("[yellow]no report yet: the investigation has not synthesized[/]")
        raise typer.Exit(code=1)
    console.print(Markdown(text))


def register(group: typer.Typer) -> None:
    """Adds the investigation commands to the ``credence research`` group."""
    for command in (start, status, resume, pause, cancel, report):
        group.command(command.__name__)(command)


def research_group() -> typer.Typer:
    """``credence research``: the corpus and source commands (app/cli/research.py) with the
    investigation commands added."""
    register(research_app)
    return research_app
