"""The Reasoner protocol: one method per judgement, each returning a pydantic model.

Every answer says which reasoner produced it (``reasoner``: ``offline``, ``claude:<model>`` or
``offline (fallback: <why>)``) and, for model calls, the tokens it cost (``usage``), so a turn
can report its model calls and tokens without the reasoner keeping state.
"""

from __future__ import annotations

from datetime import date
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, StrictInt
from pydantic.json_schema import SkipJsonSchema

from app.seeds.skill_schema import DomainSkill
from app.text.claims import MAX_STATEMENT_CHARS

Stance = Literal["reinforcing", "contradicting", "neutral", "novel"]
Level = Literal["low", "medium", "high"]
Severity = Literal["low", "medium", "high", "critical"]
Band = Literal["low", "medium", "high"]
Mode = Literal["guidance", "proposal", "autonomous", "blocked", "revision"]


class TokenUsage(BaseModel):
    """What one model call cost (zero for the offline reasoner)."""

    model: str
    input_tokens: StrictInt = 0
    output_tokens: StrictInt = 0
    cache_read_input_tokens: StrictInt = 0
    cache_creation_input_tokens: StrictInt = 0


class Judgement(BaseModel):
    """Fields every answer carries."""

    reasoner: str = "offline"
    usage: TokenUsage | None = None


# --- revise ------------------------------------------------------------------------------------


class EvidenceNote(BaseModel):
    text: str
    weight: float
    source_person: str | None = None


class Neighbour(BaseModel):
    id: str
    statement: str
    strength: float
    tension: float
    relation: str
    hops: int


class RevisionRequest(BaseModel):
    """Everything the reasoner sees when a belief reaches the revision threshold."""

    belief_id: str
    statement: str
    category: str
    strength: float
    tension: float
    against: list[EvidenceNote]
    supporting: list[EvidenceNote]
    neighbours: list[Neighbour]
    episodes: list[dict[str, Any]] = Field(default_factory=list)
    mode: str = "threshold"


class RevisedBelief(Judgement):
    """The reasoner's revision: the new statement and why."""

    statement: str = Field(min_length=1, max_length=2000)
    reasoning: str
    evidence_summary: str
    behavioral_changes: list[str] = Field(default_factory=list)
    connected_actions: list[str] = Field(default_factory=list)


# --- the beliefs a judgement is about ----------------------------------------------------------


class BeliefBrief(BaseModel):
    """A belief as a judgement sees it."""

    id: str
    statement: str
    strength: float = Field(ge=0.0, le=1.0)
    tension: float = Field(default=0.0, ge=0.0, le=1.0)
    category: str = "contextual"


class RevisitedBelief(BaseModel):
    """A belief an earlier answer to this person rested on, revised since (seed 001's
    "revisits past outputs"): what they were told, and what the agent holds now."""

    revision_id: str
    old_statement: str
    new_statement: str


# --- the conversation so far -------------------------------------------------------------------


class HistoryTurn(BaseModel):
    """One earlier turn of the session: what the person said and what the agent answered."""

    speaker: str | None = None
    message: str
    response: str | None = None


def _history() -> Any:
    return Field(
        default_factory=list,
        description="the session's earlier turns, oldest first (resolve 'it' / 'that' with "
        "them; do not ask again what they already answered)",
    )


# --- memory a judgement sees --------------------------------------------------------------------


class PersonBrief(BaseModel):
    """A person present in the turn (the speaker, or someone it names or recalls)."""

    name: str
    role: str | None = None
    authority: float = Field(default=0.5, ge=0.0, le=1.0)
    relationship_value: float = Field(default=0.5, ge=0.0, le=1.0)
    affect_valence: float = Field(default=0.0, ge=-1.0, le=1.0)
    affect_stress: float = Field(default=0.0, ge=0.0, le=1.0)
    speaker: bool = Field(default=False, description="this person speaks in the turn")
    trust: float = Field(
        default=0.5,
        ge=0.0,
        le=1.0,
        description="how far their word has proven reliable (corrections, approvals); weighs "
        "their claims as evidence",
    )
    knowledge_level: Literal["novice", "intermediate", "expert"] | None = Field(
        default=None, description="what they know of the turn's domain (null: not known)"
    )
    goals: list[str] = Field(
        default_factory=list, description="what they are working towards, most recent first"
    )
    successful_patterns: list[str] = Field(
        default_factory=list, description="ways of working that succeeded with them"
    )
    topics: list[str] = Field(
        default_factory=list, description="topics of their earlier turns, most recent first"
    )


