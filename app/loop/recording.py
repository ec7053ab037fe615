"""What a turn records about itself as it runs: the judgements made (which reasoner, what they
cost), the phase timings, and the events streamed to a listener."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from app.errors import CredenceError, TurnFailed
from app.graph.client import GraphClient, Transaction
from app.loop.models import ReasonerCalls, TurnEvent, TurnResult
from app.metrics import observe_turn
from app.reasoning.protocol import Judgement

log = logging.getLogger(__name__)

Emit = Callable[[TurnEvent], Awaitable[None]]
J = TypeVar("J", bound=Judgement)
T = TypeVar("T")


async def silent(_: TurnEvent) -> None:
    return None


@dataclass(slots=True)
class TurnRecorder:
    """The judgements a turn made (which reasoner, what they cost) and its phase timings."""

    emit: Emit
    judgements: list[tuple[str, Judgement]] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)
    phase_started: float = field(default_factory=time.perf_counter)
    # Set on the recorder a write transaction gets (:func:`write_then_emit`): no judgement
    # there, since a transient error runs the transaction's work again.
    in_transaction: bool = False

    async def judge(self, name: str, call: Awaitable[J]) -> J:
        if self.in_transaction:
            close = getattr(call, "close", None)
            if close is not None:
                close()  # the coroutine is never awaited
            raise RuntimeError(f"{name}: no reasoner call inside a retried transaction")
        try:
            answer = await call
        except CredenceError:
            raise
        except Exception as error:  # a reasoner bug must not leave half a turn
            log.exception("reasoner failed in %s", name)
            raise ReasonerFailed(name, f"{type(error).__name__}: {error}") from error
        self.judgements.append((name, answer))
        return answer

    async def phase(self, name: str, **data: Any) -> None:
        now = time.perf_counter()
        self.timings_ms[name] = round((now - self.phase_started) * 1000, 2)
        self.phase_started = now
        await self.emit(TurnEvent(type="phase", phase=name, data=data))

    def calls(self) -> ReasonerCalls:
        report = ReasonerCalls()
        for name, answer in self.judgements:
            report.calls.append(f"{name}: {answer.reasoner}")
            if answer.usage is not None:
                report.model_calls += 1
                report.input_tokens += answer.usage.input_tokens
                report.output_tokens += answer.usage.output_tokens
                report.cache_read_input_tokens += answer.usage.cache_read_input_tokens
        return report


@dataclass(slots=True)
class HeldEvents:
    """A transaction attempt's events, held until it commits."""

    events: list[TurnEvent] = field(default_factory=list)

    async def __call__(self, event: TurnEvent) -> None:
        self.events.append(event)


async def write_then_emit(
    graph: GraphClient,
    recorder: TurnRecorder,
    work: Callable[[Transaction, TurnRecorder], Awaitable[T]],
    action: str,
) -> T:
    """Runs ``work`` in one write transaction with a recorder whose events are held back: a
    transient error runs only the graph work again (with fresh events), and the events of the
    attempt that committed reach the listener once, after the commit. ``work`` makes no
    reasoner call (its recorder refuses one); the judgements it needs are made before.
    """
    attempts: list[HeldEvents] = []

    async def attempt(tx: Transaction) -> T:
        held = HeldEvents()
        attempts.append(held)
        inner = TurnRecorder(
            emit=held,
            judgements=recorder.judgements,
            timings_ms=recorder.timings_ms,
            phase_started=recorder.phase_started,
            in_transaction=True,
        )
        return await work(tx, inner)

    result = await graph.write_transaction(attempt, action=action)
    for event in attempts[-1].events:
        await recorder.emit(event)
    return result


class ReasonerFailed(Exception):
    """A reasoner call raised: the turn stops before writing anything."""

    def __init__(self, phase: str, cause: str) -> None:
        super().__init__(cause)
        self.phase = phase
        self.cause = cause


async def turn_failed(emit: Emit, agent_id: str, failure: ReasonerFailed) -> TurnFailed:
    """Streams a reasoner's failure and gives the error the caller gets (the turn wrote
    nothing)."""
    await emit(TurnEvent(type="error", data={"phase": failure.phase, "cause": failure.cause}))
    return TurnFailed(agent_id, failure.phase, failure.cause)


async def turn_done(emit: Emit, result: TurnResult) -> TurnResult:
    """Counts a committed turn in the metrics and streams its end; returns its result."""
    observe_turn(result.mode, result.timings_ms, (r.mode for r in result.revisions))
    await emit(TurnEvent(type="done", data={"turn_id": result.turn_id, "mode": result.mode}))
    return result


def usage_of(recorder: TurnRecorder) -> dict[str, Any]:
    """What the turn's judgements cost, recorded on its episode."""
    calls = recorder.calls()
    return {
        "model_calls": calls.model_calls,
        "input_tokens": calls.input_tokens,
        "output_tokens": calls.output_tokens,
        "reasoners": calls.calls,
    }
