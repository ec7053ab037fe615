"""Where the demo's stories are played: the runtime's loop services, the demo agent, and a clock
the demo moves itself. Every turn goes through :func:`app.loop.turn.run_turn` (approvals through
:func:`app.loop.resume_turn.resume_approval`), as the API and ``credence chat`` run them; after
each, the stage waits for the turn's background work (a tool call's memory, a reflection), so
the next turn sees all of it and two runs of the demo write the same history."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from app.clock import FixedClock
from app.demo.models import DemoFailed, StoryReport
from app.demo.script import LEDGER, TURN_MINUTES
from app.loop.background import settle_all_background
from app.loop.models import ApprovalAnswer, ChatRequest, TurnResult
from app.loop.resume_turn import resume_approval
from app.loop.services import LoopServices
from app.loop.sessions import SessionClosed, close_session
from app.loop.turn import run_turn
from app.reasoning.protocol import ToolCall
from app.runtime import Runtime
from app.tools.calls import call_message

Progress = Callable[[str], None]


@dataclass(slots=True)
class DemoStage:
    """The demo agent, the runtime it runs on and the clock it moves."""

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
        self, speaker: str, tool: str, arguments: dict[str, Any], session: str
    ) -> TurnResult:
        """A call of a ledger tool, as ``POST /actions`` and ``call ledger.<tool> {...}`` ask."""
        call = ToolCall(connection=LEDGER, tool=tool, arguments=arguments)
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


def expect(story: StoryReport, condition: bool, what: str) -> None:
    """Stops the demo when a story did not come out as scripted.

    Raises:
        DemoFailed: ``condition`` is false.
    """
    if not condition:
        raise DemoFailed(story.key, what)
