"""An agent as the API and the services see it, and the request that creates (or births) one."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.common import not_blank
from app.memory.people.models import Email, Person
from app.packs.loader import PackLoadReport


class BirthProfile(BaseModel):
    """Who the agent is born to work for."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    name: Annotated[str, Field(min_length=1, max_length=200, description="The principal's name")]
    # The principal's Person is created from these: the same rules, refused at the request.
    email: Email | None = None
    role: Annotated[str, Field(min_length=1, max_length=120)] = "unknown"
    seniority: Annotated[
        str,
        Field(pattern=r"^(entry|junior|senior|manager|director|vp|c_suite|unknown)$"),
    ] = "unknown"
    company: Annotated[str | None, Field(max_length=200)] = None
    industry: Annotated[str, Field(min_length=1, max_length=80, pattern=r"^[a-z0-9_]+$")] = (
        "accounting"
    )


class AgentCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Annotated[str, Field(min_length=1, max_length=200)]
    identity_goal: Annotated[str | None, Field(max_length=2000)] = None
    profile: BirthProfile | None = Field(
        default=None, description="With a profile: full birth (creed, packs, principal...)."
    )
    packs: list[Annotated[str, Field(min_length=1, max_length=80)]] | None = Field(
        default=None,
        description="Packs to load at full birth (default: the base packs and the industry's).",
    )
    enrich: bool = Field(default=True, description="Ask the enrichment provider first.")

    _check = field_validator("name")(not_blank)


class Agent(BaseModel):
    id: str
    name: str
    identity_goal: str | None = None
    terminal_creed: list[str] = Field(default_factory=list)
    birth_source: str
    principal_id: str | None = None
    industry: str | None = None
    created_at: datetime
    beliefs: int = 0
    revisions: int = 0


class AgentSummary(BaseModel):
    """One agent in a list: who it is and how much it holds."""

    id: str
    name: str
    birth_source: str | None = None
    industry: str | None = None
    created_at: datetime | None = None  # None only for an Agent node written by hand
    beliefs: int = Field(description="active beliefs")
    episodes: int


class AgentPage(BaseModel):
    data: list[AgentSummary]
    count: int = Field(description="every agent the caller may see, all pages")


class AgentDeletion(BaseModel):
    """What deleting an agent removed."""

    agent_id: str
    nodes_deleted: int = Field(description="every node of the agent, the Agent node included")
    batches: int


class BirthDetails(BaseModel):
    """What a full birth did."""

    principal: Person | None = None
    packs: list[PackLoadReport] = Field(default_factory=list)
    frames: int = 0
    censors: int = 0
    capabilities: int = 0
    knowledge_gaps: int = 0
    embedded: bool = True
    degraded: str | None = None
    enriched_by: str | None = None
    ms: float = 0.0


class BornAgent(Agent):
    birth: BirthDetails | None = None
