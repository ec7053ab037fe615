"""``credence research``: research mode (issue 16). ``research sources`` manages the documents
an agent's investigations search (its corpus); ``research search`` shows what they would find.
The investigation commands (start, status, resume, report) join this group."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, cast

import typer
from rich.markup import escape
from rich.table import Table

from app.cli.common import (
    AgentOption,
    agent_id_of,
    console,
    err_console,
    print_error_entries,
    read_utf8,
    run_with_graph,
    run_with_runtime,
    when,
)
from app.config import get_settings
from app.embeddings.embedder import shared_embedder
from app.errors import CorpusFileInvalid
from app.graph.client import GraphClient
from app.research.sources.corpus import (
    CorpusDeletion,
    CorpusDocumentPage,
    CorpusLoadReport,
    delete_corpus_document,
    list_corpus_documents,
    load_corpus_files,
)
from app.research.sources.documents import CorpusFile, CorpusFormat, format_of
from app.research.sources.registry import (
    DEFAULT_LIMIT_PER_SOURCE,
    SourceSearch,
    search_agent_sources,
)
from app.runtime import Runtime

research_app = typer.Typer(
    help="Research mode: investigations and their sources.", no_args_is_help=True
)
sources_app = typer.Typer(
    help="The documents an agent's investigations search (txt, md, jsonl).", no_args_is_help=True
)
research_app.add_typer(sources_app, name="sources")


def _read(path: Path, format_option: str | None) -> CorpusFile:
    """A file from disk as a corpus file; an unreadable one or an unknown format exits 2."""
    fmt: CorpusFormat | None = format_of(path.name)
    if format_option is not None:
        if format_option not in ("txt", "md", "jsonl"):
            err_console.print(
                "[bold red]error[/]: --format must be txt, md or jsonl, not "
                + escape(repr(format_option))
            )
            raise typer.Exit(code=2)
        fmt = cast(CorpusFormat, format_option)
    if fmt is None:
        err_console.print(
            f"[bold red]error[/]: {escape(str(path))}: unknown format "
            "(name it .txt, .md or .jsonl, or give --format)"
        )
        raise typer.Exit(code=2)
    return CorpusFile(name=path.name, format=fmt, content=read_utf8(path))


@sources_app.command("add")
def sources_add(
    files: Annotated[list[Path], typer.Argument(help="Files to load (.txt, .md, .jsonl)")],
    agent: AgentOption = None,
    format_option: Annotated[
        str | None, typer.Option("--format", help="txt, md or jsonl (default: from the suffix)")
    ] = None,
) -> None:
    """Load files into the agent's corpus (all validated first; loading again is idempotent)."""
    agent_id = agent_id_of(agent)
    corpus_files = [_read(path, format_option) for path in files]
    embedder = shared_embedder(get_settings().embeddings)

    async def work(graph: GraphClient) -> CorpusLoadReport:
        return await load_corpus_files(graph, embedder, agent_id, corpus_files)

    try:
        report = run_with_graph(work)
    except typer.Exit as stop:
        cause = stop.__cause__
        if isinstance(cause, CorpusFileInvalid):
            print_error_entries(cause)
            err_console.print("[bold red]nothing was loaded[/]")
        raise
    table = Table(title=f"corpus of {escape(agent_id)}")
    for column in ("file", "format", "documents", "new", "replaced", "unchanged", "passages"):
        table.add_column(column)
    for item in report.files:
        table.add_row(
            escape(item.name),
            item.format,
            str(item.documents),
            str(item.created),
            str(item.replaced),
            str(item.unchanged),
            str(item.passages),
        )
    console.print(table)
    if not report.embedded:
        console.print("[yellow]embeddings unavailable: passages are found by fulltext only[/]")


@sources_app.command("list")
def sources_list(
    agent: AgentOption = None,
    skip: Annotated[int, typer.Option(min=0, help="Documents to skip")] = 0,
    limit: Annotated[int, typer.Option(min=1, max=500, help="Documents to show")] = 50,
) -> None:
    """The agent's corpus documents, latest loaded first, with their passage counts."""
    agent_id = agent_id_of(agent)

    async def work(graph: GraphClient) -> CorpusDocumentPage:
        return await list_corpus_documents(graph, agent_id, skip=skip, limit=limit)

    page = run_with_graph(work)
    table = Table(title=f"corpus of {escape(agent_id)}: {page.count} documents")
    for column in ("document id", "title", "origin", "published", "passages", "loaded"):
        table.add_column(column)
    for document in page.data:
        table.add_row(
            escape(document.document_id),
            escape(document.title),
            escape(document.origin),
            str(document.published or ""),
            str(document.passages),
            when(document.loaded_at),
        )
    console.print(table)


@sources_app.command("remove")
def sources_remove(
    document_id: Annotated[str, typer.Argument(help="The document's id (see `list`)")],
    agent: AgentOption = None,
) -> None:
    """Remove a document and its passages from the agent's corpus."""
    agent_id = agent_id_of(agent)

    async def work(graph: GraphClient) -> CorpusDeletion:
        return await delete_corpus_document(graph, agent_id, document_id)

    removed = run_with_graph(work)
    console.print(f"removed {escape(removed.document_id)} ({removed.removed_passages} passages)")


@research_app.command("search")
def research_search(
    query: Annotated[str, typer.Argument(help="What an investigation would look for")],
    agent: AgentOption = None,
    source: Annotated[
        list[str] | None, typer.Option("--source", help="Only these sources (repeat)")
    ] = None,
    limit: Annotated[
        int, typer.Option(min=1, max=50, help="Passages per source")
    ] = DEFAULT_LIMIT_PER_SOURCE,
) -> None:
    """Search the agent's research sources (graph, corpus, tools) as an investigation would."""
    if not query.strip():
        raise typer.BadParameter("must not be blank", param_hint="QUERY")
    agent_id = agent_id_of(agent)

    async def work(runtime: Runtime) -> SourceSearch:
        return await search_agent_sources(
            runtime.graph, runtime.research_sources, agent_id, query, limit, sources=source
        )

    found = run_with_runtime(work)
    table = Table(title=f"{escape(repr(query))}: {len(found.passages)} passages")
    for column in ("source", "kind", "title", "text", "score"):
        table.add_column(column)
    for passage in found.passages:
        table.add_row(
            escape(passage.source),
            passage.kind,
            escape(passage.title),
            escape(passage.text[:200]),
            f"{passage.score:.3f}",
        )
    console.print(table)
    for name, why in found.failures.items():
        err_console.print(f"[yellow]source {escape(name)} failed[/]: {escape(why)}")
