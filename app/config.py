"""Settings, read from the environment (prefix ``CREDENCE_``) and an optional ``.env`` file."""

from __future__ import annotations

import re
from datetime import datetime
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
)
from pydantic_settings import BaseSettings, SettingsConfigDict
from pydantic_settings.exceptions import SettingsError

from app.agents.settings import EnrichmentSettings
from app.beliefs.mechanics import Mechanics
from app.embeddings.settings import EmbeddingSettings
from app.errors import InvalidSettings
from app.graph.settings import MigrationSettings, Neo4jSettings
from app.guardian.settings import GuardianSettings
from app.loop.settings import LoopSettings
from app.memory.settings import MemoryMechanics, ReflectionSettings
from app.reasoning.settings import ReasonerSettings
from app.research.settings import ResearchSettings
from app.retrieval.settings import RetrievalSettings
from app.scheduler.settings import SchedulerSettings
from app.tools.settings import ToolSettings

LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
MEBIBYTE = 1024 * 1024
ENV_PREFIX = "CREDENCE_"
NESTED_DELIMITER = "__"


def _upper(value: Any) -> Any:
    return value.strip().upper() if isinstance(value, str) else value


# logging's and uvicorn's names; any case is read (`debug` made logging refuse to start).
LogLevel = Annotated[
    Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"], BeforeValidator(_upper)
]


