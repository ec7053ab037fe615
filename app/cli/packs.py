"""``credence packs | birth``: knowledge packs and agent birth from the terminal."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from app.agents.birth import birth, every_pack_for, known_industries
from app.agents.models import AgentCreate, BornAgent
from app.cli.common import (
    AgentOption,
    agent_id_of,
    console,
    err_console,
    print_error_entries,
    progress_bar,
    run_with_graph,
    validated,
    write_utf8,
)
from app.config import get_settings
from app.embeddings.embedder import shared_embedder
from app.errors import PackNotFound, SeedFileInvalid
from app.graph.client import GraphClient
from app.packs.loader import (
    AgentSkill,
    PackLoadReport,
    PackSummary,
    list_agent_skills,
    list_loaded_packs,
    load_pack,
)
from app.seeds import files
from app.seeds.pack_schema import KnowledgePack

packs_app = typer.Typer(help="Knowledge packs (seeds/packs/*.yaml).", no_args_is_help=True)


def _table(title: str, columns: Sequence[str], rows: Iterable[Sequence[str | Text]]) -> Table:
    """A rich table of one row a sequence of cells, under its title and column headers; the
    title and text cells are shown as written (a pack's names are not rich markup)."""
    table = Table(title=escape(title))
    for column in columns:
        table.add_column(column)
    for row in rows:
        table.add_row(*(escape(cell) if isinstance(cell, str) else cell for cell in row))
    return table


@packs_app.command("list")
def packs_list(
    agent: Annotated[
        str | None, typer.Option("--agent", "-a", help="Show what this agent has loaded")
    ] = None,
) -> None:
    """The shipped packs (or, with --agent, the packs loaded into an agent)."""
    if agent:
        _print_loaded(agent)
        return
    rows: list[Sequence[str | Text]] = []
    failed = False
    for path in files.pack_files():
        try:
            pack = files.read_pack(path)
        except SeedFileInvalid as error:
            failed = True
            invalid = Text(f"invalid: {error.message}", style="red")
            rows.append((path.stem, "", "", "", "", "", "", invalid))
            continue
        industries = ", ".join([pack.industry, *pack.industries]) + (" (base)" if pack.base else "")
        rows.append(
            (
                pack.name,
                str(pack.version),
                industries,
                str(len(pack.beliefs)),
                str(len(pack.rules)),
                str(len(pack.censors)),
                pack.skill.name if pack.skill else "",
                "ok",
            )
        )
    columns = ("name", "version", "industry", "beliefs", "rules", "censors", "skill", "status")
    console.print(_table(f"packs in {files.packs_dir()}", columns, rows))
    if failed:
        raise typer.Exit(code=1)


def _print_loaded(agent: str) -> None:
    """The packs loaded into ``agent`` (with the skill each brought) and the skill in force."""

    async def read(graph: GraphClient) -> tuple[list[PackSummary], list[AgentSkill]]:
        return await list_loaded_packs(graph, agent), await list_agent_skills(graph, agent)

    loaded, skills = run_with_graph(read)
    columns = ("name", "version", "industry", "active beliefs", "superseded", "inactive", "skill")
    rows = (
        (
            item.name,
            str(item.version),
            item.industry or "",
            str(item.beliefs),
            str(item.superseded),
            str(item.inactive),
            item.skill or "",
        )
        for item in loaded
    )
    console.print(_table(f"packs loaded into {agent}", columns, rows))
    console.print(_skill_line(skills[0]))


def _skill_line(skill: AgentSkill) -> str:
    source = f"from pack {skill.pack}" if skill.pack else "shipped default"
    return (
        f"skill in force: [bold]{escape(skill.name)}[/] v{skill.version} ({escape(source)}): "
        f"{len(skill.verbs)} verbs, criteria {escape(', '.join(skill.criteria))}"
    )


@packs_app.command("skills")
def packs_skills(agent: AgentOption = None) -> None:
    """The agent's domain skills, the one its turns work under first."""
    agent_id = agent_id_of(agent)
    skills = run_with_graph(lambda graph: list_agent_skills(graph, agent_id))
    columns = ("skill", "version", "from", "in force", "verbs", "criteria")
    rows = (
        (
            skill.name,
            str(skill.version),
            skill.pack or "(shipped)",
            "yes" if skill.in_force else "",
            ", ".join(skill.verbs),
            ", ".join(skill.criteria),
        )
        for skill in skills
    )
    console.print(_table(f"skills of {agent_id}", columns, rows))


@packs_app.command("validate")
def packs_validate(
    paths: Annotated[
        list[Path] | None, typer.Argument(help="Pack files (default: every shipped pack)")
    ] = None,
) -> None:
    """Validate pack files: every problem is listed with its file and path."""
    targets = paths or files.pack_files()
    bad = 0
    for path in targets:
        try:
            pack = files.read_pack(path)
            console.print(f"[green]ok[/] {escape(str(path))}: {escape(pack.name)} v{pack.version}")
        except SeedFileInvalid as error:
            bad += 1
            print_error_entries(error)
    if bad:
        err_console.print(f"[bold red]{bad} invalid pack file(s)[/]")
        raise typer.Exit(code=1)


@packs_app.command("schema")
def packs_schema(
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write to a file")] = None,
) -> None:
    """The JSON Schema of a pack file, for pack authors and editors."""
    text = json.dumps(KnowledgePack.model_json_schema(), indent=2)
    if output:
        write_utf8(output, text + "\n")
        console.print(f"wrote {escape(str(output))}")
    else:
        print(text)  # noqa: T201 - plain JSON on stdout, for redirection


def _read_pack_arg(name_or_path: str) -> KnowledgePack:
    """A pack file (a ``.yaml`` or ``.yml`` path: a pack's name has no dot) or a shipped pack's
    name; a file that cannot be read or is invalid, or an unknown name, is printed and exits 1."""
    path = Path(name_or_path)
    try:
        if path.suffix in (".yaml", ".yml"):
            return files.read_pack(path)
        return files.find_pack(name_or_path)
    except SeedFileInvalid as error:
        print_error_entries(error)
        raise typer.Exit(code=1) from error
    except PackNotFound as error:
        err_console.print(f"[bold red]error[/] ({error.code}): {escape(error.message)}")
        raise typer.Exit(code=1) from error


def _report_load(report: PackLoadReport) -> None:
    console.print(
        f"[bold]{escape(report.pack)}[/] v{report.version} {report.status}: "
        f"{report.created} created, "
        f"{report.kept} kept, {report.superseded} superseded; edges {report.supports_created} "
        f"SUPPORTS + {report.contradicts_created} CONTRADICTS; {report.rules} rules, "
        f"{report.censors} censors"
        + (f"; skill {escape(report.skill)}" if report.skill else "")
        + (f"; [yellow]no vectors: {escape(report.degraded)}[/]" if report.degraded else "")
    )
    if report.retired:
        retired = escape(", ".join(report.retired))
        console.print(f"  no longer in the pack (deactivated): {retired}")
    if report.withheld:
        console.print(
            "  changed since the pack gave them (left as they are): "
            + escape(", ".join(report.withheld))
        )
    if report.retired_censors:
        console.print(
            "  censors no longer in the pack (deactivated): "
            + escape(", ".join(report.retired_censors))
        )
    if report.retired_rules:
        console.print(
            "  rules no longer in the pack (deactivated): "
            + escape(", ".join(report.retired_rules))
        )
    if report.retired_frames:
        console.print(
            "  frames no longer in the pack (deactivated): "
            + escape(", ".join(report.retired_frames))
        )
    if report.retired_supports:
        console.print(
            "  SUPPORTS edges no longer in the pack (removed): "
            + escape(", ".join(report.retired_supports))
        )
    if report.retired_contradicts:
        console.print(
            "  CONTRADICTS edges no longer in the pack (resolved): "
            + escape(", ".join(report.retired_contradicts))
        )


@packs_app.command("load")
def packs_load(
    packs: Annotated[list[str], typer.Argument(help="Pack names or YAML files")],
    agent: AgentOption = None,
) -> None:
    """Load (or upgrade) packs into an agent, with a progress bar."""
    agent_id = agent_id_of(agent)
    chosen = [_read_pack_arg(item) for item in packs]
    settings = get_settings()
    embedder = shared_embedder(settings.embeddings)

    async def work(graph: GraphClient) -> list[PackLoadReport]:
        reports: list[PackLoadReport] = []
        with progress_bar() as progress:
            for pack in chosen:
                named = escape(pack.name)
                task = progress.add_task(f"{named}: embedding", total=None)

                def advance(stage: str, done: int, total: int, task_id: Any = task) -> None:
                    progress.update(
                        task_id, description=f"writing {escape(stage)}", completed=done, total=total
                    )

                vectors = await _pack_vectors(embedder, pack)
                progress.update(task, description=f"{named}: writing")
                reports.append(
                    await load_pack(
                        graph,
                        embedder,
                        settings.mechanics,
                        agent_id,
                        pack,
                        vectors=vectors,
                        progress=advance,
                    )
                )
                progress.update(task, description=f"{named}: done")
        return reports

    for report in run_with_graph(work):
        _report_load(report)


async def _pack_vectors(embedder: Any, pack: KnowledgePack) -> dict[str, list[float]]:
    texts = [(b.key, b.statement) for b in pack.beliefs]
    texts += [(f"rule:{r.key}", r.content) for r in pack.rules]
    found = await embedder.embed([text for _, text in texts])
    if found is None:
        return {}
    return dict(zip((key for key, _ in texts), found, strict=True))


def _birth_request(
    name: str,
    principal: str | None,
    profile: dict[str, str | None],
    pack: list[str] | None,
    all_packs: bool,
) -> AgentCreate:
    """What ``credence birth`` asks for, refused (exit 2) before anything is written when an
    option of a full birth comes without --principal (the agent would be born empty, the option
    ignored), the principal is blank, or the industry is one no shipped pack serves (the agent
    would get the base packs alone)."""
    given = {field: value for field, value in profile.items() if value is not None}
    if principal is None:
        needing = [f"--{field}" for field in given]
        if pack:
            needing.append("--pack")
        if all_packs:
            needing.append("--all-packs")
        if needing:
            err_console.print(
                f"[bold red]error[/]: {', '.join(needing)} "
                f"{'needs' if len(needing) == 1 else 'need'} --principal NAME (a full birth, "
                "for the person the agent works for); without --principal the agent is born empty"
            )
            raise typer.Exit(code=2)
        return validated(AgentCreate, {"name": name})
    if not principal.strip():
        raise typer.BadParameter(
            "is blank: name the person the agent works for", param_hint="'--principal'"
        )
    industry = given.get("industry")
    if industry is not None and industry not in (known := known_industries()):
        raise typer.BadParameter(
            f"no shipped pack serves {industry!r}; the industries are {', '.join(known)}",
            param_hint="'--industry'",
        )
    data = validated(
        AgentCreate, {"name": name, "profile": {"name": principal, **given}, "packs": pack}
    )
    if all_packs and data.profile is not None:  # the shipped packs' names, valid as they are
        every = every_pack_for(data.profile.industry)
        return data.model_copy(update={"packs": [item.name for item in every]})
    return data


def birth_command(
    name: Annotated[str, typer.Argument(help="The agent's name")],
    principal: Annotated[
        str | None, typer.Option(help="The person it works for (full birth)")
    ] = None,
    email: Annotated[str | None, typer.Option(help="The principal's email")] = None,
    role: Annotated[str | None, typer.Option(help="The principal's role (default unknown)")] = None,
    seniority: Annotated[
        str | None,
        typer.Option(
            help="entry/junior/senior/manager/director/vp/c_suite/unknown (default unknown)"
        ),
    ] = None,
    company: Annotated[str | None, typer.Option(help="The principal's company")] = None,
    industry: Annotated[
        str | None, typer.Option(help="Loads the packs for it (default accounting)")
    ] = None,
    pack: Annotated[
        list[str] | None, typer.Option("--pack", help="Load exactly these packs (repeat)")
    ] = None,
    all_packs: Annotated[
        bool,
        typer.Option(help="Load every shipped pack (but those bringing another domain's skill)"),
    ] = False,
) -> None:
    """Birth an agent: with --principal a full birth (creed, packs, frames, censors); without
    it an empty agent, and the options of a full birth are refused."""
    profile = {
        "email": email,
        "role": role,
        "seniority": seniority,
        "company": company,
        "industry": industry,
    }
    try:
        data = _birth_request(name, principal, profile, pack, all_packs)
    except SeedFileInvalid as error:
        print_error_entries(error)
        raise typer.Exit(code=1) from error
    settings = get_settings()

    async def work(graph: GraphClient) -> BornAgent:
        return await birth(
            graph,
            shared_embedder(settings.embeddings),
            settings.mechanics,
            data,
            memory_mechanics=settings.memory,
        )

    born = run_with_graph(work)
    console.print(f"born [bold]{escape(born.name)}[/]: {born.id} ({born.birth_source})")
    if born.birth:
        details = born.birth
        for report in details.packs:
            _report_load(report)
        console.print(
            f"{born.beliefs} beliefs, {details.frames} frames, {details.censors} censors, "
            f"{details.capabilities} capabilities in {details.ms:.0f} ms"
        )
    console.print(f"use it with: export CREDENCE_AGENT_ID={born.id}")
