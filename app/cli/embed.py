"""``credence embed``: the embedding runtime and backfilling vectors."""

from __future__ import annotations

from typing import Annotated

import typer

from app.cli.common import console, err_console, progress_bar, run_with_graph
from app.config import get_settings
from app.embeddings import store as embedding_store
from app.embeddings.embedder import shared_embedder
from app.graph.client import GraphClient

embed_app = typer.Typer(help="Embeddings.", no_args_is_help=True)


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
        err_console.print(f"[red]embeddings unavailable:[/] {report.reason}")
        raise typer.Exit(code=1)
    console.print(
        "stored vectors: "
        + ", ".join(f"{n} {label.lower()}s" for label, n in report.stored.items())
    )
