"""The graph layer's own settings: how to reach Neo4j and how migrations wait.

``app.config.Settings`` reads them from the environment (``CREDENCE_NEO4J_URI``, ...) and hands
them down, so the graph layer never imports the settings of the layers above it.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, SecretStr


class Neo4jSettings(BaseModel):
    """Where Neo4j is and how the driver talks to it."""

    model_config = ConfigDict(frozen=True)

    uri: str = "bolt://127.0.0.1:7687"
    user: str = "neo4j"
    password: SecretStr = SecretStr("credence-dev")
    database: str = "neo4j"
    connection_timeout_s: Annotated[float, Field(gt=0)] = 10.0
    max_pool_size: Annotated[int, Field(ge=1)] = 50


class MigrationSettings(BaseModel):
    """How long a migration run waits for the lock and for new indexes."""

    model_config = ConfigDict(frozen=True)

    lock_timeout_s: Annotated[float, Field(gt=0)] = 60.0
    lock_stale_after_s: Annotated[float, Field(gt=0)] = 600.0
    index_online_timeout_s: Annotated[float, Field(gt=0)] = 300.0