class RuleBrief(BaseModel):
    """A learned rule (heuristic) that applies to the turn."""

    id: str
    trigger_concept: str
    content: str
    confidence: float = Field(default=0.5, ge=0.0, le=1.0)


class MemoryItem(BaseModel):
    """One item of working memory: an active task, a note, or the temporal context."""

    kind: Literal["task", "note", "temporal"]
    content: str


class RecalledEpisode(BaseModel):
    """An earlier episode retrieved for the turn (not necessarily of this session)."""

    text: str
    response: str | None = None
    outcome: str | None = None


# --- appraise ----------------------------------------------------------------------------------


class WorkSpec(BaseModel):
    """What to do: a verb, the things it acts on and the limits it must keep."""

    verb: str = Field(min_length=1, max_length=64, pattern=r"^[a-z][a-z0-9_]*$")
    entities: list[str] = Field(default_factory=list)
    constraints: list[str] = Field(default_factory=list)
    description: str = Field(min_length=1)
    confidence: float = Field(default=0.5, ge=0.0, le=1.0)


class PastDecision(BaseModel):
    """A past decision recalled into a turn (seed 002's context line)."""

    line: str = Field(description="`- [outcome] description (confidence: c)`")
    outcome: str | None = Field(default=None, description="success, partial, failure or None")


class AppraisalRequest(BaseModel):
    message: str
    speaker: str | None = None
    frame: str = "conversation"
    frame_questions: list[str] = Field(
        default_factory=list,
        description="the turn's frame's own checks (its questions_to_ask): asked of oneself "
        "before judging, never put to the person as they stand",
    )
    stakes: Level = "low"
    beliefs: list[BeliefBrief] = Field(default_factory=list)
    dissatisfaction: float = Field(default=0.0, ge=0.0, le=1.0)
    band: Band = "low"
    history: list[HistoryTurn] = _history()
    identity: str | None = Field(
        default=None,
        description="the agent's identity document: the system prompt of a model's call",
    )
    people: list[PersonBrief] = Field(default_factory=list, description="the people present")
    rules: list[RuleBrief] = Field(default_factory=list, description="learned rules that apply")
    working_memory: list[MemoryItem] = Field(
        default_factory=list, description="active tasks, notes and the temporal context"
    )
    episodes: list[RecalledEpisode] = Field(
        default_factory=list, description="related earlier episodes"
    )
    decisions: list[PastDecision] = Field(
        default_factory=list,
        description="the agent's past decisions related to the message, most relevant first",
    )
    urgency_multiplier: float = Field(
        default=1.0, ge=0.0, description="working memory's temporal urgency (month end 1.5 ...)"
    )
    domain: str | None = Field(
        default=None, description="the turn's domain (that of the belief it rests on)"
    )
    skill: DomainSkill | None = Field(
        default=None,
        description="the agent's domain skill (docs/packs.md §5); None: the shipped accounting "
        "skill",
    )


class Appraisal(Judgement):
    """How the turn looks before acting on it."""

    face_threat: float = Field(ge=0.0, le=1.0, description="risk of embarrassing the person")
    urgency: float = Field(ge=0.0, le=1.0)
    uncertainty_areas: list[str] = Field(default_factory=list)
    recommended_approach: str
    expectancy_violation: float = Field(
        default=0.0, ge=0.0, le=1.0, description="how unexpected the turn is given what is known"
    )
    decided_by: str | None = Field(
        default=None,
        description="the person present with decision-making power here (most authority), if any",
    )
    is_request: bool = Field(description="the person asks for something to be done")
    high_risk: list[str] = Field(
        default_factory=list,
        description="high-risk kinds the request touches: delete, payment, credentials, "
        "external_communication",
    )
    work_unit: WorkSpec | None = Field(
        default=None,
        description="for a request: the work it asks for (saves a propose_work_unit call)",
    )


