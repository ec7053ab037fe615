"""Running a validation scenario (``seeds/scenarios/<name>.yaml``) through the real loop,
offline, on the scenario's own clock: a fresh agent born to its principal with its packs, its
people and beliefs, its ledger (``mcp-server-sqlite`` on a file of the run's own) connected;
then each turn, each answer to an approval, and a check of every expected decision. The agent
(and the ledger's file) is deleted afterwards unless the run keeps it."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from app.agents.store import delete_agent
from app.beliefs.writes import create_belief
from app.clock import FixedClock
from app.config import Settings
from app.errors import InvalidInput, SeedFileInvalid, ToolNotFound, error_entry, file_location
from app.graph.migrations import MigrationRunner
from app.memory.people.models import PersonCreate
from app.memory.people.store import create_person
from app.resources import resource_dir
from app.runtime import Runtime
from app.scenarios.answers import play_answers
from app.scenarios.checks import check_of, describe, turn_checks
from app.scenarios.driver import (
    Progress,
    Stage,
    born_to,
    chosen_sqlite_server,
    offline_settings,
    open_runtime,
    sqlite_server_missing,
)
from app.scenarios.hold import scheduler_held_off
from app.scenarios.models import (
    Check,
    Scenario,
    ScenarioCannotRun,
    ScenarioNotFound,
    ScenarioPerson,
    ScenarioReport,
    ScenarioTurn,
)
from app.seeds.files import read_seed_model

LEDGER_FILE = "ledger.db"


def scenarios_dir() -> Path:
    return resource_dir("seeds") / "scenarios"


def scenario_files() -> list[Path]:
    return sorted(scenarios_dir().glob("*.yaml"))


def read_scenario(path: Path) -> Scenario:
    """Parses and validates one scenario file.

    Raises:
        SeedFileInvalid: naming the file and each field that is wrong.
    """
    scenario = read_seed_model(Scenario, path)
    if scenario.name != path.stem:
        where = file_location(str(path), "name")
        problem = error_entry(where, f"must be the file's name ({path.stem!r})", "name_mismatch")
        raise SeedFileInvalid(str(path), [problem])
    return scenario


def find_scenario(name: str) -> Scenario:
    """The shipped scenario ``name`` (``seeds/scenarios/<name>.yaml``).

    Raises:
        ScenarioNotFound: no such file.
        SeedFileInvalid: the file is invalid.
    """
    path = scenarios_dir() / f"{name}.yaml"
    if not path.exists():
        raise ScenarioNotFound(name, [file.stem for file in scenario_files()])
    return read_scenario(path)


@dataclass(frozen=True, slots=True)
class RunOptions:
    """How to run a scenario.

    Args:
        keep: keep the agent (and the ledger's file) for a look afterwards.
        sqlite_server: the ``mcp-server-sqlite`` command (found when None).
        workdir: where the ledger's file goes (a temporary folder when None).
    """

    keep: bool = False
    sqlite_server: Path | None = None
    workdir: Path | None = None


async def run_scenario(
    settings: Settings,
    scenario: Scenario,
    options: RunOptions | None = None,
    progress: Progress | None = None,
) -> ScenarioReport:
    """Runs ``scenario`` on a fresh agent and checks every expectation.

    Raises:
        ScenarioCannotRun: it has a ledger and the SQLite MCP server is missing.
        GraphUnavailable: Neo4j cannot be reached.
    """
    options = options or RunOptions()
    say = progress or (lambda _line: None)
    started = time.perf_counter()
    server = _sqlite_server(scenario, options)
    settings = offline_settings(settings)
    clock = FixedClock(scenario.start)
    runtime = open_runtime(settings, clock)
    workdir = options.workdir or Path(tempfile.mkdtemp(prefix=f"credence-{scenario.name}-"))
    agent_id = ""
    try:
        await MigrationRunner.with_settings(runtime.graph, settings.migrations).migrate()
        agent_id = await _born(runtime, scenario)
        stage = Stage(runtime, clock, agent_id, say)
        report = ScenarioReport(
            name=scenario.name, title=scenario.title, agent_id=agent_id, kept=options.keep
        )
        async with scheduler_held_off(
            runtime.graph, settings, agent_id, holder="credence scenario"
        ):
            await _set_up(stage, scenario, workdir, server)
            if options.keep and scenario.ledger is not None:
                report.ledger = str(workdir / LEDGER_FILE)
            for number, turn in enumerate(scenario.turns, start=1):
                report.checks += await _play(stage, scenario, number, turn)
        report.turns = stage.turns
        report.seconds = round(time.perf_counter() - started, 1)
        return report
    finally:
        if agent_id and not options.keep:
            await delete_agent(runtime.graph, agent_id, default_agent_name=settings.default_agent)
        await runtime.aclose()
        if options.workdir is None and not options.keep:
            shutil.rmtree(workdir, ignore_errors=True)


def _sqlite_server(scenario: Scenario, options: RunOptions) -> Path | None:
    if scenario.ledger is None:
        return None
    server = chosen_sqlite_server(options.sqlite_server)
    if server is None:
        raise ScenarioCannotRun(scenario.name, sqlite_server_missing(options.sqlite_server))
    return server


async def _born(runtime: Runtime, scenario: Scenario) -> str:
    """A full birth for the principal with the scenario's packs (none: creed, self, role)."""
    name = f"scenario {scenario.name} {uuid.uuid4().hex[:8]}"
    born = await born_to(runtime, name, scenario.principal, scenario.company, scenario.packs)
    return born.id


async def _set_up(stage: Stage, scenario: Scenario, workdir: Path, server: Path | None) -> None:
    """The people, the beliefs and the ledger the scenario starts from."""
    runtime = stage.runtime
    for person in scenario.people:
        await create_person(
            runtime.graph,
            stage.agent_id,
            _person(person),
            mechanics=runtime.settings.memory,
            now=stage.clock.now(),
        )
    for belief in scenario.beliefs:
        await create_belief(
            runtime.graph, runtime.settings.mechanics, runtime.embedder, stage.agent_id, belief
        )
    if scenario.ledger is not None and server is not None:
        ledger = workdir / LEDGER_FILE
        await asyncio.to_thread(_write_ledger, ledger, scenario.ledger.statements)
        await stage.connect_sqlite_ledger(ledger, server)


def _person(person: ScenarioPerson) -> PersonCreate:
    return PersonCreate.model_validate(person.model_dump(exclude_none=True))


def _write_ledger(path: Path, statements: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    with sqlite3.connect(path) as connection:
        for statement in statements:
            connection.execute(statement)


async def _play(stage: Stage, scenario: Scenario, number: int, turn: ScenarioTurn) -> list[Check]:
    """One turn, the answer to its approval when the scenario gives one, and their checks."""
    if turn.call is not None:
        call = turn.call
        try:
            result = await stage.call(
                turn.speaker, call.tool, dict(call.arguments), scenario.session, call.connection
            )
        except (InvalidInput, ToolNotFound) as refused:
            # The step's call is not made (its schema refuses it, or the agent has no such
            # tool): a failed check says why; the next turn runs.
            stage.progress(f"turn {number} ({turn.speaker}): call refused: {refused.message}")
            return [_refused_call(number, turn.speaker, refused)]
    else:
        assert turn.message is not None  # the model holds one of message and call
        result = await stage.say(turn.speaker, turn.message, scenario.session)
    stage.progress(f"turn {number} ({turn.speaker}): {describe(result)}")
    checks = turn_checks(number, "turn", turn.speaker, turn.expect, result)
    return checks + await play_answers(stage, number, turn, result)


def _refused_call(number: int, speaker: str, refused: InvalidInput | ToolNotFound) -> Check:
    """The failed check of a turn whose call its tool's input schema refuses (where in the
    turn, ``turns[n].call.arguments.…``, and the schema's message) or whose tool the agent does
    not have (``turns[n].call`` and the reason)."""
    entries = refused.details.get("errors") or [{}]
    where = ".".join(str(part) for part in entries[0].get("location") or ["call"])
    why = entries[0].get("message") or refused.message
    by = " by the tool's input schema" if entries[0].get("type") == "schema_error" else ""
    actual = f"refused{by} at turns[{number - 1}].{where}: {why}"
    return check_of(number, "turn", speaker, ("call", "made", actual, False))
