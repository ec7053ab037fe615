"""The ``credence`` command (typer + rich): one typer app with a module per command group."""

from __future__ import annotations

import sys

import typer
from rich.markup import escape

from app.cli import (
    agents,
    analytics,
    beliefs,
    chat,
    connections,
    context,
    db,
    demo,
    embed,
    episodes,
    frames,
    identity,
    investigations,
    memory,
    packs,
    people,
    research,
    scenario,
    servers,
    status,
    worker,
)
from app.cli.common import err_console
from app.errors import CredenceError

app = typer.Typer(
    help="Credence: an agent's beliefs, tensions and revisions in Neo4j.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
app.add_typer(db.db_app, name="db")
app.add_typer(servers.neo4j_app, name="neo4j")
app.add_typer(agents.agents_app, name="agents")
app.add_typer(beliefs.beliefs_app, name="beliefs")
app.add_typer(people.people_app, name="people")
app.add_typer(frames.frames_app, name="frames")
app.add_typer(memory.memory_app, name="memory")
app.add_typer(connections.connections_app, name="connections")
app.add_typer(packs.packs_app, name="packs")
app.add_typer(episodes.episodes_app, name="episodes")
app.add_typer(embed.embed_app, name="embed")
investigations.register(research.research_app)
app.add_typer(research.research_app, name="research")
app.add_typer(scenario.scenario_app, name="scenario")
app.command("serve")(servers.serve)
app.command("mcp")(servers.mcp)
app.command("birth")(packs.birth_command)
app.command("context")(context.context_command)
app.command("identity")(identity.identity_command)
app.command("tension")(beliefs.tension)
app.command("revisions")(beliefs.revisions)
app.command("chat")(chat.chat_command)
app.command("analytics")(analytics.analytics_command)
app.command("demo")(demo.demo_command)
app.command("status")(status.status_command)
app.command("worker")(worker.worker_command)


def main() -> None:
    try:
        app()
    except CredenceError as error:  # pragma: no cover - commands translate their own errors
        err_console.print(f"[bold red]error[/] ({error.code}): {escape(error.message)}")
        sys.exit(1)