# --- evidence and stance -----------------------------------------------------------------------


class StanceRequest(BaseModel):
    claim: str = Field(min_length=1)
    statement: str = Field(min_length=1)


class StanceJudgement(Judgement):
    stance: Stance
    confidence: float = Field(ge=0.0, le=1.0)
    cues: list[str] = Field(default_factory=list, description="why, in short phrases")


class EvidenceRequest(BaseModel):
    message: str
    speaker: str | None = None
    beliefs: list[BeliefBrief] = Field(default_factory=list)
    history: list[HistoryTurn] = _history()
    identity: str | None = Field(
        default=None,
        description="the agent's identity document: the system prompt of a model's call",
    )


class EvidenceItem(BaseModel):
    """One claim of the turn judged against one belief."""

    belief_id: str
    claim: str
    stance: Stance
    confidence: float = Field(ge=0.0, le=1.0)
    kind: Literal["factual", "feedback", "outcome"] = "factual"


class LearnedClaim(BaseModel):
    """A claim of the turn the agent accepts as a new belief of its own (made no longer than
    a belief's statement: ``app.text.claims.clip_statement``)."""

    statement: str = Field(min_length=1, max_length=MAX_STATEMENT_CHARS)
    kind: Literal["guidance", "correction", "novel"] = Field(
        description="guidance: how to do something; correction: it corrects a given belief; "
        "novel: a fact no given belief covers"
    )
    supports: list[str] = Field(default_factory=list, description="ids of given beliefs it backs")
    contradicts: list[str] = Field(
        default_factory=list, description="ids of given beliefs it contradicts"
    )


class ExtractedEvidence(Judgement):
    claims: list[str] = Field(default_factory=list)
    items: list[EvidenceItem] = Field(default_factory=list)
    learned: list[LearnedClaim] = Field(
        default_factory=list,
        description="claims to accept as new beliefs (guidance, a correction, a novel fact)",
    )


# --- work units, execution, verification -------------------------------------------------------


class WorkRequest(BaseModel):
    message: str
    frame: str = "conversation"
    beliefs: list[BeliefBrief] = Field(default_factory=list)
    appraisal: Appraisal | None = None
    guidance: str | None = Field(default=None, description="a person's answer to a question")
    history: list[HistoryTurn] = _history()
    identity: str | None = Field(
        default=None,
        description="the agent's identity document: the system prompt of a model's call",
    )
    skill: DomainSkill | None = Field(
        default=None,
        description="the agent's domain skill (docs/packs.md §5); None: the shipped accounting "
        "skill",
    )


class ToolCall(BaseModel):
    """One call of a tool of a connected MCP server (verb ``call_tool``): the connection's name,
    the tool's and the arguments as sent."""

    model_config = ConfigDict(extra="forbid")

    connection: str = Field(pattern=r"^[a-z][a-z0-9_-]{0,39}$")
    tool: str = Field(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9_.-]+$")
    arguments: dict[str, Any] = Field(default_factory=dict)

    @property
    def qualified_name(self) -> str:
        return f"{self.connection}.{self.tool}"


class WorkUnit(Judgement, WorkSpec):
    """What to do, as a judgement of its own (``propose_work_unit``)."""

    call: ToolCall | None = Field(
        default=None,
        description="set only by Credence for a tool call (verb call_tool); leave it null",
    )


class ToolOffer(BaseModel):
    """A tool of the agent's connected servers, as a turn offers it to the reasoner."""

    qualified_name: str = Field(description="connection.tool")
    description: str = ""
    input_schema: dict[str, Any] = Field(default_factory=dict)
    similarity: float | None = Field(
        default=None,
        description="cosine between the message and the tool's description (None without "
        "embeddings)",
    )


