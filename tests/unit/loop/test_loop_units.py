"""Pure parts of the loop: routing (supervision), outcome and moral valence, executors."""

from __future__ import annotations

from typing import cast

import pytest

from app.beliefs.mechanics import Mechanics
from app.config import Settings
from app.embeddings.embedder import UnavailableEmbedder
from app.errors import InvalidInput
from app.graph.client import GraphClient
from app.loop.acting import execute_and_verify, moral_valence, outcome_of
from app.loop.executors import ExecutorRegistry
from app.loop.guarding import Guard
from app.loop.recording import TurnRecorder, silent
from app.loop.routing import route
from app.loop.services import LoopServices
from app.reasoning.offline.reasoner import OfflineReasoner
from app.reasoning.protocol import ExecutionResult, Verification, VerifyRequest, WorkUnit

M = Mechanics()


@pytest.mark.parametrize(
    ("strength", "stakes", "band", "expected"),
    [
        (None, "low", "low", "guidance"),
        (0.39, "low", "low", "guidance"),
        (0.4, "low", "low", "proposal"),
        (0.69, "medium", "low", "proposal"),
        (0.7, "medium", "low", "autonomous"),
        (0.95, "high", "low", "proposal"),
        (0.95, "low", "high", "proposal"),
        (0.95, "high", "high", "guidance"),
        (0.5, "low", "high", "guidance"),
        (0.2, "low", "high", "guidance"),
    ],
)
def test_supervision_mode(strength: float | None, stakes: str, band: str, expected: str) -> None:
    routed = route(
        strength, stakes=stakes, band=band, censor_action="allow", audit_failed=False, mechanics=M
    )
    assert routed.mode == expected
    assert routed.reasons


@pytest.mark.parametrize("action", ["block", "absolute"])
def test_censor_refuses_whatever_the_strength(action: str) -> None:
    routed = route(
        0.99, stakes="low", band="low", censor_action=action, audit_failed=False, mechanics=M
    )
    assert routed.mode == "blocked"
    assert action in routed.reasons[0]


def test_warn_censor_does_not_refuse_and_failed_audit_does() -> None:
    warn = route(
        0.9, stakes="low", band="low", censor_action="warn", audit_failed=False, mechanics=M
    )
    assert warn.mode == "autonomous"
    audit = route(
        0.9, stakes="low", band="low", censor_action="allow", audit_failed=True, mechanics=M
    )
    assert audit.mode == "blocked"


def test_outcome_and_moral_valence() -> None:
    done = ExecutionResult(status="executed")
    valid = Verification(is_valid=True, action="proceed")
    invalid = Verification(is_valid=False, action="escalate")
    assert outcome_of(None, None) == "neutral"
    assert outcome_of(ExecutionResult(status="recorded_not_executed"), valid) == "neutral"
    assert outcome_of(done, valid) == "success"
    assert outcome_of(done, invalid) == "failure"
    assert outcome_of(ExecutionResult(status="failed"), invalid) == "failure"
    topics = M.moral_topics
    assert moral_valence("share the audit file", "failure", topics) == "violation"
    assert moral_valence("share the audit file", "success", topics) == "confirmation"
    assert moral_valence("share the lunch menu", "failure", topics) == "neutral"
    assert moral_valence("the audit", "neutral", topics) == "neutral"


class Flaky:
    name = "flaky"
    verbs = frozenset({"post"})

    def __init__(self) -> None:
        self.calls = 0

    async def execute(self, agent_id: str, unit: WorkUnit) -> ExecutionResult:
        self.calls += 1
        raise ConnectionError("ledger unreachable")


UNIT = WorkUnit(verb="post", description="post the journal entry")


async def test_registry_dispatches_by_verb_and_never_fakes() -> None:
    flaky = Flaky()
    registry = ExecutorRegistry([flaky])
    missing = await registry.execute("a", UNIT.model_copy(update={"verb": "pay"}))
    assert missing.status == "recorded_not_executed"
    assert "pay" in missing.message
    failed = await registry.execute("a", UNIT)
    assert failed.status == "failed"
    assert failed.executor == "flaky"
    assert "ledger unreachable" in failed.message
    assert registry.verbs() == ["post"]


def test_one_executor_per_verb() -> None:
    class Other(Flaky):
        name = "other"

    registry = ExecutorRegistry([Flaky()])
    with pytest.raises(InvalidInput, match="already has executor"):
        registry.register(Other())


class AlwaysRetry(OfflineReasoner):
    def __init__(self) -> None:
        super().__init__()
        self.verified = 0

    async def verify(self, request: VerifyRequest) -> Verification:
        self.verified += 1
        return Verification(is_valid=False, action="retry")


def _services(reasoner: OfflineReasoner, registry: ExecutorRegistry) -> LoopServices:
    settings = Settings(_env_file=None)
    return LoopServices(
        graph=cast(GraphClient, None),
        settings=settings,
        reasoner=reasoner,
        embedder=UnavailableEmbedder(),
        executors=registry,
        guard=cast(Guard, None),
    )


async def test_retry_budget_is_two_then_escalate() -> None:
    flaky = Flaky()
    reasoner = AlwaysRetry()
    services = _services(reasoner, ExecutorRegistry([flaky]))
    recorder = TurnRecorder(emit=silent)
    execution, verification = await execute_and_verify(services, recorder, "a", UNIT)
    assert flaky.calls == 3  # the first attempt and two retries
    assert reasoner.verified == 3
    assert execution.status == "failed"
    assert verification.action == "escalate"


async def test_nothing_to_verify_when_only_recorded() -> None:
    reasoner = AlwaysRetry()
    services = _services(reasoner, ExecutorRegistry())
    recorder = TurnRecorder(emit=silent)
    execution, verification = await execute_and_verify(services, recorder, "a", UNIT)
    assert execution.status == "recorded_not_executed"
    assert verification.action == "proceed" and verification.is_valid
    assert reasoner.verified == 0
    assert recorder.calls().model_calls == 0
