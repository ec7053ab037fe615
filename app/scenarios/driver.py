"""The stage scripted conversations are played on: a runtime of their own with the offline
reasoner, an agent, and a clock only the script moves (app/demo/ and app/scenarios/ both use it).

Every turn goes through :func:`app.loop.turn.run_turn` (approvals through
:func:`app.loop.resume_turn.resume_approval`), as the API and ``credence chat`` run them; after
each, the stage waits for the turn's background work (a tool call's memory, a reflection), so the
next turn sees all of it and two runs of a script write the same history.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Literal, Protocol

from app.agents.birth import birth
from app.agents.models import AgentCreate, BirthProfile, BornAgent
from app.clock import FixedClock
from app.config import Settings
from app.loop.background import settle_all_background
from app.loop.models import ApprovalAnswer, ChatRequest, TurnResult
from app.loop.resume_turn import resume_approval
from app.loop.services import LoopServices
from app.loop.sessions import SessionClosed, close_session
from app.loop.turn import run_turn
from app.reasoning.protocol import ToolCall
from app.runtime import Runtime
from app.tools.argument_check import check_stored_arguments
from app.tools.calls import call_message
from app.tools.connections import add_connection
from app.tools.models import ConnectionCreate

Progress = Callable[[str], None]

REPOSITORY = Path(__file__).resolve().parents[2]
SQLITE_SERVER_NAME = "mcp-server-sqlite"
# The name the ledger's connection is made under (its tools are ledger.<tool>).
LEDGER = "ledger"
# Minutes the clock moves before each turn (a conversation's pace).
TURN_MINUTES = 3


class Principal(Protocol):
    """Who a scripted agent is born to work for (the demo's controller, a scenario's principal)."""

    @property
    def name(self) -> str: ...
    @property
    def email(self) -> str | None: ...
    @property
    def role(self) -> str: ...
    @property
    def seniority(self) -> str: ...


async def born_to(
    runtime: Runtime, name: str, principal: Principal, company: str, packs: Sequence[str]
) -> BornAgent:
    """A full birth of the agent ``name`` (creed, self, role beliefs, ``principal`` as its
    principal at ``company``, in accounting) with ``packs``."""
    profile = BirthProfile(
        name=principal.name,
        email=principal.email,
        role=principal.role,
        seniority=principal.seniority,
        company=company,
        industry="accounting",
    )
    return await birth(
        runtime.graph,
        runtime.embedder,
        runtime.settings.mechanics,
        AgentCreate(name=name, profile=profile, packs=list(packs)),
        memory_mechanics=runtime.settings.memory,
    )


def offline_settings(settings: Settings) -> Settings:
    """The settings a script runs with: the offline reasoner (deterministic, no network)."""
    reasoner = settings.reasoner.model_copy(update={"provider": "offline"})
    return settings.model_copy(update={"reasoner": reasoner})


def open_runtime(settings: Settings, clock: FixedClock) -> Runtime:
    """A runtime on ``clock`` (the idle-session sweep counts the same clock's seconds)."""
    return Runtime.open(settings, clock=clock, monotonic=lambda: clock.now().timestamp())


def find_sqlite_server() -> Path | None:
    """The SQLite MCP server: the one ``make install`` puts in ``.venv-mcp``, else on PATH."""
    installed = REPOSITORY / ".venv-mcp" / "bin" / SQLITE_SERVER_NAME
    if installed.exists():
        return installed
    found = shutil.which(SQLITE_SERVER_NAME)
    return Path(found) if found else None


def chosen_sqlite_server(given: Path | None) -> Path | None:
    """The SQLite MCP server to run: the path given (``--sqlite-server``) when it is a file,
    else, none given, the one found; None when there is none."""
    if given is not None:
        return given if given.is_file() else None
    return find_sqlite_server()


def sqlite_server_missing(given: Path | None) -> str:
    """Why :func:`chosen_sqlite_server` found none, naming the path given."""
    if given is not None:
        return f"{SQLITE_SERVER_NAME} not found: --sqlite-server names {given}, not a file"
    return (
        f"{SQLITE_SERVER_NAME} not found (`make install` puts it in .venv-mcp/bin; "
        "--sqlite-server names another)"
    )


@dataclass(slots=True)
class Stage:
    """An agent, the runtime it runs on and the clock the script moves."""

    runtime: Runtime
    clock: FixedClock
    agent_id: str
    progress: Progress
    turns: int = 0

    @property
    def loop(self) -> LoopServices:
        return self.runtime.loop

    def at(self, when: datetime) -> None:
        """Moves the clock forward to ``when`` (never back: the story's order is time's)."""
        if when > self.clock.now():
            self.clock.advance(when - self.clock.now())

    async def say(
        self, speaker: str, message: str, session: str, *, end_session: bool = False
    ) -> TurnResult:
        """One chat turn of ``speaker``, a few minutes after the last."""
        self.clock.advance(timedelta(minutes=TURN_MINUTES))
        request = ChatRequest(
            message=message, speaker=speaker, session=session, end_session=end_session
        )
        result = await run_turn(self.loop, self.agent_id, request)
        await settle_all_background()
        self.turns += 1
        return result

    async def call(
        self,
        speaker: str,
        tool: str,
        arguments: dict[str, Any],
        session: str,
        connection: str = LEDGER,
    ) -> TurnResult:
        """A call of a connected tool, as ``POST /actions`` and ``call ledger.<tool> {...}``
        ask: its arguments pass the tool's input-schema check first, before the clock moves.

        Raises:
            InvalidInput: the schema refuses them (located under ``call``, then ``arguments``
                and the argument); no turn runs.
        """
        call = ToolCall(connection=connection, tool=tool, arguments=arguments)
        await check_stored_arguments(self.runtime.graph, self.agent_id, call, ("call",))
        return await self.say(speaker, call_message(call), session)

    async def answer(
        self,
        approval_id: str,
        action: Literal["approve", "reject", "answer"],
        speaker: str,
        text: str | None = None,
    ) -> TurnResult:
        """A person's answer to a pending approval, a minute after it was asked."""
        self.clock.advance(timedelta(minutes=1))
        answer = ApprovalAnswer(action=action, text=text, speaker=speaker)
        result = await resume_approval(self.loop, self.agent_id, approval_id, answer)
        await settle_all_background()
        self.turns += 1
        return result

    async def close(self, session: str) -> SessionClosed:
        """Closes a session as ``POST /sessions/{key}/close`` does (reflection when due)."""
        self.clock.advance(timedelta(minutes=1))
        closed = await close_session(self.loop, self.agent_id, session, "explicit")
        await settle_all_background()
        return closed

    async def connect_sqlite_ledger(
        self, ledger: Path, sqlite_server: Path, name: str = LEDGER
    ) -> None:
        """Connects ``mcp-server-sqlite`` on the file ``ledger`` under ``name``."""
        runtime = self.runtime
        await add_connection(
            runtime.graph,
            runtime.mcp_clients,
            runtime.embedder,
            runtime.settings.mechanics,
            runtime.settings.tools,
            self.agent_id,
            ConnectionCreate(
                name=name,
                transport="stdio",
                command=str(sqlite_server),
                args=["--db-path", str(ledger)],
            ),
            now=self.clock.now(),
        )


def fresh_file(path: Path) -> None:
    """A script's ledger file is its own: a run starts it empty."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)


async def start_fresh_file(path: Path) -> None:
    await asyncio.to_thread(fresh_file, path)
