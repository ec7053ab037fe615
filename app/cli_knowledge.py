"""``credence packs | birth | context | episodes | embed``: knowledge packs, birth, retrieval and
imports from the terminal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import ValidationError
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from app.agents.birth import birth, ensure_default_agent
from app.agents.models import AgentCreate, BirthProfile, BornAgent
from app.cli_beliefs import AgentOption, agent_id_of, console, err_console, run_with_graph
from app.config import get_settings
from app.embeddings import store as embedding_store
from app.embeddings.embedder import shared_embedder
from app.errors import SeedFileInvalid
from app.graph.client import GraphClient
from app.memory import episodes
from app.packs.loader import PackLoadReport, list_loaded_packs, load_pack
from app.retrieval.context import ALL_SECTIONS, Context, ContextRequest
from app.retrieval.sources import assemble_context
from app.seeds import files
from app.seeds.pack_schema import KnowledgePack

packs_app = typer.Typer(help="Knowledge packs (seeds/packs/*.yaml).", no_args_is_help=True)
episodes_app = typer.Typer(help="Episodic memory.", no_args_is_help=True)
embed_app = typer.Typer(help="Embeddings.", no_args_is_help=True)


def _progress() -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
    )


def _print_invalid(error: SeedFileInvalid) -> None:
    for item in error.details["errors"]:
        err_console.print(
            f"[red]{error.details['file']}[/]: {item['path'] or '(top)'}: {item['reason']}"
        )


@packs_app.command("list")
def packs_list(
    agent: Annotated[
        str | None, typer.Option("--agent", "-a", help="Show what this agent has loaded")
    ] = None,
) -> None:
    """The shipped packs (or, with --agent, the packs loaded into an agent)."""
    if agent:
        loaded = run_with_graph(lambda graph: list_loaded_packs(graph, agent))
        table = Table(title=f"packs loaded into {agent}")
        for column in ("name", "version", "industry", "active beliefs", "superseded"):
            table.add_column(column)
        for item in loaded:
            table.add_row(
                item.name,
                str(item.version),
                item.industry or "",
                str(item.beliefs),
                str(item.superseded),
            )
        console.print(table)
        return
    table = Table(title=f"packs in {files.packs_dir()}")
    for column in ("name", "version", "industry", "beliefs", "rules", "censors", "status"):
        table.add_column(column)
    failed = False
    for path in files.pack_files():
        try:
            pack = files.read_pack(path)
        except SeedFileInvalid as error:
            failed = True
            table.add_row(path.stem, "", "", "", "", "", f"[red]invalid: {error.message}[/]")
            continue
        industries = ", ".join([pack.industry, *pack.industries]) + (" (base)" if pack.base else "")
        table.add_row(
            pack.name,
            str(pack.version),
            industries,
            str(len(pack.beliefs)),
            str(len(pack.rules)),
            str(len(pack.censors)),
            "ok",
        )
    console.print(table)
    if failed:
        raise typer.Exit(code=1)


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
            console.print(f"[green]ok[/] {path}: {pack.name} v{pack.version}")
        except SeedFileInvalid as error:
            bad += 1
            _print_invalid(error)
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
        output.write_text(text + "\n", encoding="utf-8")
        console.print(f"wrote {output}")
    else:
        print(text)  # noqa: T201 - plain JSON on stdout, for redirection


def _read_pack_arg(name_or_path: str) -> KnowledgePack:
    path = Path(name_or_path)
    try:
        if path.suffix in (".yaml", ".yml") and path.exists():
            return files.read_pack(path)
        return files.find_pack(name_or_path)
    except SeedFileInvalid as error:
        _print_invalid(error)
        raise typer.Exit(code=1) from error


def _report_load(report: PackLoadReport) -> None:
    console.print(
        f"[bold]{report.pack}[/] v{report.version} {report.status}: {report.created} created, "
        f"{report.kept} kept, {report.superseded} superseded; edges {report.supports_created} "
        f"SUPPORTS + {report.contradicts_created} CONTRADICTS; {report.rules} rules, "
        f"{report.censors} censors"
        + (f"; [yellow]no vectors: {report.degraded}[/]" if report.degraded else "")
    )
    if report.retired:
        console.print(f"  no longer in the pack (deactivated): {', '.join(report.retired)}")


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
        with _progress() as progress:
            for pack in chosen:
                task = progress.add_task(f"{pack.name}: embedding", total=None)

                def advance(stage: str, done: int, total: int, task_id: Any = task) -> None:
                    progress.update(
                        task_id, description=f"writing {stage}", completed=done, total=total
                    )

                vectors = await _pack_vectors(embedder, pack)
                progress.update(task, description=f"{pack.name}: writing")
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
                progress.update(task, description=f"{pack.name}: done")
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


def birth_command(
    name: Annotated[str, typer.Argument(help="The agent's name")],
    principal: Annotated[
        str | None, typer.Option(help="The person it works for (full birth)")
    ] = None,
    email: Annotated[str | None, typer.Option()] = None,
    role: Annotated[str, typer.Option()] = "unknown",
    seniority: Annotated[
        str, typer.Option(help="entry/junior/senior/manager/director/vp/c_suite/unknown")
    ] = "unknown",
    company: Annotated[str | None, typer.Option()] = None,
    industry: Annotated[str, typer.Option(help="Loads the packs for it")] = "accounting",
    pack: Annotated[
        list[str] | None, typer.Option("--pack", help="Load exactly these packs (repeat)")
    ] = None,
    all_packs: Annotated[bool, typer.Option(help="Load every shipped pack")] = False,
) -> None:
    """Birth an agent: with --principal a full birth (creed, packs, frames, censors)."""
    profile = None
    names = pack
    if all_packs:
        names = [p.name for p in files.read_all_packs()]
    try:
        if principal:
            profile = BirthProfile(
                name=principal,
                email=email,
                role=role,
                seniority=seniority,
                company=company,
                industry=industry,
            )
        data = AgentCreate(name=name, profile=profile, packs=names)
    except ValidationError as error:
        for item in error.errors():
            err_console.print(f"[red]invalid[/] {'.'.join(map(str, item['loc']))}: {item['msg']}")
        raise typer.Exit(code=2) from error
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
    console.print(f"born [bold]{born.name}[/]: {born.id} ({born.birth_source})")
    if born.birth:
        details = born.birth
        for report in details.packs:
            _report_load(report)
        console.print(
            f"{born.beliefs} beliefs, {details.frames} frames, {details.censors} censors, "
            f"{details.capabilities} capabilities in {details.ms:.0f} ms"
        )
    console.print(f"use it with: export CREDENCE_AGENT_ID={born.id}")


def context_command(
    query: Annotated[str, typer.Argument(help="What the agent is asked")],
    agent: AgentOption = None,
    k: Annotated[int, typer.Option("-k", "--k", min=1, max=100, help="Items per section")] = 5,
    section: Annotated[
        list[str] | None, typer.Option("--section", help="Only these sections (repeat)")
    ] = None,
    mode: Annotated[str, typer.Option(help="fused, vector or fulltext")] = "fused",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON")] = False,
) -> None:
    """Print the context retrieval assembles for a query, section by section."""
    agent_id = agent_id_of(agent)
    settings = get_settings()
    try:
        request = ContextRequest.model_validate(
            {"q": query, "k": k, "sections": section or list(ALL_SECTIONS), "mode": mode}
        )
    except ValidationError as error:
        for item in error.errors():
            err_console.print(f"[red]invalid[/] {'.'.join(map(str, item['loc']))}: {item['msg']}")
        raise typer.Exit(code=2) from error

    async def work(graph: GraphClient) -> Context:
        return await assemble_context(
            graph, shared_embedder(settings.embeddings), settings.retrieval, agent_id, request
        )

    found = run_with_graph(work)
    if as_json:
        print(found.model_dump_json(indent=2))  # noqa: T201 - plain JSON on stdout
        return
    _print_context(found)


def _print_context(found: Context) -> None:
    frame = f"frame {found.frame.key} ({found.budget_tokens} tokens)" if found.frame else ""
    console.print(f"[bold]context[/] for {found.query!r} {frame}")
    if found.degraded:
        console.print(f"[yellow]degraded:[/] {found.degraded_reason}")
    for name, section in found.sections.items():
        title = (
            f"{name}: {len(section.items)} items, {section.tokens}/{section.budget_tokens} tokens"
        )
        if section.error:
            console.print(f"[red]{name} failed:[/] {section.error}")
            continue
        table = Table(title=title, title_justify="left")
        table.add_column("score", justify="right")
        table.add_column("item", overflow="fold")
        table.add_column("detail", overflow="fold")
        for item in section.items:
            table.add_row(f"{item.get('score', 0):.4f}", *_describe(name, item))
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
    return json.dumps(item, default=str)[:200], ""


@episodes_app.command("import")
def episodes_import(
    path: Annotated[Path, typer.Argument(help="JSON Lines: one episode object per line")],
    agent: AgentOption = None,
    batch_size: Annotated[int, typer.Option(min=1, max=episodes.MAX_BATCH)] = 500,
    end_sessions: Annotated[bool, typer.Option(help="End the sessions (peak-end)")] = True,
) -> None:
    """Import a conversation log (idempotent on external_id), with a progress bar.

    Each line: {"external_id", "speaker", "text", "occurred_at", "session", ...} as in
    POST /v1/agents/{id}/episodes. The whole file is validated first: nothing is written if a
    line is bad."""
    agent_id = agent_id_of(agent)
    items: list[episodes.EpisodeIn] = []
    problems: list[str] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            items.append(episodes.EpisodeIn.model_validate_json(line))
        except ValidationError as error:
            for item in error.errors():
                field = ".".join(map(str, item["loc"])) or "(line)"
                problems.append(f"{path}:{number}: {field}: {item['msg']}")
    if problems:
        for problem in problems:
            err_console.print(f"[red]{problem}[/]")
        raise typer.Exit(code=1)
    settings = get_settings()
    embedder = shared_embedder(settings.embeddings)

    async def work(graph: GraphClient) -> tuple[int, int]:
        created = existing = 0
        with _progress() as progress:
            task = progress.add_task("importing episodes", total=len(items))
            for start in range(0, len(items), batch_size):
                chunk = items[start : start + batch_size]
                report = await episodes.import_episodes(
                    graph,
                    embedder,
                    settings.retrieval,
                    agent_id,
                    episodes.EpisodeBatch(episodes=chunk, end_sessions=False),
                )
                created += report.created
                existing += report.existing
                progress.advance(task, len(chunk))
        if end_sessions:
            keys = sorted({item.session for item in items if item.session})
            if keys:
                await episodes.end_sessions(graph, settings.retrieval, agent_id, keys)
        return created, existing

    created, existing = run_with_graph(work)
    console.print(f"{created} episodes created, {existing} already there")


@embed_app.command("status")
def embed_status() -> None:
    """Load the embedding model (building its ONNX copy first if there is none yet) and say
    which runtime runs it; exits 1 when embeddings are unavailable, with the reason."""
    settings = get_settings()
    status = shared_embedder(settings.embeddings).status()
    if not status.available:
        err_console.print(f"[red]embeddings unavailable:[/] {status.reason}")
        raise typer.Exit(code=1)
    console.print(f"{status.model}: {status.dimensions}-d vectors on {status.backend}")


@embed_app.command("backfill")
def embed_backfill(
    agent: Annotated[
        str | None, typer.Option("--agent", "-a", help="Only this agent (default: all)")
    ] = None,
    batch_size: Annotated[int, typer.Option(min=1, max=4096)] = 256,
) -> None:
    """Store vectors on every belief, rule and episode that has none, with a progress bar."""
    settings = get_settings()
    embedder = shared_embedder(settings.embeddings)

    async def work(graph: GraphClient) -> embedding_store.EmbedReport:
        with _progress() as progress:
            tasks = {
                label: progress.add_task(f"{label.lower()}s", total=None)
                for label in embedding_store.LABELS
            }

            def advance(label: embedding_store.EmbeddedLabel, done: int) -> None:
                progress.advance(tasks[label], done)

            return await embedding_store.backfill(
                graph, embedder, agent, batch_size=batch_size, progress=advance
            )

    report = run_with_graph(work)
    if not report.available:
        err_console.print(f"[red]embeddings unavailable:[/] {report.reason}")
        raise typer.Exit(code=1)
    console.print(
        "stored vectors: "
        + ", ".join(f"{n} {label.lower()}s" for label, n in report.stored.items())
    )


def agents_default(
    id_only: Annotated[
        bool,
        typer.Option("--id", help="Print only the id (for ID=$(credence agents default --id))"),
    ] = False,
) -> None:
    """The default agent (CREDENCE_DEFAULT_AGENT), born with every shipped pack if missing."""
    settings = get_settings()
    if not settings.default_agent:
        err_console.print("[red]no default agent[/]: CREDENCE_DEFAULT_AGENT is empty")
        raise typer.Exit(code=2)

    async def work(graph: GraphClient) -> tuple[Any, bool]:
        return await ensure_default_agent(
            graph,
            shared_embedder(settings.embeddings),
            settings.mechanics,
            settings.default_agent,
            settings.default_agent_industry,
            memory_mechanics=settings.memory,
        )

    agent, born = run_with_graph(work)
    if id_only:
        typer.echo(agent.id)  # the one line a shell captures
        return
    console.print(
        f"{'born' if born else 'found'} default agent [bold]{agent.name}[/]: {agent.id} "
        f"({agent.beliefs} active beliefs)"
    )
    console.print(f"use it with: export CREDENCE_AGENT_ID={agent.id}")
