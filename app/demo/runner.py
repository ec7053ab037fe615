"""Building the demo agent: find a complete one and keep it, or (re)build it story by story.

The demo runs on a runtime of its own (app/runtime.py) with the offline reasoner, whatever the
settings say, and a :class:`~app.clock.FixedClock` that only the stage moves; the idle-session
sweep counts the same clock's seconds. So two builds make the same history: the same turns,
modes, tensions, revision, rules and analytics rows (ids and the graph's own write times
differ).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

from app.agents.store import delete_agent
from app.clock import FixedClock
from app.config import Settings
from app.demo import DEMO_AGENT_NAME, script, stories
from app.demo.hold import scheduler_held_off
from app.demo.models import DemoFailed, DemoReport, StoryReport
from app.demo.stage import DemoStage, Progress
from app.graph.client import GraphClient
from app.graph.migrations import MigrationRunner
from app.runtime import Runtime
from app.scenarios.driver import (
    born_to,
    chosen_sqlite_server,
    offline_settings,
    open_runtime,
    sqlite_server_missing,
)


def default_ledger_path() -> Path:
    """Where the demo's ledger (a SQLite file) lives: beside the user's other Credence files,
    so the API can start the ledger's server again after the demo has finished."""
    return Path.home() / ".cache" / "credence" / "demo" / "northwind-ledger.db"


@dataclass(frozen=True, slots=True)
class DemoOptions:
    """How to build the demo.

    Args:
        name: the agent's name (tests build their own demo under another name).
        rebuild: delete every agent of that name first and build again.
        ledger: the SQLite file the ledger connection writes (replaced when building).
        sqlite_server: the ``mcp-server-sqlite`` command (found when None).
    """

    name: str = DEMO_AGENT_NAME
    rebuild: bool = False
    ledger: Path = field(default_factory=default_ledger_path)
    sqlite_server: Path | None = None


def demo_settings(settings: Settings) -> Settings:
    """The settings the demo builds with: the offline reasoner (deterministic, no network)."""
    return offline_settings(settings)


async def build_demo(
    settings: Settings, options: DemoOptions, progress: Progress | None = None
) -> DemoReport:
    """The demo agent: an existing complete one is kept; otherwise earlier ones of the name
    (incomplete, or all with ``rebuild``) are deleted and it is built again.

    Raises:
        DemoFailed: the SQLite MCP server is missing, or a story did not come out as scripted.
        GraphUnavailable: Neo4j cannot be reached.
    """
    say = progress or (lambda _line: None)
    started = time.perf_counter()
    settings = demo_settings(settings)
    graph = GraphClient.from_settings(settings.neo4j)
    try:
        await MigrationRunner.with_settings(graph, settings.migrations).migrate()
        rows = await graph.read(
            "demo/find_demo_agents",
            agent_name=options.name,
            final_session=script.SIGN_OFF_SESSION,
        )
        complete = [str(row["id"]) for row in rows if row["complete"]]
        if complete and not options.rebuild:
            return DemoReport(agent_id=complete[0], agent_name=options.name, reused=True)
        # Checked before anything is deleted: without the ledger's server the demo cannot run.
        server = _sqlite_server(options)
        replaced = [str(row["id"]) for row in rows]
        for agent_id in replaced:
            say(f"deleting the earlier demo agent {agent_id}")
            await delete_agent(graph, agent_id, default_agent_name=settings.default_agent)
    finally:
        await graph.close()
    report = await _build(settings, options, server, say)
    report.replaced = replaced
    report.seconds = round(time.perf_counter() - started, 1)
    return report


def _sqlite_server(options: DemoOptions) -> Path:
    server = chosen_sqlite_server(options.sqlite_server)
    if server is None:
        raise DemoFailed("ledger", sqlite_server_missing(options.sqlite_server))
    return server


async def _build(
    settings: Settings, options: DemoOptions, server: Path, say: Progress
) -> DemoReport:
    clock = FixedClock(script.START)
    runtime = open_runtime(settings, clock)
    try:
        born = await _born(runtime, options.name)
        stage = DemoStage(runtime, clock, born.ids["agent"], say)
        report = DemoReport(
            agent_id=stage.agent_id,
            agent_name=options.name,
            reused=False,
            ledger_path=str(options.ledger),
            stories=[born],
        )
        say(f"{born.title} ({stage.clock.now():%a %d %b %H:%M})")
        async with scheduler_held_off(runtime.graph, settings, stage.agent_id):
            for hours, story in _calendar(options.ledger, server, report):
                stage.at(script.START + timedelta(hours=hours))
                told = await story(stage)
                report.stories.append(told)
                say(f"{told.title} ({stage.clock.now():%a %d %b %H:%M}, {stage.turns} turns)")
        report.turns = stage.turns
        return report
    finally:
        await runtime.aclose()


async def _born(runtime: Runtime, name: str) -> StoryReport:
    """A full birth (creed, self, role beliefs, the controller as principal), no packs: the
    pack comes after birth."""
    principal = script.CONTROLLER
    born = await born_to(runtime, name, principal, script.COMPANY, packs=[])
    beliefs = sum(pack.created for pack in born.birth.packs) if born.birth else 0
    story = StoryReport(key="birth", title="Born to a controller", ids={"agent": born.id})
    story.lines.append(
        f"full birth for {principal.name}, {principal.role} ({principal.seniority}) at "
        f"{script.COMPANY}: {beliefs} beliefs (creed, self, role), no pack yet"
    )
    if born.birth and born.birth.principal:
        story.ids[principal.name] = born.birth.principal.id
    return story


Story = Callable[[DemoStage], Awaitable[StoryReport]]


def _calendar(ledger: Path, server: Path, report: DemoReport) -> list[tuple[float, Story]]:
    """The stories in order, each with its hour after the start (28 October 2026, 08:30)."""

    async def books(stage: DemoStage) -> StoryReport:
        return await stories.close_the_books(stage, ledger, server)

    async def contradictions(stage: DemoStage) -> StoryReport:
        [revision] = [story for story in report.stories if story.key == "revision"]
        return await stories.settle_contradictions(stage, revision)

    return [
        (0.1, stories.meet_people),
        (0.2, stories.load_pack_after_birth),
        (0.5, books),
        (2.5, stories.keep_the_checklist),
        (24.5, stories.revise_under_pressure),
        (26.5, stories.weigh_people),
        (27.5, contradictions),
        (29.5, stories.investigate),
        (48.5, stories.sign_off),
    ]
