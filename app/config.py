"""Settings, read from the environment (prefix ``CREDENCE_``) and an optional ``.env`` file."""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from typing import Annotated

from pydantic import BaseModel, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from app.beliefs.mechanics import Mechanics
from app.embeddings.settings import EmbeddingSettings
from app.graph.settings import MigrationSettings, Neo4jSettings
from app.guardian.settings import GuardianSettings
from app.loop.settings import LoopSettings
from app.memory.settings import MemoryMechanics, ReflectionSettings
from app.reasoning.settings import ReasonerSettings
from app.research.settings import ResearchSettings
from app.retrieval.settings import RetrievalSettings
from app.tools.settings import ToolSettings

LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
MEBIBYTE = 1024 * 1024


class ApiLimits(BaseModel):
    """How much one request may carry (``CREDENCE_API__MAX_BODY_BYTES=...``): a larger body is
    refused with 413 ``body_too_large`` before it is read, authenticated or parsed."""

    # Every request body, WebSocket message and MCP request.
    max_body_bytes: Annotated[int, Field(ge=1024)] = 2 * MEBIBYTE
    # The bulk uploads (an episode import, research source files): up to 1,000 episodes of
    # 20,000 characters, or 10,000,000 characters of files, in one request.
    max_upload_body_bytes: Annotated[int, Field(ge=1024)] = 64 * MEBIBYTE


class Settings(BaseSettings):
    """Every tunable of Credence. See ``.env.example`` for the documented defaults."""

    model_config = SettingsConfigDict(
        env_prefix="CREDENCE_", env_file=".env", extra="ignore", env_nested_delimiter="__"
    )

    neo4j_uri: str = "bolt://127.0.0.1:7687"
    neo4j_user: str = "neo4j"
    neo4j_password: SecretStr = SecretStr("credence-dev")
    neo4j_database: str = "neo4j"
    neo4j_connection_timeout_s: Annotated[float, Field(gt=0)] = 10.0
    neo4j_max_pool_size: Annotated[int, Field(ge=1)] = 50
    # Managed transactions are retried on transient errors (deadlocks under contention) for at
    # most this long; after that the request gets 503 graph_busy with Retry-After.
    neo4j_transaction_retry_s: Annotated[float, Field(gt=0, le=300)] = 30.0

    api_host: str = "127.0.0.1"
    api_port: Annotated[int, Field(ge=1, le=65535)] = 8000
    # API key -> the agent ids it may touch ("*" = every agent). JSON in the environment:
    # CREDENCE_API_KEYS='{"k3y": ["*"]}'. With no keys the server listens on loopback only.
    api_keys: dict[str, list[str]] = Field(default_factory=dict)
    # Only for a container whose published port is itself bound to loopback (docker-compose.yml).
    api_allow_open_bind_without_keys: bool = False
    # Request size limits (CREDENCE_API__MAX_BODY_BYTES, CREDENCE_API__MAX_UPLOAD_BODY_BYTES).
    api: ApiLimits = Field(default_factory=ApiLimits)
    migrate_on_start: bool = True

    migrations_lock_timeout_s: Annotated[float, Field(gt=0)] = 60.0
    migrations_lock_stale_after_s: Annotated[float, Field(gt=0)] = 600.0
    migrations_index_online_timeout_s: Annotated[float, Field(gt=0)] = 300.0

    log_level: str = "INFO"
    # Prometheus metrics at /metrics (no agent data: route templates and counts). On by default:
    # counting costs ~15 µs per request, measured (README "Metrics").
    metrics_enabled: bool = True

    # The agent `make run` and `docker compose up` start with: born once (full birth, every
    # shipped pack) when the API starts and no agent has this name. Empty: none.
    default_agent: str = "Credence"
    default_agent_industry: str = "accounting"

    # Run the process's clock from this instant (ISO 8601, e.g. 2026-11-30T09:00:00Z) instead of
    # the system's: the loop, working memory's period-end contexts and the session sweep follow
    # it. For tests, demos and replays; empty in production.
    clock_start: datetime | None = None

    # The cognitive mechanics (docs/beliefs.md §10): CREDENCE_MECHANICS__REVISION_THRESHOLD=0.7, ...
    mechanics: Mechanics = Field(default_factory=Mechanics)
    # Embeddings (CREDENCE_EMBEDDINGS__MODEL=...), retrieval weights (CREDENCE_RETRIEVAL__RRF_K=60).
    embeddings: EmbeddingSettings = Field(default_factory=EmbeddingSettings)
    retrieval: RetrievalSettings = Field(default_factory=RetrievalSettings)
    # People, working memory, rules and capabilities (CREDENCE_MEMORY__MAX_ACTIVE_TASKS=4).
    memory: MemoryMechanics = Field(default_factory=MemoryMechanics)
    # Reasoners: Claude when a key is set (CREDENCE_REASONER__FAST_MODEL=...), else offline.
    reasoner: ReasonerSettings = Field(default_factory=ReasonerSettings)
    # The cognitive loop (CREDENCE_LOOP__APPROVAL_TTL_HOURS=72) and the guardian.
    loop: LoopSettings = Field(default_factory=LoopSettings)
    guardian: GuardianSettings = Field(default_factory=GuardianSettings)
    # Reflection and consolidation (CREDENCE_REFLECTION__SIMILARITY=0.6).
    reflection: ReflectionSettings = Field(default_factory=ReflectionSettings)
    # Research mode: investigations (CREDENCE_RESEARCH__DEFAULT_ITERATION_CAP=12).
    research: ResearchSettings = Field(default_factory=ResearchSettings)
    # Connected MCP servers and their tools (CREDENCE_TOOLS__CALL_TIMEOUT_S=30).
    tools: ToolSettings = Field(default_factory=ToolSettings)

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
    """The process-wide settings, read once."""
    return Settings()
