"""How the runner reads Neo4j's ``db.awaitIndexes`` failing (no database: a stand-in graph)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import pytest

from app.errors import GraphError, GraphUnavailable, MigrationFailed
from app.graph.client import GraphClient
from app.graph.migrations import MigrationFile, MigrationRunner

PROCEDURE_FAILED = "Neo.ClientError.Procedure.ProcedureCallFailed"
MIGRATION = MigrationFile(1, "indexes", Path("V0001__indexes.cypher"), "0" * 64)


class StandIn:
    """Answers the two queries of the wait: the await fails with ``error``, states are given."""

    def __init__(self, error: Exception | None, states: dict[str, str]) -> None:
        self.error = error
        self.states = states
        self.calls: list[tuple[str, dict[str, Any]]] = []

    async def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        self.calls.append((name, params))
        if name == "graph/migrations/await_indexes":
            if self.error is not None:
                raise self.error
            return []
        assert name == "graph/migrations/list_index_states"
        return [{"name": n, "state": s} for n, s in self.states.items()]


async def _wait(graph: StandIn, timeout_s: float = 2.5) -> None:
    runner = MigrationRunner(cast(GraphClient, graph), index_online_timeout_s=timeout_s)
    await runner._await_indexes_online(MIGRATION)


def _procedure_failed() -> GraphError:
    return GraphError(
        "Neo4j failed while graph/migrations/await_indexes: ...", neo4j_code=PROCEDURE_FAILED
    )


async def test_the_server_waits_with_the_timeout_in_whole_seconds() -> None:
    graph = StandIn(None, {})

    await _wait(graph, timeout_s=2.5)

    assert graph.calls == [("graph/migrations/await_indexes", {"timeout_s": 3})]


async def test_a_failed_index_is_named() -> None:
    graph = StandIn(_procedure_failed(), {"a": "ONLINE", "b": "FAILED", "c": "POPULATING"})

    with pytest.raises(MigrationFailed) as raised:
        await _wait(graph)

    assert raised.value.message == "after V0001__indexes.cypher these indexes FAILED: b"
    assert raised.value.details == {"file": "V0001__indexes.cypher", "indexes": ["b"]}


async def test_indexes_not_online_in_time_are_named_with_the_timeout() -> None:
    graph = StandIn(_procedure_failed(), {"a": "ONLINE", "b": "POPULATING", "c": "POPULATING"})

    with pytest.raises(MigrationFailed) as raised:
        await _wait(graph, timeout_s=4.0)

    assert raised.value.message == (
        "after V0001__indexes.cypher these indexes were not ONLINE within 4s: b, c"
    )
    assert raised.value.details["indexes"] == ["b", "c"]


async def test_indexes_online_by_the_time_the_wait_gave_up_are_fine() -> None:
    await _wait(StandIn(_procedure_failed(), {"a": "ONLINE"}))


@pytest.mark.parametrize(
    "error",
    [GraphUnavailable("Neo4j is not reachable"), GraphError("other", neo4j_code="Neo.X.Y.Z")],
)
async def test_other_errors_pass_through(error: GraphError) -> None:
    graph = StandIn(error, {"a": "FAILED"})

    with pytest.raises(type(error)) as raised:
        await _wait(graph)

    assert raised.value is error
    assert [name for name, _ in graph.calls] == ["graph/migrations/await_indexes"]
