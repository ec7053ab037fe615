"""Domain models of the guardian: censors, tier-1 verdicts and the results of adding a censor."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field

from app.reasoning.protocol import Audit
from app.seeds.censor_patterns import PATTERN_MAX_LENGTH

CensorAction = Literal["warn", "block", "absolute"]
LearnedAction = Literal["warn", "block"]
CensorSource = Literal["default", "pack", "learned", "manual"]
VerdictAction = Literal["allow", "warn", "block", "absolute"]

# Gravity of a verdict: the gravest match decides.
GRAVITY: dict[str, int] = {"allow": 0, "warn": 1, "block": 2, "absolute": 3}


class CensorRule(BaseModel):
    """What tier 1 needs of one censor (a shipped default or a stored one)."""

    model_config = ConfigDict(frozen=True)

    id: str
    key: str | None = None
    pattern: str
    reason: str
    action: CensorAction
    source: CensorSource


class Censor(BaseModel):
    """A censor as listed and returned by the management functions."""

    id: str
    key: str | None = None
    pattern: str
    reason: str
    action: CensorAction
    source: CensorSource
    pack_name: str | None = None
    is_active: bool = True
    auto_created: bool = False
    session_key: str | None = None
    created_at: datetime | None = None
    deactivated_at: datetime | None = None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def removable(self) -> bool:
        """Absolute censors and the shipped defaults can never be removed."""
        return self.action != "absolute" and self.source != "default"


class CensorPage(BaseModel):
    data: list[Censor]
    count: int


class CensorCreate(BaseModel):
    """A censor a person adds (source ``manual``)."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    pattern: Annotated[
        str,
        Field(
            min_length=1,
            max_length=PATTERN_MAX_LENGTH,
            description="Python regular expression checked against inputs and proposed actions",
        ),
    ]
    reason: Annotated[str, Field(min_length=1, max_length=2000)]
    action: CensorAction = "warn"
    key: Annotated[
        str | None, Field(min_length=1, max_length=120, pattern=r"^[a-z0-9][a-z0-9_\-]*$")
    ] = None


class CensorAdded(BaseModel):
    """The outcome of adding a censor by hand or by learning."""

    status: Literal["created", "duplicate", "capped", "reactivated"]
    censor: Censor | None = Field(
        default=None, description="the new or the already present censor (none when capped)"
    )
    message: str

    @computed_field  # type: ignore[prop-decorator]
    @property
    def created(self) -> bool:
        return self.status == "created"


class CensorMatch(BaseModel):
    censor_id: str
    key: str | None = None
    pattern: str
    reason: str
    action: CensorAction
    source: CensorSource
    matched: str = Field(description="the text that fired (at most 120 characters)")


class Verdict(BaseModel):
    """Tier 1 on one text: the gravest matching censor decides the action."""

    action: VerdictAction
    reason: str = Field(description="why, in one sentence a person can read")
    matches: list[CensorMatch] = Field(default_factory=list, description="gravest first")
    censors_checked: int = 0
    skipped_invalid: list[str] = Field(
        default_factory=list, description="ids of stored censors whose pattern does not compile"
    )
    high_risk_kinds: list[str] = Field(
        default_factory=list, description="tier-3 kinds the text touches (audit against the creed)"
    )
    timed_out: list[str] = Field(
        default_factory=list,
        description="ids of censors that could not finish within the check's time limit (the "
        "verdict is then at least warn)",
    )
    audit: Audit | None = Field(
        default=None,
        description="the tier-3 audit against the creed, when asked for (``audit: true``): "
        "passed, risk, reason, concerns, the creed lines violated and a recommendation; a "
        "failed audit makes the verdict block",
    )

    @computed_field  # type: ignore[prop-decorator]
    @property
    def allowed(self) -> bool:
        return self.action in ("allow", "warn")
