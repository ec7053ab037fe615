"""An agent as the API and the services see it, and the request that creates (or births) one."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StrictBool, field_validator, model_validator

from app.agents.settings import EnrichmentTransport
from app.common import StrictNumber, not_blank
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


class EnrichmentSource(BaseModel):
    """The directory (people-search) MCP server a birth asks: stdio (``command``, ``args``,
    ``cwd``) or streamable HTTP (``url``), and the tool to call (docs/packs.md §4)."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    transport: EnrichmentTransport = "stdio"
    command: Annotated[str | None, Field(min_length=1, max_length=1000)] = None
    args: list[Annotated[str, Field(max_length=4000)]] = Field(default_factory=list, max_length=64)
    cwd: Annotated[str | None, Field(min_length=1, max_length=1000)] = None
    url: Annotated[str | None, Field(pattern=r"^https?://", max_length=2000)] = None
    tool: Annotated[str, Field(min_length=1, max_length=128)] = Field(
        default="lookup_person", description="The tool called with email, name and company."
    )
    timeout_s: Annotated[StrictNumber | None, Field(gt=0.0, le=600.0)] = Field(
        default=None,
        description="Seconds the enrichment may take (default CREDENCE_ENRICHMENT__TIMEOUT_S).",
    )

    @model_validator(mode="after")
    def _fits_transport(self) -> EnrichmentSource:
        if self.transport == "stdio" and (self.command is None or self.url is not None):
            raise ValueError("a stdio directory server takes command (and args, cwd), not url")
        if self.transport == "http" and (self.url is None or self.command is not None):
            raise ValueError("an http directory server takes url, not command")
        return self


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
    # False by default: an agent is created without a directory unless one is asked for.
    enrich: StrictBool = Field(
        default=False,
        description="Ask a directory server (``enrichment``, else CREDENCE_ENRICHMENT__*) for "
        "the principal and the people around them first; true without one is a 422.",
    )
    enrichment: EnrichmentSource | None = Field(
        default=None,
        description="The directory MCP server to ask at birth (implies enrich; needs a profile).",
    )

    @field_validator("name")
    @classmethod
    def _one_line(cls, name: str) -> str:
        # A name is one line, as a person's is (app/memory/people/store.py): the identity
        # document (Claude's system prompt) opens with it as its title, where a line break
        # would start sections of its own.
        return " ".join(str(not_blank(name)).split())

    @model_validator(mode="after")
    def _packs_with_a_profile(self) -> AgentCreate:
        if self.packs and self.profile is None:  # an empty list asks for none: fine
            raise ValueError(
                "packs are loaded at a full birth: give a profile with them, or load them "
                "after creation (POST /v1/agents/{agent_id}/packs/{name}/load)"
            )
        return self

    @model_validator(mode="after")
    def _enrichment_fits(self) -> AgentCreate:
        if self.enrichment is not None:
            if "enrich" in self.model_fields_set and not self.enrich:
                raise ValueError("enrichment names a directory server but enrich is false")
            self.enrich = True
        return self


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


class EnrichmentReport(BaseModel):
    """What the directory server gave a birth (docs/packs.md §4)."""

    provider: str = Field(description="The directory server and tool asked (server.tool).")
    found: bool = Field(description="Whether the directory knew the principal.")
    filled: list[str] = Field(
        default_factory=list, description="The profile fields the directory filled in."
    )
    people: list[Person] = Field(
        default_factory=list, description="The people written beside the principal."
    )
    reporting_lines: int = Field(default=0, description="REPORTS_TO edges written.")
    ignored: list[str] = Field(
        default_factory=list,
        description="What the directory offered that the birth left out, each with why (an "
        "industry no installed pack serves).",
    )
    ms: float = 0.0


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
    enrichment: EnrichmentReport | None = None
    ms: float = 0.0


class BornAgent(Agent):
    birth: BirthDetails | None = None
