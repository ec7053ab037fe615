"""What a turn takes and gives back: the chat request, the turn's result, its streamed events
and the approvals (human in the loop) a turn may leave pending."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, field_validator

from app.beliefs.formulas import SupervisionMode
from app.beliefs.models import ContextName, RevisionSummary, TensionMove
from app.common import StrictUnit, no_control_characters
from app.reasoning.protocol import (
    Appraisal,
    ExecutionResult,
    PersonBrief,
    RevisitedBelief,
    RuleBrief,
    ToolCall,
    Verification,
    WorkUnit,
)
from app.tools.models import bounded_arguments

TurnMode = Literal["guidance", "proposal", "autonomous", "blocked", "revision"]
Band = Literal["low", "medium", "high"]
ApprovalKind = Literal["guidance", "proposal", "revision"]
ApprovalStatus = Literal[
    "pending", "resuming", "approved", "rejected", "answered", "modified", "expired"
]


class ChatRequest(BaseModel):
    """One message to the agent."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    message: Annotated[str, Field(min_length=1, max_length=8000)]
    speaker: Annotated[str | None, Field(min_length=1, max_length=200)] = Field(
        default=None, description="Who speaks (a Person's name; micro-born when new)."
    )
    session: Annotated[str | None, Field(min_length=1, max_length=200)] = Field(
        default=None, description="Conversation key; episodes of a session get peak-end salience."
    )
    context: ContextName | None = Field(
        default=None,
        description="Context for context-conditional strengths (e.g. month_end); default: "
        "the temporal context of working memory.",
    )
    end_session: StrictBool = Field(
        default=False,
        description="Close the session after this turn: peak-end salience, its summary, lessons "
        "and learned items, and reflection when enough episodes wait.",
    )

    _plain = field_validator("message", "speaker", "session")(no_control_characters)


class ModifiedCall(ToolCall):
    """The tool call of a person's modified work unit: its arguments bounded as those of
    ``POST /actions`` are (32 levels deep, 7,800 characters as JSON)."""

    _bounded = field_validator("arguments")(bounded_arguments)


# A person's modified work unit: the bounds of its text (a proposed unit's come from Credence).
MAX_UNIT_ITEMS = 64
MAX_ENTITY_CHARS = 500
MAX_CONSTRAINT_CHARS = 2000
MAX_DESCRIPTION_CHARS = 8000


class ModifiedWorkUnit(WorkUnit):
    """The work unit a person's ``modify`` answer runs instead of the proposed one: every part of
    it bounded (its description as a chat message, at most 64 entities and 64 constraints)."""

    entities: list[Annotated[str, Field(max_length=MAX_ENTITY_CHARS)]] = Field(
        default_factory=list, max_length=MAX_UNIT_ITEMS
    )
    constraints: list[Annotated[str, Field(max_length=MAX_CONSTRAINT_CHARS)]] = Field(
        default_factory=list, max_length=MAX_UNIT_ITEMS
    )
    description: str = Field(min_length=1, max_length=MAX_DESCRIPTION_CHARS)
    reasoner: str = Field(default="offline", max_length=64)
    confidence: StrictUnit = 0.5  # a number, as every float of a request body (docs/api.md)

    call: ModifiedCall | None = Field(
        default=None,
        description="The tool call to run (verb call_tool): its arguments at most 32 levels "
        "deep and 7,800 characters as JSON.",
    )


