"""A validation scenario as data (``seeds/scenarios/<name>.yaml``, docs/scenarios.md): who the
agent works for and with, what it believes and what its ledger holds before the first turn, the
turns, and the decisions a good agent takes at each; and what running one reports."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, Field, StrictBool, model_validator

from app.beliefs.models import BeliefCreate
from app.common import StrictModel, StrictUnit, not_blank
from app.errors import CredenceError
from app.loop.models import ApprovalKind, TurnMode
from app.memory.settings import Seniority

Name = Annotated[str, Field(min_length=1, max_length=200)]
Text = Annotated[str, Field(min_length=1, max_length=8000)]
# A text an expectation looks for: never empty or blank, which every text holds (a check that
# could not fail).
Wanted = Annotated[str, Field(min_length=1, max_length=2000), AfterValidator(not_blank)]
ScenarioName = Annotated[str, Field(min_length=1, max_length=80, pattern=r"^[a-z0-9][a-z0-9\-]*$")]


class ScenarioPerson(StrictModel):
    name: Name
    role: Name
    seniority: Seniority
    email: Annotated[str | None, Field(max_length=320)] = None
    interaction_frequency: StrictUnit = 0.0
    context_relevance: StrictUnit = 0.5


class LedgerSetup(StrictModel):
    """The ledger (``mcp-server-sqlite`` on a file of the run's own) before the first turn: SQL
    statements run on the file, then the server is connected as ``ledger``."""

    statements: list[Text] = Field(default_factory=list)


class Expectation(StrictModel):
    """The decisions expected of one turn (or of the turn an answer resumes); every field set
    is checked, an unset one is not."""

    mode: TurnMode | None = Field(
        default=None, description="guidance, proposal, autonomous, blocked or revision"
    )
    refused: StrictBool | None = Field(default=None, description="The guardian refused the turn.")
    guardian: Literal["allow", "warn", "block", "absolute"] | None = None
    asks: ApprovalKind | Literal["nothing"] | None = Field(
        default=None, description="The approval it leaves pending for a person, or nothing."
    )
    revision: StrictBool | None = Field(default=None, description="A belief was revised.")
    escalated: StrictBool | None = Field(
        default=None, description="Verification escalated the result to a person."
    )
    belief: Wanted | None = Field(
        default=None, description="Words of the belief the turn rested on (case-insensitive)."
    )
    verb: Wanted | None = Field(default=None, description="The work unit's verb.")
    tool: Wanted | None = Field(default=None, description="connection.tool the work unit calls.")
    executed: StrictBool | None = Field(
        default=None, description="The work unit ran (status executed)."
    )
    result_contains: list[Wanted] = Field(
        default_factory=list, description="Texts the execution's output holds."
    )
    learned: Wanted | None = Field(
        default=None, description="Words of a belief the turn learned (new, not reinforced)."
    )
    learns: StrictBool | None = Field(default=None, description="The turn learned a new belief.")
    tension_rises: StrictBool | None = Field(
        default=None, description="The tension of a belief it holds rose."
    )
    response_contains: list[Wanted] = Field(default_factory=list)

    @property
    def checks(self) -> int:
        """The checks this expectation makes: one a field set, one a text of each list."""
        return sum(
            len(value) if isinstance(value, list) else value is not None
            for value in self.model_dump().values()
        )


class ToolCallSpec(StrictModel):
    tool: Name
    arguments: dict[str, Any] = Field(default_factory=dict)
    connection: Name = "ledger"


# The errors an answer to an approval can be refused with (app/errors.py): the answerer lacks
# the authority (403), the approval is answered or expired (409), the answer does not fit (422).
AnswerRefusal = Literal["approval_not_authorized", "approval_closed", "approval_answer_invalid"]


class AnswerSpec(StrictModel):
    """A person's answer to the approval the turn left pending."""

    action: Literal["approve", "reject", "answer"]
    speaker: Name | None = Field(default=None, description="Default: the turn's speaker.")
    text: Text | None = None
    refused: AnswerRefusal | None = Field(
        default=None,
        description="The answer is refused with this error: nothing runs and the approval "
        "stays as it was (pending for the next answer).",
    )
    expect: Expectation = Field(default_factory=Expectation)

    @property
    def checks(self) -> int:
        """A refused answer's two checks (the error's code, the approval left as it was), else
        those of the turn it resumes."""
        return 2 if self.refused is not None else self.expect.checks

    @model_validator(mode="after")
    def _refused_expects_nothing_else(self) -> AnswerSpec:
        if self.refused is not None and self.expect.model_dump(exclude_defaults=True):
            raise ValueError("a refused answer resumes no turn: it takes no expect")
        return self


class ScenarioTurn(StrictModel):
    speaker: Name
    message: Text | None = None
    call: ToolCallSpec | None = None
    why: Annotated[str, Field(max_length=2000)] = Field(
        default="", description="What a good agent does here and why (shown in the report)."
    )
    expect: Expectation = Field(default_factory=Expectation)
    answer: AnswerSpec | None = None
    answers: list[AnswerSpec] = Field(
        default_factory=list,
        description="Several answers to the turn's approval, in order (e.g. one refused, then "
        "one that resumes it); ``answer`` is the one-answer form.",
    )

    @model_validator(mode="after")
    def _one_of_message_or_call(self) -> ScenarioTurn:
        if (self.message is None) == (self.call is None):
            raise ValueError("a turn has exactly one of message and call")
        if self.answer is not None and self.answers:
            raise ValueError("a turn has answer or answers, not both")
        return self

    @property
    def all_answers(self) -> list[AnswerSpec]:
        """The answers to the turn's approval, in order."""
        return [self.answer] if self.answer is not None else list(self.answers)

    @property
    def checks(self) -> int:
        """The checks of the turn and of every answer to its approval."""
        return self.expect.checks + sum(answer.checks for answer in self.all_answers)


class Scenario(StrictModel):
    """One validation scenario file."""

    name: ScenarioName
    title: Annotated[str, Field(min_length=1, max_length=200)]
    description: Text
    start: datetime = Field(description="The clock at the first turn (timezone-aware).")
    company: Name = "Northwind Trading"
    packs: list[Annotated[str, Field(min_length=1, max_length=80)]] = Field(default_factory=list)
    principal: ScenarioPerson
    people: list[ScenarioPerson] = Field(default_factory=list)
    beliefs: list[BeliefCreate] = Field(default_factory=list)
    ledger: LedgerSetup | None = None
    session: Name = Field(default="scenario", description="The session every turn belongs to.")
    turns: list[ScenarioTurn] = Field(min_length=1)

    @model_validator(mode="after")
    def _aware_start(self) -> Scenario:
        if self.start.tzinfo is None:
            raise ValueError("start must carry a timezone (e.g. 2026-10-28T08:30:00Z)")
        return self

    @property
    def checks(self) -> int:
        """The checks a run makes when every turn runs (``credence scenario list``)."""
        return sum(turn.checks for turn in self.turns)


class Check(BaseModel):
    """One expectation of one turn, as the run found it."""

    turn: int = Field(description="1-based; the answer to a turn's approval shares its number.")
    step: str = Field(description="'turn' or 'answer'")
    speaker: str
    what: str
    expected: str
    actual: str
    passed: bool


class ScenarioReport(BaseModel):
    name: str
    title: str
    agent_id: str
    kept: bool
    ledger: str | None = Field(
        default=None, description="The ledger's SQLite file, when the run kept it."
    )
    checks: list[Check] = Field(default_factory=list)
    turns: int = 0
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        return all(check.passed for check in self.checks)

    @property
    def failures(self) -> list[Check]:
        return [check for check in self.checks if not check.passed]


class ScenarioNotFound(CredenceError):
    """No validation scenario of that name (`credence scenario list` names them)."""

    code = "scenario_not_found"

    def __init__(self, name: str, available: list[str]) -> None:
        super().__init__(
            f"no scenario {name!r} (available: {', '.join(available) or 'none'})",
            name=name,
            available=available,
        )


class ScenarioCannotRun(CredenceError):
    """The scenario needs something this machine lacks (the SQLite MCP server)."""

    code = "scenario_cannot_run"

    def __init__(self, name: str, why: str) -> None:
        super().__init__(f"scenario {name!r}: {why}", name=name)