class ToolChoiceRequest(BaseModel):
    """Does the person's message ask for one of these tools, and with which arguments?"""

    message: str
    tools: list[ToolOffer]
    threshold: float = Field(
        ge=0.0, le=1.0, description="the similarity a tool needs for the offline route"
    )
    history: list[HistoryTurn] = _history()
    identity: str | None = Field(
        default=None,
        description="the agent's identity document: the system prompt of a model's call",
    )


class ToolChoice(Judgement):
    """The tool call a message asks for: ``call`` when its arguments are known; ``tool`` and
    ``missing`` (the required arguments it could not derive) when they are not; neither when
    the message asks for no tool."""

    call: ToolCall | None = None
    tool: str | None = Field(default=None, description="connection.tool the message asks for")
    missing: list[str] = Field(default_factory=list)
    similarity: float | None = None


class ExecutionResult(BaseModel):
    """What an executor (or the absence of one) reports for a work unit."""

    status: Literal["executed", "failed", "recorded_not_executed"]
    executor: str | None = None
    output: dict[str, Any] = Field(default_factory=dict)
    message: str = ""
    retry_safe: bool = Field(
        default=True,
        description="false: its outcome is unknown (a tool that may destroy timed out or broke "
        "mid-call) and sending it again could do the work twice, so it is never retried",
    )


class VerifyRequest(BaseModel):
    work_unit: WorkUnit
    result: ExecutionResult
    attempt: int = Field(default=1, ge=1)
    skill: DomainSkill | None = Field(
        default=None,
        description="the agent's domain skill (docs/packs.md §5); None: the shipped accounting "
        "skill",
    )


class VerificationIssue(BaseModel):
    description: str
    severity: Severity = "medium"


class Verification(Judgement):
    is_valid: bool
    issues: list[VerificationIssue] = Field(default_factory=list)
    action: Literal["proceed", "retry", "escalate"]


class AuditRequest(BaseModel):
    message: str
    work_unit: WorkUnit | None = None
    creed: list[str] = Field(default_factory=list)
    risk_kinds: list[str] = Field(default_factory=list)


class Audit(Judgement):
    """The tier-3 guardian check of a high-risk action against the creed: the verdict, and why
    (docs/loop.md §5)."""

    passed: bool
    risk: Level
    reason: str = Field(
        min_length=1,
        max_length=2000,
        description="why it passed or failed, in one or two sentences a person can read",
    )
    concerns: list[str] = Field(default_factory=list)
    creed_violations: list[str] = Field(
        default_factory=list,
        description="the creed lines the request would break, verbatim (empty when none)",
    )
    recommendation: str = Field(
        min_length=1,
        max_length=2000,
        description="what to do instead, or what to confirm before acting",
    )


# --- reflection --------------------------------------------------------------------------------


class EpisodeBrief(BaseModel):
    id: str
    text: str
    outcome: str | None = None
    frame: str | None = None


class RuleRequest(BaseModel):
    episodes: list[EpisodeBrief] = Field(min_length=1)
    existing_rules: list[str] = Field(default_factory=list)


class AbstractedRule(Judgement):
    trigger_concept: str = Field(min_length=1, max_length=200)
    content: str = Field(min_length=1, max_length=2000)
    confidence: float = Field(ge=0.0, le=1.0)


# --- respond -----------------------------------------------------------------------------------