class ApprovalAnswer(BaseModel):
    """A person's answer to a pending approval."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    action: Literal["approve", "reject", "modify", "answer"]
    text: Annotated[str | None, Field(max_length=8000)] = Field(
        default=None, description="The answer (guidance) or the reason (reject)."
    )
    work_unit: ModifiedWorkUnit | None = Field(default=None, description="The modified work unit.")
    speaker: Annotated[str | None, Field(min_length=1, max_length=200)] = None

    _plain = field_validator("text", "speaker")(no_control_characters)

    @field_validator("work_unit", mode="before")
    @classmethod
    def _bounded(cls, value: Any) -> Any:
        # A work unit validated already (the MCP tool's argument) is validated again as a
        # modified one, so its call is bounded on every path.
        if isinstance(value, WorkUnit) and not isinstance(value, ModifiedWorkUnit):
            return value.model_dump()
        return value


class ApprovalPublic(BaseModel):
    id: str
    kind: ApprovalKind
    status: ApprovalStatus
    question: str
    work_unit: WorkUnit | None = Field(default=None, description="The unit proposed.")
    modified_work_unit: WorkUnit | None = Field(
        default=None,
        description="What a person's `modify` answer ran instead (status `modified`): their "
        "unit, a tool call's tool and arguments included, described as it ran; `work_unit` "
        "stays the one proposed.",
    )
    belief_id: str | None = None
    created_at: datetime | None = None
    expires_at: datetime | None = None
    resolved_at: datetime | None = None
    response: str | None = None
    required_authority: float | None = Field(
        default=None,
        description="Who may answer: the principal, or a known person with at least this "
        "authority (None: the loop settings' value for its stakes).",
    )


class ApprovalsPublic(BaseModel):
    data: list[ApprovalPublic]
    count: int


class DissatisfactionView(BaseModel):
    value: float
    band: Band


class RelevantBelief(BaseModel):
    id: str
    statement: str
    strength: float = Field(description="Strength in the turn's context (HOLDS_IN back-off).")
    default_strength: float
    tension: float
    relevance: float
    invalidated: bool = Field(
        default=False,
        description="Its strength is below its category's invalidation threshold (A.C.R.E.): "
        "it never makes a turn autonomous.",
    )
    supervision_mode: SupervisionMode | None = Field(
        default=None,
        description="The mode pinned on the belief (PATCH /beliefs/{bid} supervision_mode): it "
        "routed the turn in place of the strength's mode, before the safety steps (docs/loop.md "
        "§4); null: derived from the strength.",
    )


class GuardianReport(BaseModel):
    action: Literal["allow", "warn", "block", "absolute"]
    reason: str | None = None
    matches: list[dict[str, Any]] = Field(default_factory=list)
    audit: dict[str, Any] | None = None
    # Censors that could not finish within the check's time limit (then at least warn).
    timed_out: list[str] = Field(default_factory=list)


class ReasonerCalls(BaseModel):
    """Which reasoner answered each judgement of the turn, and what the model calls cost."""

    calls: list[str] = Field(default_factory=list)
    model_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_input_tokens: int = 0


class LearnedBelief(BaseModel):
    """A claim the turn learned: a new belief (source ``learned``), or the known belief it
    repeated and reinforced instead."""

    id: str = Field(description="The new belief, or the belief it reinforced.")
    statement: str
    kind: Literal["guidance", "correction", "novel"] | str
    reinforced: bool = Field(description="True: it repeated a known belief, reinforced instead.")
    similarity: float = Field(default=0.0, description="To the closest known belief.")
    contradicts: list[str] = Field(default_factory=list)
    supports: list[str] = Field(
        default_factory=list, description="Derived beliefs it now SUPPORTS (joining the mean)."
    )


class TurnMemory(BaseModel):
    """What the turn remembered: the conversation so far and how it read the message."""

    history_turns: int = Field(default=0, description="Earlier turns of the session it read.")
    understood_as: str | None = Field(
        default=None,
        description="The message with its references to earlier turns resolved, when that "
        "changed it (what retrieval searched for).",
    )
    rules_used: list[RuleBrief] = Field(
        default_factory=list,
        description="Learned rules that applied (recorded as USED; validated on a success).",
    )
    people_present: list[PersonBrief] = Field(default_factory=list)
    working_memory_items: int = Field(default=0, description="Tasks and notes it could see.")
    episodes_recalled: int = 0


class ToolRoute(BaseModel):
    """How a turn came to a tool: the ``call`` syntax, or a message routed to one (by Claude's
    native tool use, or offline by the similarity of the message to the tool's description)."""

    tool: str = Field(description="connection.tool")
    how: str = Field(description="'syntax', or the reasoner that chose it")
    called: bool = Field(description="false when the tool's arguments are missing (no call)")
    missing: list[str] = Field(
        default_factory=list, description="required arguments the message did not state"
    )
    similarity: float | None = Field(
        default=None, description="cosine between the message and the tool's description"
    )
    purpose: str = Field(default="", description="the tool's description, as its server gives it")
    needs: dict[str, str] = Field(
        default_factory=dict,
        description="each missing argument with its description in the tool's input schema",
    )
    arguments: dict[str, Any] | None = Field(
        default=None,
        description="the arguments the call was proposed with (None when none was proposed)",
    )
    refused: str | None = Field(
        default=None,
        description="why the tool's input schema refused the proposed call's arguments (the "
        "argument and the schema's message): the call was not made, not proposed for approval, "
        "and the belief about the tool did not move",
    )


class TurnResult(BaseModel):
    turn_id: str = Field(description="The turn's Episode id.")
    agent_id: str
    response: str
    questions: list[str] = Field(default_factory=list)
    mode: TurnMode
    frame: str
    frame_questions: list[str] = Field(
        default_factory=list,
        description="The frame's own checks (its questions_to_ask), given to the appraisal and "
        "the reply as questions the agent asks itself; never put to the person as they stand "
        "(empty on a resumed turn, which is not appraised again).",
    )
    stakes: str
    dissatisfaction: DissatisfactionView
    relevant_belief: RelevantBelief | None = None
    appraisal: Appraisal | None = None
    guardian: GuardianReport
    work_unit: WorkUnit | None = None
    execution: ExecutionResult | None = None
    verification: Verification | None = None
    decision_id: str | None = None
    tension_changes: list[TensionMove] = Field(default_factory=list)
    revisited: list[RevisitedBelief] = Field(
        default_factory=list,
        description="Earlier answers to this person that rested on a belief revised since; "
        "the reply names each change (once).",
    )
    revisions: list[RevisionSummary] = Field(default_factory=list)
    approval: ApprovalPublic | None = None
    people_born: list[str] = Field(default_factory=list)
    degraded: str | None = None
    reasoners: ReasonerCalls
    memory: TurnMemory = Field(default_factory=TurnMemory)
    learned: list[LearnedBelief] = Field(default_factory=list)
    action_id: str | None = Field(
        default=None,
        description="The Action of a tool-call turn (GET /actions): what was sent, what came of "
        "it, or that it waits for a person.",
    )
    tool_route: ToolRoute | None = Field(
        default=None,
        description="The tool this turn's message asked for (a call, or one that needs its "
        "arguments).",
    )
    timings_ms: dict[str, float] = Field(default_factory=dict)


class TurnEvent(BaseModel):
    """One thing that happened during a turn, as the WebSocket streams it."""

    type: Literal[
        "phase", "tension", "revision", "approval", "guardian", "response", "done", "error"
    ]
    phase: str | None = None
    data: dict[str, Any] = Field(default_factory=dict)
