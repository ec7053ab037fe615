"""Finds a real Neo4j for the integration tests, in the order docs/architecture.md §7 gives:

1. ``NEO4J_URI`` (with ``NEO4J_USER`` / ``NEO4J_PASSWORD``) when set;
2. testcontainers, when a Docker engine answers, with the pinned image;
3. the ``tools/neo4j/neo4j-local`` launcher (Java 21+ and Maven).

When none works the caller fails the tests with :data:`HOW_TO_START`; they never skip.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
LAUNCHER = REPO_ROOT / "tools" / "neo4j" / "neo4j-local"
DEFAULT_PASSWORD = "credence-dev"

HOW_TO_START = (
    "No Neo4j could be reached or started for the integration tests. Do one of:\n"
    "  - run `make test` (it starts Neo4j itself), or `tools/neo4j/neo4j-local start` "
    "(needs a JDK 21+ and Maven);\n"
    "  - start Docker, so testcontainers can run the pinned neo4j image;\n"
    "  - point NEO4J_URI (and NEO4J_USER / NEO4J_PASSWORD) at a running Neo4j."
)


class Neo4jNotFound(RuntimeError):
    pass


@dataclass
class Neo4jTarget:
    uri: str
    user: str
    password: str
    how: str
    stop: Callable[[], None] = field(default=lambda: None)


def pinned_version() -> str:
    """The pinned Neo4j version: the neo4j image tag in docker-compose.yml."""
    text = (REPO_ROOT / "docker-compose.yml").read_text(encoding="utf-8")
    match = re.search(
        r"^\s*image:\s*\"?neo4j:(\d+\.\d+\.\d+)(?:-community)?\"?\s*$", text, re.MULTILINE
    )
    if match is None:
        raise Neo4jNotFound("docker-compose.yml has no 'image: neo4j:<version>-community' line")
    return match.group(1)


def docker_engine_answers() -> bool:
    try:
        return (
            subprocess.run(
                ["docker", "info"], capture_output=True, timeout=10, check=False
            ).returncode
            == 0
        )
    except (OSError, subprocess.TimeoutExpired):
        return False


def _from_environment() -> Neo4jTarget | None:
    uri = os.environ.get("NEO4J_URI")
    if not uri:
        return None
    return Neo4jTarget(
        uri=uri,
        user=os.environ.get("NEO4J_USER", "neo4j"),
        password=os.environ.get("NEO4J_PASSWORD", DEFAULT_PASSWORD),
        how="NEO4J_URI",
    )


def _from_testcontainers() -> Neo4jTarget:
    from testcontainers.neo4j import Neo4jContainer

    container = Neo4jContainer(f"neo4j:{pinned_version()}-community", password=DEFAULT_PASSWORD)
    container.with_env("NEO4J_db_query_default__language", "CYPHER_25")
    container.start()
    return Neo4jTarget(
        uri=container.get_connection_url(),
        user="neo4j",
        password=DEFAULT_PASSWORD,
        how="testcontainers",
        stop=container.stop,
    )


def _from_launcher() -> Neo4jTarget:
    completed = subprocess.run(
        ["bash", str(LAUNCHER), "start"], capture_output=True, text=True, timeout=900, check=False
    )
    if completed.returncode != 0:
        raise Neo4jNotFound(
            f"tools/neo4j/neo4j-local start failed:\n{completed.stdout}{completed.stderr}"
        )
    port = os.environ.get("CREDENCE_NEO4J_BOLT_PORT", "7687")
    return Neo4jTarget(
        uri=f"bolt://127.0.0.1:{port}",
        user="neo4j",
        password=os.environ.get("CREDENCE_NEO4J_PASSWORD", DEFAULT_PASSWORD),
        how="tools/neo4j/neo4j-local",
    )


def find_neo4j() -> Neo4jTarget:
    """A reachable Neo4j, started if needed.

    Raises:
        Neo4jNotFound: none of the three ways worked (the message says what each said).
    """
    target = _from_environment()
    if target is not None:
        return target
    problems: list[str] = []
    if docker_engine_answers():
        try:
            return _from_testcontainers()
        except Exception as error:  # any failure here means: try the next way
            problems.append(f"testcontainers: {error}")
    else:
        problems.append("testcontainers: no Docker engine answers")
    try:
        return _from_launcher()
    except (Neo4jNotFound, OSError, subprocess.TimeoutExpired) as error:
        problems.append(f"launcher: {error}")
    raise Neo4jNotFound(HOW_TO_START + "\n\nWhat was tried:\n" + "\n".join(problems))