class ResponseRequest(BaseModel):
    """Everything the response is built from; ``system_prompt`` is the stable, cacheable part
    (creed, identity) and the rest changes per turn."""

    message: str
    system_prompt: str
    band: Band = "low"
    dissatisfaction: float = Field(default=0.0, ge=0.0, le=1.0)
    mode: Mode = "autonomous"
    frame: str = "conversation"
    frame_questions: list[str] = Field(
        default_factory=list,
        description="the turn's frame's own checks (its questions_to_ask): asked of oneself "
        "before judging, never put to the person as they stand",
    )
    beliefs: list[BeliefBrief] = Field(default_factory=list)
    tensions: list[BeliefBrief] = Field(default_factory=list, description="the tensest beliefs")
    revision: str | None = Field(default=None, description="what was revised this turn")
    execution: str | None = Field(default=None, description="what was done this turn")
    approval_question: str | None = None
    refusal: str | None = None
    tool_request: str | None = Field(
        default=None,
        description="a tool that does what the person asks and no call of it was made: the "
        "arguments it still needs, or why its input schema refused the arguments proposed",
    )
    history: list[HistoryTurn] = _history()
    people: list[PersonBrief] = Field(default_factory=list, description="the people present")
    rules: list[RuleBrief] = Field(default_factory=list, description="learned rules that apply")
    working_memory: list[MemoryItem] = Field(
        default_factory=list, description="active tasks, notes and the temporal context"
    )
    episodes: list[RecalledEpisode] = Field(
        default_factory=list, description="related earlier episodes"
    )
    revisited: list[RevisitedBelief] = Field(
        default_factory=list,
        description="beliefs an earlier answer to this person rested on, revised since: say "
        "what changed before answering",
    )
    depth: Literal["brief", "standard", "detailed"] = Field(
        default="standard",
        description="how deep the answer goes for the speaker: detailed for a novice in the "
        "turn's domain (explain terms and background), brief for an expert, else what worked "
        "with them before",
    )


class Reply(Judgement):
    text: str = Field(min_length=1)
    questions: list[str] = Field(default_factory=list)


# --- research (issue 16): hypotheses, passages, source conflicts, the report ---------------------

ResearchStance = Literal["supports", "contradicts", "neutral"]


class HypothesesRequest(BaseModel):
    """The question an investigation starts from."""

    question: str = Field(min_length=1)
    max_hypotheses: int = Field(default=3, ge=1, le=5)


class ProposedHypotheses(Judgement):
    """Testable statements whose truth answers the question."""

    hypotheses: list[str] = Field(
        min_length=1,
        max_length=5,
        description="declarative statements, each one that a passage can support or contradict",
    )


class PassageRequest(BaseModel):
    """A passage a source found, to be judged against one hypothesis."""

    hypothesis: str = Field(min_length=1)
    passage: str = Field(min_length=1)
    title: str = ""
    published: date | None = None


class PassageJudgement(Judgement):
    """The stance of a passage towards a hypothesis."""

    stance: ResearchStance
    confidence: float = Field(ge=0.0, le=1.0)
    reason: str = Field(description="why, in one short sentence")
    # The cosine of the passage's and the hypothesis' embeddings, from the offline judge when it
    # had embeddings (research's relevance margin reads it); not part of Claude's answer schema.
    similarity: SkipJsonSchema[float | None] = None


class ConflictSide(BaseModel):
    """One source of a conflict (or another source on the same hypothesis) and its stance."""

    source_id: str
    stance: ResearchStance
    confidence: float = Field(ge=0.0, le=1.0)
    text: str
    title: str = ""
    origin: str = ""
    kind: str = "corpus"
    published: date | None = None


class ConflictRequest(BaseModel):
    """Two sources that disagree about a hypothesis, and what the other sources say."""

    hypothesis: str
    first: ConflictSide
    second: ConflictSide
    others: list[ConflictSide] = Field(default_factory=list)


class ConflictResolution(Judgement):
    """Which source to trust, on what basis, or why neither can be preferred."""

    outcome: Literal["first", "second", "unresolvable"]
    basis: Literal["date", "authority", "agreement", "content", "none"] = Field(
        description="date: the newer source; authority: the more authoritative source; "
        "agreement: the side the other sources agree with; content: one passage is plainly "
        "more specific or reliable; none: unresolvable"
    )
    reason: str = Field(min_length=1, description="why, in one or two sentences")


class SynthesisSource(BaseModel):
    number: int = Field(ge=1, description="cite it as [number]")
    title: str
    origin: str
    text: str


