"""The graph layer's own settings: how to reach Neo4j and how migrations wait.

``app.config.Settings`` reads and validates them from the environment (``CREDENCE_NEO4J_URI``,
``CREDENCE_MIGRATIONS_LOCK_TIMEOUT_S``, ...; the defaults live there) and hands them down, so the
graph layer never imports the settings of the layers above it.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import SecretStr


@dataclass(frozen=True, slots=True)
class Neo4jSettings:
    """Where Neo4j is and how the driver talks to it."""

    uri: str
    user: str
    password: SecretStr
    database: str
    connection_timeout_s: float
    max_pool_size: int
    # How long a managed transaction is retried on Neo4j's transient errors (deadlocks, lock
    # timeouts, leader switches) before the error reaches the caller.
    transaction_retry_s: float


@dataclass(frozen=True, slots=True)
class MigrationSettings:
    """How long a migration run waits for the lock and for new indexes."""

    lock_timeout_s: float
    lock_stale_after_s: float
    index_online_timeout_s: float
