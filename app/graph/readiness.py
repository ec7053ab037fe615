"""Is the graph ready to serve? Neo4j reachable and every migration applied unchanged."""

from __future__ import annotations

from dataclasses import dataclass

from app.errors import NotReady
from app.graph.client import GraphClient, ServerInfo
from app.graph.migrations import MigrationRunner


@dataclass(frozen=True, slots=True)
class Readiness:
    server: ServerInfo
    applied: int
    total: int


async def check_readiness(graph: GraphClient) -> Readiness:
    """Checks Neo4j and the schema.

    Raises:
        GraphUnavailable: Neo4j cannot be reached.
        NotReady: some migration is pending, changed or missing (listed in ``details``).
    """
    server = await graph.server_info()
    states = await MigrationRunner(graph).status()
    not_applied = {s.file: s.state for s in states if s.state != "applied"}
    if not_applied:
        raise NotReady(
            f"{len(not_applied)} of {len(states)} migrations are not applied; "
            "run `credence db migrate`",
            migrations=not_applied,
            neo4j_version=server.version,
        )
    return Readiness(server=server, applied=len(states), total=len(states))
