"""The ``credence`` command (typer + rich): one typer app with a module per command group,
each imported when its command runs (app/cli/lazy.py), so that a command starts without
importing what only the others need."""

from __future__ import annotations

import sys

import typer
from rich.markup import escape

from app.cli.common import err_console
from app.cli.lazy import LazyCommand, LazyGroup
from app.errors import CredenceError

COMMANDS = (
    LazyCommand("serve", "app.cli.servers:serve", "Serve the REST API (OpenAPI at /docs)."),
    LazyCommand(
        "mcp",
        "app.cli.servers:mcp",
        "Serve Credence to an MCP client over stdio (Claude Desktop, Claude Code): tools, "
        "resources and prompts. Stdout carries the protocol; logs go to stderr.",
    ),
    LazyCommand(
        "birth",
        "app.cli.packs:birth_command",
        "Birth an agent: with --principal a full birth (creed, packs, frames, censors); without "
        "it an empty agent, and the options of a full birth are refused.",
    ),
    LazyCommand(
        "context",
        "app.cli.context:context_command",
        "Print the context retrieval assembles for a query, section by section.",
    ),
    LazyCommand(
        "identity",
        "app.cli.identity:identity_command",
        "Print the agent's identity document (the system prompt of its Claude calls).",
    ),
    LazyCommand(
        "tension",
        "app.cli.beliefs:tension",
        "The ``limit`` most tense beliefs, a bar each, and the dissatisfaction meter.",
    ),
    LazyCommand("revisions", "app.cli.beliefs:revisions", "The agent's revisions, newest first."),
    LazyCommand(
        "chat",
        "app.cli.chat:chat_command",
        "Talk to the agent: one turn per message, with tension, revisions and approvals live.",
    ),
    LazyCommand(
        "analytics",
        "app.cli.analytics:analytics_command",
        "Run an analytics query of cypher/beliefs/analytics/ for an agent (`list` lists them).",
    ),
    LazyCommand(
        "demo",
        "app.cli.demo:demo_command",
        "Build an agent with a history (a month-end close, a revision, research, reflection) "
        "through the real loop, offline and deterministic; keeps a complete one unless --rebuild.",
    ),
    LazyCommand(
        "status",
        "app.cli.status:status_command",
        "Print the agent's state, sessions, episodes, last reflection, calls and tokens per "
        "session, dissatisfaction, open conflicts, pending approvals and the scheduler's runs.",
    ),
    LazyCommand(
        "worker",
        "app.cli.worker:worker_command",
        "Run the scheduler: close idle sessions, reflect, decay rules, mark interrupted tool "
        "calls, embed what waits for a vector; every CREDENCE_SCHEDULER__TICK_SECONDS until "
        "stopped.",
    ),
    LazyCommand("db", "app.cli.db:db_app", "Schema migrations."),
    LazyCommand(
        "neo4j", "app.cli.servers:neo4j_app", "The local Neo4j server (tools/neo4j/neo4j-local)."
    ),
    LazyCommand("agents", "app.cli.agents:agents_app", "Agents."),
    LazyCommand("beliefs", "app.cli.beliefs:beliefs_app", "An agent's beliefs."),
    LazyCommand("people", "app.cli.people:people_app", "The people an agent deals with."),
    LazyCommand("frames", "app.cli.frames:frames_app", "The frames an agent thinks in."),
    LazyCommand(
        "memory", "app.cli.memory:memory_app", "Working memory, reflection and introspection."
    ),
    LazyCommand(
        "connections", "app.cli.connections:connections_app", "MCP servers connected to an agent."
    ),
    LazyCommand("packs", "app.cli.packs:packs_app", "Knowledge packs (seeds/packs/*.yaml)."),
    LazyCommand("episodes", "app.cli.episodes:episodes_app", "Episodic memory."),
    LazyCommand("embed", "app.cli.embed:embed_app", "Embeddings."),
    LazyCommand(
        "research",
        "app.cli.investigations:research_group",
        "Research mode: investigations and their sources.",
        builds_group=True,
    ),
    LazyCommand(
        "scenario",
        "app.cli.scenario:scenario_app",
        "Validation scenarios (seeds/scenarios/*.yaml) run through the real loop offline.",
    ),
)


class CredenceCommands(LazyGroup):
    lazy_commands = COMMANDS


app = typer.Typer(
    cls=CredenceCommands,
    help="Credence: an agent's beliefs, tensions and revisions in Neo4j.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


@app.callback()
def credence() -> None:
    """No options of its own: typer makes a group of an app only with a callback or a command
    registered, and every command here is registered by ``CredenceCommands``."""


def main() -> None:
    try:
        app()
    except CredenceError as error:  # pragma: no cover - commands translate their own errors
        err_console.print(f"[bold red]error[/] ({error.code}): {escape(error.message)}")
        sys.exit(1)
