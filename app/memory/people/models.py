"""The models of people: what the API takes and returns, and what the services return."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, field_validator

from app.common import StrictModel, StrictNumber, StrictUnit, not_blank, one_line
from app.memory.settings import Seniority

KnowledgeLevel = Literal["unknown", "novice", "intermediate", "expert"]
DomainLevel = Literal["novice", "intermediate", "expert"]
TrustCause = Literal["correction", "approval", "rejection", "edit"]
AnswerDepth = Literal["brief", "standard", "detailed"]
BirthSource = Literal["full", "micro", "api", "enrichment"]
PersonSort = Literal["relationship", "recent", "name"]
Valence = Annotated[StrictNumber, Field(ge=-1.0, le=1.0)]
PersonName = Annotated[str, Field(min_length=1, max_length=200)]
Email = Annotated[str, Field(max_length=320, pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$")]
Role = Annotated[str, Field(min_length=1, max_length=200)]
PreferenceKey = Annotated[str, Field(min_length=1, max_length=100)]
MAX_PREFERENCES = 50
# The most strings one preference's list holds.
MAX_PREFERENCE_ITEMS = 100
PreferenceValue = (
    Annotated[str, Field(max_length=1000)]
    | bool
    | Annotated[int, Field(ge=-(2**63), le=2**63 - 1)]  # what Neo4j stores as an integer
    | Annotated[float, Field(allow_inf_nan=False)]  # NaN and infinity have no JSON
    | Annotated[list[Annotated[str, Field(max_length=200)]], Field(max_length=MAX_PREFERENCE_ITEMS)]
)


def preference_kinds(preferences: Any) -> Any:
    """A ``preferences`` validator (before the values' own): each value is a string, number,
    boolean or list of at most ``MAX_PREFERENCE_ITEMS`` strings (or null in an edit), refused
    as one error naming its key rather than one per kind it is not."""
    if not isinstance(preferences, dict):
        return preferences
    for key, value in preferences.items():
        plain = value is None or isinstance(value, str | bool | int | float)
        if not plain and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            raise ValueError(
                f"preference {key!r} must be a string, a number, a boolean or a list of strings"
            )
        if isinstance(value, list) and len(value) > MAX_PREFERENCE_ITEMS:
            raise ValueError(
                f"preference {key!r} holds {len(value)} strings (at most {MAX_PREFERENCE_ITEMS})"
            )
    return preferences


class Affect(StrictModel):
    """How the person seems to feel: valence −1..1, arousal and stress 0..1."""

    valence: Valence = 0.0
    arousal: StrictUnit = 0.0
    stress: StrictUnit = 0.0


class AffectPatch(StrictModel):
    valence: Valence | None = None
    arousal: StrictUnit | None = None
    stress: StrictUnit | None = None


class PersonCreate(StrictModel):
    name: PersonName
    email: Email | None = None
    role: Role = "unknown"
    seniority: Seniority = "unknown"
    interaction_frequency: StrictUnit = 0.0
    # Someone added on purpose is taken as moderately relevant; micro-births start at 0.
    context_relevance: StrictUnit = 0.5
    trust: StrictUnit = 0.5
    affect: Affect = Field(default_factory=Affect)
    knowledge_level: KnowledgeLevel = "unknown"
    preferences: dict[PreferenceKey, PreferenceValue] = Field(
        default_factory=dict, max_length=MAX_PREFERENCES
    )

    _check_name = field_validator("name")(not_blank)
    _check_preferences = field_validator("preferences", mode="before")(preference_kinds)
    # A role is shown inside a line (Claude's system prompt, the CLI's people table).
    _one_line_role = field_validator("role")(one_line)


class PersonUpdate(StrictModel):
    """A partial edit. ``email: null`` clears the email; ``preferences`` is merged key by key
    (a key set to null is removed); authority follows ``seniority``."""

    name: PersonName | None = None
    email: Email | None = None
    role: Role | None = None
    seniority: Seniority | None = None
    interaction_frequency: StrictUnit | None = None
    context_relevance: StrictUnit | None = None
    trust: StrictUnit | None = None
    affect: AffectPatch | None = None
    knowledge_level: KnowledgeLevel | None = None
    preferences: dict[PreferenceKey, PreferenceValue | None] | None = Field(
        default=None, max_length=MAX_PREFERENCES
    )

    _check_preferences = field_validator("preferences", mode="before")(preference_kinds)
    _one_line_role = field_validator("role")(one_line)

    @field_validator(
        "name",
        "role",
        "seniority",
        "interaction_frequency",
        "context_relevance",
        "trust",
        "affect",
        "knowledge_level",
        "preferences",
    )
    @classmethod
    def _null_only_for_email(cls, value: Any) -> Any:
        # Only an explicit null reaches this (defaults are not validated): only email may be
        # cleared.
        if value is None:
            raise ValueError("may not be null (leave the field out to keep it)")
        if isinstance(value, str) and not value.strip():
            raise ValueError("must not be blank")
        return value


class PersonMerge(StrictModel):
    """Which person to merge into the one named in the path (that one keeps its id)."""

    other_id: str = Field(
        min_length=1, max_length=64, description="The person merged in, then deleted."
    )


class PersonAlias(StrictModel):
    """One more name that means the person (docs/memory.md §2): refused when another person of
    the agent has it as their name or alias."""

    name: PersonName

    _check_name = field_validator("name")(not_blank)


class DomainKnowledge(BaseModel):
    """What the person knows of one domain: a score in [0, 1] moved by their words (a novice's
    question toward 0, an expert's teaching toward 1), its level, and how many signals made it."""

    level: DomainLevel
    score: float
    signals: int
    updated_at: datetime | None = None


class TrustChange(BaseModel):
    """One move of the person's trust, with what moved it and why."""

    at: datetime
    cause: TrustCause
    before: float
    after: float
    delta: float
    reason: str
    # The episode (a correction), the approval (an approval or rejection), or null (an edit).
    ref: str | None = None


class InferredGoal(BaseModel):
    """What the person is working towards, inferred from their requests (the work asked for)."""

    goal: str
    verb: str | None = None
    count: int = 1
    last_at: datetime | None = None


class SuccessfulPattern(BaseModel):
    """What worked with the person: a turn's way of working (its frame, supervision mode, work
    verb and the depth of its answer) that ended in a success."""

    pattern: str
    frame: str
    mode: str
    verb: str | None = None
    depth: AnswerDepth = "standard"
    count: int = 1
    last_at: datetime | None = None


class Topic(BaseModel):
    """A topic of the person's turns (a subject their episodes mention), how many of their
    episodes mention it, and when last."""

    topic: str = Field(
        description='The word as their episodes say it most ("approvals"); the stem for '
        "episodes linked before word forms were kept."
    )
    stem: str = Field(
        description="The topic's key: a crude stem shared by the word's forms (\"approv\")."
    )
    count: int
    last_at: datetime | None = None


class Person(BaseModel):
    id: str
    agent_id: str
    name: str
    email: str | None = None
    role: str
    seniority: Seniority
    authority: float
    interaction_frequency: float
    interaction_count: int
    context_relevance: float
    relationship_value: float
    trust: float
    affect: Affect
    knowledge_level: KnowledgeLevel
    preferences: dict[str, Any]
    birth_source: BirthSource
    created_at: datetime | None = None
    last_seen: datetime | None = None
    # The user model the loop keeps (docs/memory.md §2): knowledge per domain, the latest trust
    # changes (newest first), inferred goals and successful patterns (most recent first).
    knowledge: dict[str, DomainKnowledge] = Field(default_factory=dict)
    trust_history: list[TrustChange] = Field(default_factory=list)
    inferred_goals: list[InferredGoal] = Field(default_factory=list)
    successful_patterns: list[SuccessfulPattern] = Field(default_factory=list)
    # Read from the graph (their episodes' subjects) by the person view; empty in lists.
    topics: list[Topic] = Field(default_factory=list)
    aliases: list[str] = Field(
        default_factory=list,
        description="Other names that mean this person (docs/memory.md §2), as written: the "
        "names of people merged into them and names given by hand. Used only when no person "
        "has that name.",
    )


class PersonPage(BaseModel):
    data: list[Person]
    count: int


class MicroBirth(BaseModel):
    person: Person
    created: bool


class AffectResult(BaseModel):
    person: Person
    frustration_cues: list[str]
    praise_cues: list[str]
    changed: bool


class Mention(BaseModel):
    """A name found in a text: a known person (with id) or a capitalised name not known yet."""

    name: str
    person_id: str | None = None
    known: bool
    start: int


class MetPerson(BaseModel):
    """A person met in a turn: found or micro-born, one interaction counted, affect read."""

    person: Person
    created: bool
    frustration_cues: list[str]
    praise_cues: list[str]