class ApiLimits(BaseModel):
    """How much one request may carry (``CREDENCE_API__MAX_BODY_BYTES=...``): a larger body is
    refused with 413 ``body_too_large`` before it is read, authenticated or parsed."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    max_body_bytes: Annotated[int, Field(ge=1024)] = 2 * MEBIBYTE
    """The largest request body, WebSocket message and MCP request (bytes)."""
    # Up to 1,000 episodes of 20,000 characters, or 10,000,000 characters of files, in one
    # request.
    max_upload_body_bytes: Annotated[int, Field(ge=1024)] = 64 * MEBIBYTE
    """The largest body of the bulk uploads: an episode import, research source files (bytes)."""


class Settings(BaseSettings):
    """Every tunable of Credence. ``.env.example`` lists them all with their defaults; it is
    generated from these models and their field docstrings (tools/settings/env_example.py)."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        env_file=".env",
        extra="ignore",
        env_nested_delimiter=NESTED_DELIMITER,
        use_attribute_docstrings=True,
    )

    neo4j_uri: str = "bolt://127.0.0.1:7687"
    """Where Neo4j answers Bolt."""
    neo4j_user: str = "neo4j"
    """The Neo4j user."""
    neo4j_password: SecretStr = SecretStr("credence-dev")
    """The Neo4j password; also the initial one of the local launcher and of docker compose."""
    neo4j_database: str = "neo4j"
    """The Neo4j database."""
    neo4j_connection_timeout_s: Annotated[float, Field(gt=0)] = 10.0
    """Seconds the driver waits to connect."""
    neo4j_max_pool_size: Annotated[int, Field(ge=1)] = 50
    """The most connections the driver keeps open."""
    # Transient errors are deadlocks under contention, lock timeouts, leader switches.
    neo4j_transaction_retry_s: Annotated[float, Field(gt=0, le=300)] = 30.0
    """Seconds a managed transaction is retried on transient errors; after that the request
    gets 503 graph_busy with Retry-After."""

    api_host: str = "127.0.0.1"
    """The address the API listens on."""
    api_port: Annotated[int, Field(ge=1, le=65535)] = 8000
    """The port the API listens on."""
    api_keys: dict[str, list[str]] = Field(
        default_factory=dict,
        examples=[{"change-me-admin-key": ["*"], "change-me-agent-key": ["<agent id>"]}],
    )
    """API key -> the agent ids it may touch ("*": every agent), as JSON; with no keys the server
    listens on loopback only."""
    # Only for a container whose published port is itself bound to loopback (docker-compose.yml).
    api_allow_open_bind_without_keys: bool = False
    """Listen on a non-loopback address without API keys."""
    api: ApiLimits = Field(default_factory=ApiLimits)
    """Request size limits"""
    migrate_on_start: bool = True
    """Apply pending schema migrations when the API starts."""

    migrations_lock_timeout_s: Annotated[float, Field(gt=0)] = 60.0
    """Seconds a migration run waits for another run's lock."""
    migrations_lock_stale_after_s: Annotated[float, Field(gt=0)] = 600.0
    """A migration lock older than this many seconds (its process died) is taken over."""
    migrations_index_online_timeout_s: Annotated[float, Field(gt=0)] = 300.0
    """Seconds a migration run waits for new indexes to come online."""

    log_level: LogLevel = "INFO"
    """The log level (DEBUG, INFO, WARNING, ERROR)."""
    # Counting costs ~15 µs per request, measured (docs/operations.md, "Metrics").
    metrics_enabled: bool = True
    """Prometheus metrics at /metrics (route templates and counts, no agent data)."""

    default_agent: str = "Credence"
    """The agent `make run` and `docker compose up` start with, born once (every shipped pack)
    when the API starts and no agent has this name (empty: none)."""
    default_agent_industry: str = "accounting"
    """The industry the default agent is born into: one an installed pack serves (another leaves
    the default agent unborn, the reason logged)."""

    # For tests, demos and replays; unset in production.
    clock_start: datetime | None = Field(default=None, examples=["2026-11-30T09:00:00Z"])
    """Run the process's clock from this instant (ISO 8601) instead of the system's: the loop,
    working memory's period-end contexts and the session sweep follow it."""

    mechanics: Mechanics = Field(default_factory=Mechanics)
    """The cognitive mechanics (docs/beliefs.md §10)"""
    embeddings: EmbeddingSettings = Field(default_factory=EmbeddingSettings)
    """Embeddings (docs/architecture.md §5)"""
    retrieval: RetrievalSettings = Field(default_factory=RetrievalSettings)
    """Relevance retrieval, the context API's ranking (docs/retrieval.md)"""
    memory: MemoryMechanics = Field(default_factory=MemoryMechanics)
    """People, working memory, rules and capabilities (docs/memory.md)"""
    reasoner: ReasonerSettings = Field(default_factory=ReasonerSettings)
    """Reasoners: Claude when a key is set, else offline (docs/loop.md §12)"""
    loop: LoopSettings = Field(default_factory=LoopSettings)
    """The cognitive loop (docs/loop.md)"""
    guardian: GuardianSettings = Field(default_factory=GuardianSettings)
    """The guardian (docs/loop.md §5)"""
    reflection: ReflectionSettings = Field(default_factory=ReflectionSettings)
    """Reflection and consolidation (docs/memory.md)"""
    research: ResearchSettings = Field(default_factory=ResearchSettings)
    """Research mode: investigations"""
    tools: ToolSettings = Field(default_factory=ToolSettings)
    """Connected MCP servers and their tools (docs/loop.md §13)"""
    scheduler: SchedulerSettings = Field(default_factory=SchedulerSettings)
    """Background work between turns, claimed with a lease in the graph (docs/loop.md §14)"""
    enrichment: EnrichmentSettings = Field(default_factory=EnrichmentSettings)
    """Enrichment at birth: the directory MCP server asked for the principal (docs/packs.md §4)"""

    @field_validator("api_keys")
    @classmethod
    def _keys_are_sendable(cls, keys: dict[str, list[str]]) -> dict[str, list[str]]:
        """A blank key would let in every client sending an empty X-API-Key; a key with spaces
        or a control character at either end can never match one (HTTP strips them)."""
        for key in keys:
            if not key.strip():
                raise ValueError(
                    "an API key is empty: every client sending an empty X-API-Key would be let in"
                )
            if key != key.strip():
                raise ValueError(
                    f"the API key starting {key[:4]!r} has spaces or a control "
                    "character at an end: no X-API-Key header can carry it"
                )
        return keys

    @property
    def neo4j(self) -> Neo4jSettings:
        """The graph client's settings (the flat ``CREDENCE_NEO4J_*`` variables)."""
        return Neo4jSettings(
            uri=self.neo4j_uri,
            user=self.neo4j_user,
            password=self.neo4j_password,
            database=self.neo4j_database,
            connection_timeout_s=self.neo4j_connection_timeout_s,
            max_pool_size=self.neo4j_max_pool_size,
            transaction_retry_s=self.neo4j_transaction_retry_s,
        )

    @property
    def migrations(self) -> MigrationSettings:
        """The migration runner's waits (``CREDENCE_MIGRATIONS_*``)."""
        return MigrationSettings(
            lock_timeout_s=self.migrations_lock_timeout_s,
            lock_stale_after_s=self.migrations_lock_stale_after_s,
            index_online_timeout_s=self.migrations_index_online_timeout_s,
        )


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings, read once.

    Raises:
        InvalidSettings: a value that does not parse or fit, naming its environment variable.
    """
    try:
        return Settings()
    except ValidationError as error:
        problems = [(_variable(entry["loc"]), entry["msg"]) for entry in error.errors()]
    except SettingsError as error:  # a JSON-valued setting that is not JSON
        found = re.search(r'field "(\w+)"', str(error))
        problems = [(_variable((found.group(1),) if found else ()), "not valid JSON")]
    variables = list(dict.fromkeys(variable for variable, _ in problems))
    summary = "; ".join(f"{variable}: {message}" for variable, message in problems)
    raise InvalidSettings(f"invalid settings: {summary}", variables=variables)


def _variable(location: tuple[int | str, ...]) -> str:
    """The environment variable of a setting's error location: nested settings models joined
    by ``__`` (``("api", "max_body_bytes")``: ``CREDENCE_API__MAX_BODY_BYTES``); what lies
    inside a value (a key of ``api_keys``, an item of a list) is not part of the name."""
    names: list[str] = []
    model: type[BaseModel] | None = Settings
    for part in location:
        if model is None or not isinstance(part, str) or part not in model.model_fields:
            break
        names.append(part)
        annotation = model.model_fields[part].annotation
        model = (
            annotation
            if isinstance(annotation, type) and issubclass(annotation, BaseModel)
            else None
        )
    return ENV_PREFIX + NESTED_DELIMITER.join(names).upper() if names else "settings"
