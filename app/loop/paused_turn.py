"""A paused turn being finished (:mod:`app.loop.resume_turn`): the approval, the person's answer,
what was done about it, and the paused turn's facts the resumed turn reuses."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.loop.approvals import StoredApproval, TurnState
from app.loop.learning import NewBelief
from app.loop.models import ApprovalAnswer, GuardianReport, TurnMode
from app.reasoning.protocol import ExecutionResult, HistoryTurn, Verification, WorkUnit
from app.seeds.skill_schema import DomainSkill


@dataclass(frozen=True, slots=True)
class Resumption:
    """A paused turn being finished: the approval, the person's answer, and what was done.

    A revision approval stores no turn state; the properties then give what its resumption
    answers as: a low-stakes conversation at D 0.
    """

    agent_id: str
    stored: StoredApproval
    answer: ApprovalAnswer
    claim_id: str
    unit: WorkUnit | None = None
    mode: TurnMode = "autonomous"
    guardian: GuardianReport = field(default_factory=lambda: GuardianReport(action="allow"))
    execution: ExecutionResult | None = None
    verification: Verification | None = None
    # A guidance answer learned as a belief (or reinforcing the belief it repeats).
    learning: list[NewBelief] = field(default_factory=list)
    # The paused turn's session so far (oldest first), and the identity document when a model
    # reasons: what the resumed turn's judgements see, as a fresh turn's do.
    history: list[HistoryTurn] = field(default_factory=list)
    identity: str | None = None
    # The domain skill the agent works under now (its packs', docs/packs.md §5; None: the
    # shipped one): the resumed turn proposes and verifies under it, as a fresh turn does.
    skill: DomainSkill | None = None

    @property
    def state(self) -> TurnState | None:
        return self.stored.state

    @property
    def rejected(self) -> bool:
        return self.answer.action == "reject"

    @property
    def frame(self) -> str:
        return self.state.frame if self.state else "conversation"

    @property
    def stakes(self) -> str:
        return self.state.stakes if self.state else "low"

    @property
    def band(self) -> str:
        return self.state.band if self.state else "low"

    @property
    def dissatisfaction(self) -> float:
        return self.state.dissatisfaction if self.state else 0.0

    @property
    def decision_id(self) -> str | None:
        return self.state.decision_id if self.state else None

    @property
    def belief_id(self) -> str | None:
        """The belief that decided the paused turn's mode."""
        return self.state.belief_id if self.state else self.stored.public.belief_id
