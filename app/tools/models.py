"""What connections, tools and actions look like at the API's edge.

Secrets: a connection's environment values and header values are taken in (``env``,
``headers``), kept in the process (:class:`app.tools.clients.SecretStore`) and never written to
the graph, the events or the logs; the graph keeps only their names (``env_names``,
``header_names``). A name with no value held falls back to the server process's environment
variable of that name (stdio), so a deployment can keep them in its environment or in the
connections file.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, field_validator, model_validator

from app.beliefs.models import ContextStrength
from app.reasoning.protocol import ToolCall
from app.tools.calls import MAX_ARGUMENT_DEPTH, arguments_text, json_depth

ConnectionName = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_-]{0,39}$")]
Transport = Literal["stdio", "http"]
SecretName = Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_-]{0,127}$")]
ActionStatus = Literal[
    "pending",
    "running",
    "refused",
    "succeeded",
    "failed",
    "interrupted",
    "rejected",
    "not_executed",
]


class ConnectionCreate(BaseModel):
    """An MCP server to connect to the agent: stdio (``command``, ``args``, ``env``) or
    streamable HTTP (``url``, ``headers``)."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    name: ConnectionName = Field(description="How the agent names it (tools are name.tool).")
    transport: Transport
    command: Annotated[str | None, Field(min_length=1, max_length=1000)] = None
    args: list[Annotated[str, Field(max_length=4000)]] = Field(default_factory=list, max_length=64)
    env: dict[SecretName, Annotated[str, Field(max_length=8000)]] = Field(
        default_factory=dict,
        description="Environment of the server (values are secrets: kept in the process only).",
    )
    cwd: Annotated[str | None, Field(min_length=1, max_length=1000)] = None
    url: Annotated[str | None, Field(pattern=r"^https?://", max_length=2000)] = None
    headers: dict[SecretName, Annotated[str, Field(max_length=8000)]] = Field(
        default_factory=dict,
        description="HTTP headers (values are secrets: kept in the process only).",
    )
    search_tools: list[Annotated[str, Field(min_length=1, max_length=128)]] = Field(
        default_factory=list,
        max_length=64,
        description="Tools of this server that research may search (read-only ones: a tool "
        "that may destroy is refused).",
    )

    @model_validator(mode="after")
    def _fits_transport(self) -> ConnectionCreate:
        if self.transport == "stdio" and (self.command is None or self.url is not None):
            raise ValueError("a stdio connection takes command (and args, env, cwd), not url")
        if self.transport == "http" and (self.url is None or self.command is not None):
            raise ValueError("an http connection takes url (and headers), not command")
        return self


class ConnectionPublic(BaseModel):
    """A connection as the graph keeps it: secret names, never their values."""

    name: str
    transport: Transport
    command: str | None = None
    args: list[str] = Field(default_factory=list)
    cwd: str | None = None
    url: str | None = None
    env_names: list[str] = Field(default_factory=list)
    header_names: list[str] = Field(default_factory=list)
    tools: int = 0
    created_at: datetime | None = None


class ConnectionsPublic(BaseModel):
    data: list[ConnectionPublic]
    count: int


class ToolPublic(BaseModel):
    """A tool of a connected server, as the agent knows it."""

    name: str
    qualified_name: str = Field(description="connection.tool, as the agent calls it.")
    connection: str
    description: str = ""
    input_schema: dict[str, Any] = Field(default_factory=dict)
    read_only: bool = False
    destructive: bool = True
    idempotent: bool = False
    belief_id: str | None = Field(
        default=None, description="The agent's belief about the tool: supervision reads it."
    )
    belief_strength: float | None = Field(
        default=None,
        description="Its default (general) strength; a call routes on its strength in the call's "
        "context: strength_in_context.",
    )
    context: str | None = Field(
        default=None,
        description="The context strength_in_context is read in: the one asked for "
        "(?context=), else the one a call without a context takes now (the day's temporal "
        "context: month_end, quarter_end, year_end); null: none (the default strength).",
    )
    strength_in_context: float | None = Field(
        default=None,
        description="The strength supervision routes a call of the tool on in that context: "
        "the belief's HOLDS_IN strength for the context, else for its nearest fallback "
        "(acme/month_end → month_end), else its default strength; null when the tool has no "
        "active belief.",
    )
    context_applied: str | None = Field(
        default=None,
        description="The context whose HOLDS_IN strength applied (null: the default strength "
        "did, e.g. for a context the belief holds no strength in).",
    )
    contexts: list[ContextStrength] = Field(
        default_factory=list,
        description="Every context the belief holds its own strength in, by name.",
    )
    search_source: bool = Field(
        default=False, description="Research searches it beside the corpus and the graph."
    )
    successes: int = 0
    failures: int = 0


class ToolSearchFlag(BaseModel):
    """Whether research searches this tool (``PATCH .../connections/{name}/tools/{tool}``)."""

    model_config = ConfigDict(extra="forbid")

    search_source: StrictBool


class ToolsPublic(BaseModel):
    data: list[ToolPublic]
    count: int


# A turn's message is at most 8,000 characters (ChatRequest); a call's message is "call ",
# its qualified name (at most 169) and its arguments as JSON, so these fit in what is left.
ACTION_ARGUMENTS_MAX_CHARS = 7800


def bounded_arguments(value: dict[str, Any]) -> dict[str, Any]:
    """A call's arguments as a person sends them (``POST /actions``, an approval's modified
    call): at most ``MAX_ARGUMENT_DEPTH`` levels deep and ``ACTION_ARGUMENTS_MAX_CHARS``
    characters as JSON (a pydantic validator of ``arguments``).

    Raises:
        ValueError: they are deeper or longer.
    """
    if json_depth(value) > MAX_ARGUMENT_DEPTH:
        raise ValueError(f"must nest at most {MAX_ARGUMENT_DEPTH} levels deep")
    if len(arguments_text(value)) > ACTION_ARGUMENTS_MAX_CHARS:
        raise ValueError(f"must be at most {ACTION_ARGUMENTS_MAX_CHARS} characters written as JSON")
    return value


class ActionRequest(ToolCall):
    """``POST /actions``: a tool call asked for directly; it runs as a turn (guardian,
    supervision, approval, verification, learning), exactly as one a message asks for."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    speaker: Annotated[str | None, Field(min_length=1, max_length=200)] = None
    session: Annotated[str | None, Field(min_length=1, max_length=200)] = None

    _bounded = field_validator("arguments")(bounded_arguments)


class ActionPublic(BaseModel):
    """One tool call as the graph records it."""

    id: str
    connection: str
    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    status: ActionStatus
    mode: str | None = None
    duration_ms: float | None = None
    result: str | None = Field(default=None, description="A bounded summary of the result.")
    is_error: bool | None = None
    decision_id: str | None = None
    approval_id: str | None = None
    episode_id: str | None = None
    created_at: datetime | None = None
    completed_at: datetime | None = None


class ActionsPublic(BaseModel):
    data: list[ActionPublic]
    count: int
