"""The graph client retries a transaction that fails with a transient error (a deadlock) and
gives up after its retry time, as GraphBusy (503 graph_busy); other errors are not retried."""

from __future__ import annotations

from typing import Any

import pytest
from neo4j import Bookmarks
from neo4j import exceptions as neo4j_errors

from app.errors import GraphBusy, GraphError, GraphUnavailable, InvalidInput
from app.graph.catalog import default_catalog
from app.graph.client import GraphClient, Transaction, translated_driver_errors


def _deadlock() -> neo4j_errors.Neo4jError:
    return neo4j_errors.Neo4jError._hydrate_neo4j(
        code="Neo.TransientError.Transaction.DeadlockDetected", message="deadlock"
    )


class _Session:
    def __init__(self, outcomes: list[Any]) -> None:
        self._outcomes = outcomes

    async def __aenter__(self) -> _Session:
        return self

    async def __aexit__(self, *_: object) -> None:
        return None

    async def execute_write(self, work: Any) -> Any:
        """An error outcome fails the attempt; any other commits: the work runs (on no driver
        transaction: the work of these tests touches none) and its result is returned."""
        outcome = self._outcomes.pop(0)
        if isinstance(outcome, Exception):
            raise outcome
        return await work(None)

    async def run(self, query: str, params: dict[str, Any]) -> _Rows:
        """A query run alone (``GraphClient.read``, ``write_alone``): its rows, or its error."""
        outcome = self._outcomes.pop(0)
        if isinstance(outcome, Exception):
            raise outcome
        return _Rows(outcome)

    async def last_bookmarks(self) -> Bookmarks:
        return Bookmarks.from_raw_values(["FB:test"])


class _Record:
    def __init__(self, row: dict[str, Any]) -> None:
        self._row = row

    def keys(self) -> list[str]:
        return list(self._row)

    def values(self) -> list[Any]:
        return list(self._row.values())


class _Rows:
    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self._rows = [_Record(row) for row in rows]

    def __aiter__(self) -> _Rows:
        return self

    async def __anext__(self) -> _Record:
        if not self._rows:
            raise StopAsyncIteration
        return self._rows.pop(0)


class _Driver:
    def __init__(self, outcomes: list[Any]) -> None:
        self.outcomes = outcomes
        self.sessions = 0

    def session(
        self,
        database: str,
        bookmarks: Bookmarks | None = None,
        default_access_mode: str | None = None,
    ) -> _Session:
        self.sessions += 1
        return _Session(self.outcomes)


async def _work(tx: Transaction) -> str:
    return "the work's result"


def _client(outcomes: list[Any], retry_s: float) -> tuple[GraphClient, _Driver]:
    driver = _Driver(outcomes)
    return GraphClient(driver, "neo4j", default_catalog(), retry_s), driver  # type: ignore[arg-type]  # a fake neo4j driver


async def test_a_deadlock_is_retried_until_the_transaction_commits() -> None:
    client, driver = _client([_deadlock(), _deadlock(), "committed"], retry_s=10.0)

    assert await client.write_transaction(_work) == "the work's result"
    assert driver.sessions == 3


async def test_retries_end_after_the_retry_time_as_graph_busy() -> None:
    client, driver = _client([_deadlock() for _ in range(100)], retry_s=0.3)

    with pytest.raises(GraphBusy) as raised:
        await client.write_transaction(_work, action="writing evidence")

    assert raised.value.code == "graph_busy"
    assert 2 <= driver.sessions < 100


async def test_other_errors_are_not_retried() -> None:
    failure = neo4j_errors.Neo4jError._hydrate_neo4j(
        code="Neo.ClientError.Statement.SyntaxError", message="bad"
    )
    client, driver = _client([failure, "committed"], retry_s=10.0)

    with pytest.raises(GraphError):
        await client.write_transaction(_work)
    assert driver.sessions == 1


def _database_unavailable() -> neo4j_errors.Neo4jError:
    return neo4j_errors.Neo4jError._hydrate_neo4j(
        code="Neo.TransientError.General.DatabaseUnavailable", message="database is starting"
    )


async def test_a_database_that_is_starting_is_retried_briefly() -> None:
    client, driver = _client([_database_unavailable(), "committed"], retry_s=10.0)

    assert await client.write_transaction(_work) == "the work's result"
    assert driver.sessions == 2


async def test_a_database_that_stays_unavailable_fails_fast_as_graph_unavailable() -> None:
    """Not the long retry of a deadlock: a request must not hang through a Neo4j restart."""
    driver = _Driver([_database_unavailable() for _ in range(1000)])
    client = GraphClient(driver, "neo4j", default_catalog(), 30.0, unavailable_retry_s=0.3)  # type: ignore[arg-type]  # a fake neo4j driver
    with pytest.raises(GraphUnavailable) as raised:
        await client.write_transaction(_work, action="writing a belief")

    assert raised.value.code == "graph_unavailable"
    assert "writing a belief" in str(raised.value)
    # It gave up within its short window, long before the failures ran out (no wall-clock bound).
    assert 2 <= driver.sessions < 1000
    assert 2 <= driver.sessions < 1000


def _unreachable() -> neo4j_errors.ServiceUnavailable:
    return neo4j_errors.ServiceUnavailable("connection refused")


async def test_a_query_run_alone_is_retried_on_a_deadlock_and_a_lost_connection() -> None:
    """A read (one auto-commit query) has no driver retries: the client's cover a deadlock and,
    briefly, a lost connection, as a managed transaction's do."""
    rows = [{"id": "a"}]
    client, driver = _client([_deadlock(), _unreachable(), rows], retry_s=10.0)

    assert await client.read("graph/agent_scope/agent_exists", agent_id="a") == rows
    assert driver.sessions == 3


async def test_a_write_alone_that_stays_unreachable_fails_fast_as_graph_unavailable() -> None:
    driver = _Driver([_unreachable() for _ in range(1000)])
    client = GraphClient(driver, "neo4j", default_catalog(), 30.0, unavailable_retry_s=0.3)  # type: ignore[arg-type]  # a fake neo4j driver
    with pytest.raises(GraphUnavailable):
        await client.write_alone("graph/agent_scope/lock_agent", agent_id="a")

    assert 2 <= driver.sessions < 1000


async def test_a_type_error_from_neo4j_is_a_422_with_its_entry() -> None:
    """Every 422 carries its entries (docs/api.md "Error entries"): Neo4j's type error, whose
    place in the request is not known here, is located at the input as a whole."""
    error = neo4j_errors.Neo4jError._hydrate_neo4j(
        code="Neo.ClientError.Statement.TypeError", message="Expected a Float, got: String(x)"
    )
    assert isinstance(error, neo4j_errors.CypherTypeError)
    with pytest.raises(InvalidInput) as refused:
        async with translated_driver_errors("updating a belief"):
            raise error
    assert refused.value.details["errors"] == [
        {
            "location": [],
            "message": "a value had the wrong type while updating a belief: "
            "Expected a Float, got: String(x)",
            "type": "wrong_type",
        }
    ]
