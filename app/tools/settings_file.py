"""The connections file of a deployment (``CREDENCE_TOOLS__CONNECTIONS_FILE``, YAML)::

    connections:
      - agent: 3f0c…            # the agent's id
        name: ledger
        transport: stdio
        command: .venv-mcp/bin/mcp-server-sqlite
        args: ["--db-path", "/var/lib/credence/ledger.db"]
        env: {LEDGER_TOKEN: "…"}  # values stay in the process, never in the graph
      - agent: 3f0c…
        name: tools
        transport: http
        url: https://tools.example/mcp
        headers: {Authorization: "Bearer …"}
        search_tools: [search]    # read-only tools research may search (the source `tools`)

At API start every entry's secrets go into the process, and a connection the agent lacks is
created (its server started and its tools listed); one that exists is left as it is.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app.beliefs.mechanics import Mechanics
from app.clock import Clock
from app.embeddings.embedder import Embedder
from app.errors import CredenceError, InvalidInput
from app.graph.client import GraphClient
from app.tools.clients import McpClients
from app.tools.connections import add_connection
from app.tools.models import ConnectionCreate
from app.tools.settings import ToolSettings


class FileConnection(ConnectionCreate):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    agent: str = Field(min_length=1, max_length=64)


class ConnectionsFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    connections: list[FileConnection] = Field(default_factory=list)


def read_connections_file(path: Path) -> ConnectionsFile:
    """Raises: InvalidInput (unreadable, not YAML, or an entry that does not validate)."""
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        return ConnectionsFile.model_validate(raw)
    except (OSError, yaml.YAMLError) as error:
        raise InvalidInput(f"connections file {path}: {error}") from error
    except ValidationError as error:
        # Only where each problem is, never the input: it may hold secrets.
        problems = [
            {"location": list(problem["loc"]), "message": problem["msg"], "type": problem["type"]}
            for problem in error.errors(include_input=False, include_url=False)
        ]
        raise InvalidInput(f"connections file {path} is invalid", errors=problems) from error


async def apply_connections_file(
    graph: GraphClient,
    clients: McpClients,
    embedder: Embedder,
    mechanics: Mechanics,
    settings: ToolSettings,
    clock: Clock,
) -> list[str]:
    """Applies the file (connections created at ``clock``'s time); returns a line per entry
    (what became of it).

    Raises:
        InvalidInput: the file is invalid (nothing applied).
    """
    if settings.connections_file is None:
        return []
    parsed = read_connections_file(settings.connections_file)
    report: list[str] = []
    for entry in parsed.connections:
        data = ConnectionCreate.model_validate(entry.model_dump(exclude={"agent"}))
        existing = await graph.read(
            "tools/find_connection", agent_id=entry.agent, connection=data.name
        )
        clients.secrets.put(entry.agent, data.name, data.env, data.headers)
        if existing:
            report.append(f"{entry.agent}/{data.name}: exists (secrets loaded)")
            continue
        try:
            _, tools = await add_connection(
                graph, clients, embedder, mechanics, settings, entry.agent, data, now=clock.now()
            )
        except CredenceError as error:
            report.append(f"{entry.agent}/{data.name}: not connected: {error.message}")
            continue
        clients.secrets.put(entry.agent, data.name, data.env, data.headers)
        report.append(f"{entry.agent}/{data.name}: connected, {len(tools)} tools")
    return report
