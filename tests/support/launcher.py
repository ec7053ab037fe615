"""A second, small Neo4j run by tools/neo4j/neo4j-local in its own home on its own ports, so the
suite's server is untouched (the launcher's tests, the restart test)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.support.neo4j_server import LAUNCHER


class Launcher:
    def __init__(self, home: Path, bolt_port: int, http_port: int) -> None:
        self.env = {
            **os.environ,
            "CREDENCE_NEO4J_HOME": str(home),
            "CREDENCE_NEO4J_BOLT_PORT": str(bolt_port),
            "CREDENCE_NEO4J_HTTP_PORT": str(http_port),
            "CREDENCE_NEO4J_HEAP": "512m",
            "CREDENCE_NEO4J_PAGECACHE": "128m",
        }
        self.bolt_port = bolt_port
        self.http_port = http_port

    @property
    def uri(self) -> str:
        return f"bolt://127.0.0.1:{self.bolt_port}"

    def __call__(self, command: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["bash", str(LAUNCHER), command],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
