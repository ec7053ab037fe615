"""Executors: what actually carries out a work unit, registered by verb.

A verb nobody registered an executor for is never faked: the unit is recorded as a Decision and
reported "recorded, not executed" with a neutral outcome. An executor that raises is a failed
execution (the verify step decides to retry or escalate), not a crashed turn.

Executors act on the world before the turn's transaction commits, and what they did cannot be
rolled back with it: if recording the turn then fails, the turn (or the approval) can be tried
again, so executors should be idempotent.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Protocol

from app.errors import InvalidInput
from app.reasoning.protocol import ExecutionResult, WorkUnit

log = logging.getLogger(__name__)


class Executor(Protocol):
    """Carries out work units of the verbs it names."""

    name: str
    verbs: frozenset[str]

    async def execute(self, agent_id: str, unit: WorkUnit) -> ExecutionResult:
        """Does the work for the agent; returns what happened (status executed or failed)."""
        ...


class ExecutorRegistry:
    """Verb → executor. One executor per verb."""

    def __init__(self, executors: Iterable[Executor] = ()) -> None:
        self._by_verb: dict[str, Executor] = {}
        for executor in executors:
            self.register(executor)

    def register(self, executor: Executor) -> None:
        """Registers ``executor`` for each of its verbs.

        Raises:
            InvalidInput: a verb already has an executor.
        """
        for verb in executor.verbs:
            current = self._by_verb.get(verb)
            if current is not None and current is not executor:
                raise InvalidInput(
                    f"verb {verb!r} already has executor {current.name!r}; "
                    f"{executor.name!r} cannot take it"
                )
        for verb in executor.verbs:
            self._by_verb[verb] = executor

    def verbs(self) -> list[str]:
        return sorted(self._by_verb)

    def executor_for(self, verb: str) -> Executor | None:
        return self._by_verb.get(verb)

    async def execute(self, agent_id: str, unit: WorkUnit) -> ExecutionResult:
        """Dispatches by verb; no executor → recorded, not executed."""
        executor = self._by_verb.get(unit.verb)
        if executor is None:
            return ExecutionResult(
                status="recorded_not_executed",
                message=(
                    f"no executor is registered for {unit.verb!r}: the work unit was recorded "
                    "as a decision, not executed"
                ),
            )
        try:
            result = await executor.execute(agent_id, unit)
        except Exception as error:  # an executor's failure is an outcome, not a crash
            log.warning("executor %s failed on %s: %s", executor.name, unit.verb, error)
            return ExecutionResult(
                status="failed",
                executor=executor.name,
                message=f"{type(error).__name__}: {error}",
            )
        return result.model_copy(update={"executor": executor.name})