class SynthesisHypothesis(BaseModel):
    statement: str
    status: str
    confidence: float
    supporting: list[int] = Field(default_factory=list, description="source numbers")
    contradicting: list[int] = Field(default_factory=list, description="source numbers")
    failed_sources: list[str] = Field(
        default_factory=list,
        description="sources that failed in its searches: its status rests on the others",
    )


class SynthesisConflict(BaseModel):
    hypothesis: str
    status: str
    resolution: str | None = None
    sources: list[int] = Field(default_factory=list)


class SynthesisRequest(BaseModel):
    """Everything an investigation established, for its report."""

    question: str
    verdict: str
    hypotheses: list[SynthesisHypothesis]
    sources: list[SynthesisSource]
    conflicts: list[SynthesisConflict] = Field(default_factory=list)
    sources_asked: list[str] = Field(
        default_factory=list, description="the research sources the investigation searched"
    )
    failed_sources: list[str] = Field(
        default_factory=list,
        description="sources (or `<source>/<part>`) that failed in its searches: the verdict "
        "rests on the sources that answered, and must say so",
    )

    def failure_note(self) -> str:
        """``"1 of 3 sources failed: tools"`` (``""`` when none did): a verdict reached while
        sources failed is not one reached on all of them."""
        return sources_failed_text(self.sources_asked, self.failed_sources)


def sources_failed_text(asked: list[str], failed: list[str]) -> str:
    """How many of the sources ``asked`` failed and which (``failed`` names a source or a part
    of one, ``<source>/<part>``); ``""`` when none did."""
    if not failed:
        return ""
    failing = list(dict.fromkeys(name.split("/", 1)[0] for name in failed))
    total = len(dict.fromkeys([*asked, *failing]))
    return f"{len(failing)} of {total} source(s) failed: {', '.join(failed)}"


class Synthesis(Judgement):
    """The investigation's report."""

    report: str = Field(
        min_length=1,
        description="markdown: the answer, the evidence for and against, the conflicts and how "
        "they were resolved, citing sources as [n]",
    )


class Reasoner(Protocol):
    name: str

    async def appraise(self, request: AppraisalRequest) -> Appraisal:
        """Face threat, urgency, uncertainty and the recommended approach for a turn."""
        ...

    async def extract_evidence(self, request: EvidenceRequest) -> ExtractedEvidence:
        """The claims of a turn and their stance towards the beliefs given."""
        ...

    async def classify_stance(self, request: StanceRequest) -> StanceJudgement:
        """Whether a claim reinforces, contradicts, is neutral to, or is novel to a statement."""
        ...

    async def revise(self, request: RevisionRequest) -> RevisedBelief:
        """Proposes the revised belief for one at the threshold."""
        ...

    async def propose_work_unit(self, request: WorkRequest) -> WorkUnit:
        """The work unit a request asks for."""
        ...

    async def verify(self, request: VerifyRequest) -> Verification:
        """Checks an executed work unit: proceed, retry or escalate."""
        ...

    async def audit(self, request: AuditRequest) -> Audit:
        """Tier-3 audit of a high-risk request against the creed."""
        ...

    async def abstract_rule(self, request: RuleRequest) -> AbstractedRule:
        """A heuristic abstracted from a cluster of similar episodes."""
        ...

    async def respond(self, request: ResponseRequest) -> Reply:
        """The turn's answer to the person."""
        ...

    async def propose_hypotheses(self, request: HypothesesRequest) -> ProposedHypotheses:
        """Testable hypotheses for a research question."""
        ...

    async def judge_passage(self, request: PassageRequest) -> PassageJudgement:
        """Whether a passage supports, contradicts or is neutral to a hypothesis."""
        ...

    async def resolve_conflict(self, request: ConflictRequest) -> ConflictResolution:
        """Which of two disagreeing sources to trust, or why neither can be preferred."""
        ...

    async def choose_tool(self, request: ToolChoiceRequest) -> ToolChoice:
        """The tool call a message asks for among the agent's tools, if any."""
        ...

    async def synthesize(self, request: SynthesisRequest) -> Synthesis:
        """The markdown report of an investigation, citing its sources."""
        ...
