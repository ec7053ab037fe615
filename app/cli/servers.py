"""``credence serve | mcp | neo4j``: the API server, the MCP server over stdio, and the local
Neo4j launcher."""

from __future__ import annotations

import gc
import logging
import os
import subprocess
from pathlib import Path
from typing import Annotated

import typer

from app.cli.common import console, err_console
from app.config import get_settings


def serve(
    host: Annotated[
        str | None, typer.Option(help="Bind address (default CREDENCE_API_HOST)")
    ] = None,
    port: Annotated[
        int | None, typer.Option(min=1, max=65535, help="Port (default CREDENCE_API_PORT)")
    ] = None,
) -> None:
    """Serve the REST API (OpenAPI at /docs)."""
    import uvicorn

    from app.api.app import create_app
    from app.api.security import effective_bind_host
    from app.api.socket_protocol import BoundedSocketProtocol

    settings = get_settings()
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    bind_host, warning = effective_bind_host(settings, host or settings.api_host)
    if warning:
        logging.getLogger("app.api").warning(warning)
    bind_port = port or settings.api_port
    console.print(f"Credence API: http://{bind_host}:{bind_port}/  (OpenAPI: /docs)")
    # The app knows the address it is served on: /mcp guards against DNS rebinding only on a
    # loopback one (served on 0.0.0.0, the MCP transport refused every remote request, 421).
    app = create_app(settings.model_copy(update={"api_host": bind_host}))
    freeze_startup_objects()
    uvicorn.run(
        app,
        host=bind_host,
        port=bind_port,
        log_level=settings.log_level.lower(),
        # A WebSocket message over the body limit is refused before it is buffered: the
        # `body_too_large` error frame, then the close 1009 (app/api/socket_protocol.py).
        ws_max_size=settings.api.max_body_bytes,
        ws=BoundedSocketProtocol,
    )


def freeze_startup_objects() -> None:
    """Keeps what the server imported (~70,000 objects that live as long as the process) out
    of the collector's full passes, which otherwise walked them about once per 500 ``/context``
    requests, ~55 ms each (bench/README.md, "sixth round")."""
    gc.collect()
    gc.freeze()


def mcp(
    agent: Annotated[
        str | None,
        typer.Option(
            "--agent",
            "-a",
            envvar="CREDENCE_AGENT_ID",
            help="The agent of calls that name none (default: $CREDENCE_AGENT_ID, else the "
            "default agent)",
        ),
    ] = None,
) -> None:
    """Serve Credence to an MCP client over stdio (Claude Desktop, Claude Code): tools,
    resources and prompts. Stdout carries the protocol; logs go to stderr."""
    import asyncio
    import sys

    from app.mcp.stdio import serve_stdio

    settings = get_settings()
    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    asyncio.run(serve_stdio(settings, agent))


neo4j_app = typer.Typer(
    help="The local Neo4j server (tools/neo4j/neo4j-local).", no_args_is_help=True
)


# tools/ sits at the checkout's root, beside app/ (app/cli/servers.py: two folders up).
CHECKOUT_LAUNCHER = Path(__file__).resolve().parents[2] / "tools" / "neo4j" / "neo4j-local"


def _launcher() -> Path:
    override = os.environ.get("CREDENCE_NEO4J_LAUNCHER")
    path = Path(override) if override else CHECKOUT_LAUNCHER
    if not path.is_file():
        err_console.print(
            f"[bold red]error[/]: the Neo4j launcher is not at {path}; "
            "`credence neo4j` works from a Credence checkout (or set "
            "CREDENCE_NEO4J_LAUNCHER)"
        )
        raise typer.Exit(code=2)
    return path


def _delegate(command: str) -> None:
    completed = subprocess.run(["bash", str(_launcher()), command], check=False)
    raise typer.Exit(code=completed.returncode)


@neo4j_app.command("start")
def neo4j_start() -> None:
    """Start the local Neo4j (no-op when it runs)."""
    _delegate("start")


@neo4j_app.command("stop")
def neo4j_stop() -> None:
    """Stop the local Neo4j."""
    _delegate("stop")


@neo4j_app.command("status")
def neo4j_status() -> None:
    """Say whether the local Neo4j runs (exit 0) or not (exit 3), with version and ports."""
    _delegate("status")


@neo4j_app.command("wipe")
def neo4j_wipe() -> None:
    """Stop the local Neo4j and delete its data (the jar cache is kept)."""
    _delegate("wipe")
