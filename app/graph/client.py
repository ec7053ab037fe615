"""The graph client: one async driver per process, queries run by catalog name.

Every driver exception is translated here into the project's exception root, so nothing above
``app/graph`` needs to know the driver's error types.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, LiteralString, TypeVar

import neo4j
import neo4j.graph
import neo4j.time
from neo4j import AsyncDriver, AsyncGraphDatabase, AsyncManagedTransaction, Bookmarks
from neo4j import exceptions as neo4j_errors

from app.clock import Clock, SystemClock
from app.errors import (
    ConstraintViolation,
    CredenceError,
    GraphBusy,
    GraphError,
    GraphUnavailable,
    InvalidInput,
    error_entry,
)
from app.graph.catalog import Query, QueryCatalog, default_catalog
from app.graph.causality import InvalidBookmark, bookmarks_to_wait_for, record_written
from app.graph.settings import Neo4jSettings
from app.metrics import count_neo4j_error, count_neo4j_retry

log = logging.getLogger(__name__)

T = TypeVar("T")
Row = dict[str, Any]


@dataclass(frozen=True, slots=True)
class ServerInfo:
    """What the connected server says about itself."""

    address: str
    version: str
    edition: str


# Values that need no conversion: checked first, since most of what a query returns is these.
_PLAIN = frozenset({str, int, float, bool, type(None)})


def native(value: Any) -> Any:
    """A value of a record as Python holds it at the graph boundary, in one walk: driver
    temporal values as Python's, nodes as their property maps, a relationship as (start node's
    properties, type, end node's properties) and a path as nodes' properties and relationship
    types in turn (as the driver's ``Record.data`` gives them); anything else as it is."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is list:
        return [native(item) for item in value]
    if kind is dict:
        return {key: native(item) for key, item in value.items()}
    if isinstance(value, neo4j.time.DateTime | neo4j.time.Date | neo4j.time.Time):
        return value.to_native()
    if isinstance(value, neo4j.time.Duration):
        return str(value)
    if isinstance(value, neo4j.graph.Node):
        return native(dict(value))
    if isinstance(value, neo4j.graph.Relationship):
        start, end = value.start_node, value.end_node
        return (
            native(dict(start)) if start is not None else None,
            type(value).__name__,
            native(dict(end)) if end is not None else None,
        )
    if isinstance(value, neo4j.graph.Path):
        walked: list[Any] = [native(value.start_node)]
        for relationship, node in zip(value.relationships, value.nodes[1:], strict=True):
            walked += [type(relationship).__name__, native(node)]
        return walked
    return value


def row_of(record: neo4j.Record) -> Row:
    """A record as a row (``native`` of each of its values)."""
    return {key: native(value) for key, value in zip(record.keys(), record.values(), strict=True)}


@asynccontextmanager
async def translated_driver_errors(action: str) -> AsyncIterator[None]:
    """Re-raises driver errors as Credence errors, naming what was being done (and counts them
    in ``credence_neo4j_errors``)."""
    try:
        yield
    except (neo4j_errors.Neo4jError, neo4j_errors.DriverError) as error:
        translated = _translated(error, action)
        count_neo4j_error(translated.code)
        raise translated from error
    except OSError as error:
        count_neo4j_error(GraphUnavailable.code)
        raise GraphUnavailable(f"Neo4j is not reachable while {action}: {error}") from error


def error_code(error: neo4j_errors.Neo4jError | neo4j_errors.DriverError) -> str | None:
    return error.code if isinstance(error, neo4j_errors.Neo4jError) else None


def _translated(
    error: neo4j_errors.Neo4jError | neo4j_errors.DriverError, action: str
) -> CredenceError:
    if isinstance(error, neo4j_errors.AuthError):
        return GraphUnavailable(
            f"Neo4j refused the credentials while {action}", cause=error.message
        )
    if isinstance(error, neo4j_errors.ConnectionAcquisitionTimeoutError):
        # Every connection of the pool was busy for the whole acquisition timeout.
        return GraphBusy(f"no connection to Neo4j was free in time while {action}: {error}")
    if isinstance(error, neo4j_errors.ServiceUnavailable | neo4j_errors.SessionExpired):
        return GraphUnavailable(f"Neo4j is not reachable while {action}: {error}")
    if error_code(error) == _DATABASE_UNAVAILABLE:
        return GraphUnavailable(
            f"Neo4j's database is not available (starting or stopping) while {action}"
        )
    if isinstance(error, neo4j_errors.TransientError):
        # Reached only when the retries of a managed transaction ran out (GraphClient._retrying).
        return GraphBusy(
            f"Neo4j stayed busy while {action} (retried): {error.message}", neo4j_code=error.code
        )
    if isinstance(error, neo4j_errors.ConstraintError):
        return ConstraintViolation(
            f"a uniqueness constraint refused the write while {action}", cause=error.message
        )
    if error_code(error) == "Neo.ClientError.Transaction.InvalidBookmark":
        return InvalidBookmark("Neo4j cannot read it as a bookmark of this database")
    if isinstance(error, neo4j_errors.CypherTypeError):
        # Where in the request is not known here: the entry locates the input as a whole.
        message = f"a value had the wrong type while {action}"
        return InvalidInput(
            message,
            cause=error.message,
            errors=[error_entry([], f"{message}: {error.message}"[:500], "wrong_type")],
        )
    if isinstance(error, neo4j_errors.Neo4jError):
        return GraphError(f"Neo4j failed while {action}: {error.message}", neo4j_code=error.code)
    return GraphError(f"the Neo4j driver failed while {action}: {error}")


_BOOKMARK_TIMEOUT = "Neo.TransientError.Transaction.BookmarkTimeout"
_DATABASE_UNAVAILABLE = "Neo.TransientError.General.DatabaseUnavailable"
# Marks a transient error already counted by the unit of work that raised it.
_COUNTED = "_credence_retry_counted"


class Transaction:
    """A managed transaction that runs catalog queries by name."""

    def __init__(self, tx: AsyncManagedTransaction, catalog: QueryCatalog, clock: Clock) -> None:
        self._tx = tx
        self._catalog = catalog
        self._clock = clock

    @property
    def clock(self) -> Clock:
        """The clock ``$now`` is read from (the graph client's)."""
        return self._clock

    async def run(self, name: str, **params: Any) -> list[Row]:
        """Runs the named query inside this transaction and returns its rows."""
        query = self._catalog.get(name)
        result = await self._tx.run(query.text, with_now(query, params, self._clock))
        return [row_of(record) async for record in result]


def with_now(query: Query, params: dict[str, Any], clock: Clock) -> dict[str, Any]:
    """The parameters, with ``now`` read from ``clock`` when the query reads ``$now`` and the
    caller passed none: every time the graph writes (a belief's creation, an event, a revision)
    comes from the process's injectable clock, not the database server's."""
    if query.uses_now and "now" not in params:
        return {**params, "now": clock.now()}
    return params


class GraphClient:
    """Owns the process's async driver; opens a session per call."""

    def __init__(
        self,
        driver: AsyncDriver,
        database: str,
        catalog: QueryCatalog,
        transaction_retry_s: float = 30.0,
        unavailable_retry_s: float = 10.0,
        clock: Clock | None = None,
    ) -> None:
        self._driver = driver
        # Where ``$now`` comes from when a query reads it and its caller passes none.
        self.clock: Clock = clock or SystemClock()
        self._database = database
        self._catalog = catalog
        self._transaction_retry_s = transaction_retry_s
        self._unavailable_retry_s = min(unavailable_retry_s, transaction_retry_s)

    @classmethod
    def from_settings(
        cls,
        settings: Neo4jSettings,
        catalog: QueryCatalog | None = None,
        clock: Clock | None = None,
    ) -> GraphClient:
        """Builds the client (no I/O yet; the driver connects lazily); ``clock``: the time
        queries write as ``$now`` (the system's by default)."""
        driver = AsyncGraphDatabase.driver(
            settings.uri,
            auth=(settings.user, settings.password.get_secret_value()),
            connection_timeout=settings.connection_timeout_s,
            max_connection_pool_size=settings.max_pool_size,
            # The driver's own retries are bounded so a dead server fails a request quickly;
            # transient errors (deadlocks) are retried longer by the client (_retrying).
            max_transaction_retry_time=settings.connection_timeout_s,
            # Server notes ("index already exists") are noise; warnings stay. "Unknown property
            # or label" warnings are expected before data of a kind exists.
            notifications_min_severity=neo4j.NotificationMinimumSeverity.WARNING,
            notifications_disabled_classifications=[
                neo4j.NotificationDisabledClassification.UNRECOGNIZED
            ],
        )
        return cls(
            driver,
            settings.database,
            catalog or default_catalog(),
            settings.transaction_retry_s,
            # A database that is starting or stopping fails fast, like an unreachable server.
            unavailable_retry_s=settings.connection_timeout_s,
            clock=clock,
        )

    @property
    def catalog(self) -> QueryCatalog:
        return self._catalog

    async def close(self) -> None:
        await self._driver.close()

    async def server_info(self) -> ServerInfo:
        """Connects (if needed) and reports the server's address, version and edition.

        Raises:
            GraphUnavailable: Neo4j cannot be reached or refused the credentials.
        """
        async with translated_driver_errors("connecting"):
            driver_view = await self._driver.get_server_info()
        rows = await self.read("graph/client/get_server_components")
        return ServerInfo(
            address=str(driver_view.address),
            version=str(rows[0]["version"]),
            edition=str(rows[0]["edition"]),
        )

    async def read(self, name: str, **params: Any) -> list[Row]:
        """Runs a read query by catalog name as its own (auto-commit) transaction: one round
        trip, where a managed transaction takes three (begin, run, commit); retried like one."""
        return await self._run_alone(name, params, neo4j.READ_ACCESS)

    async def read_collected(self, name: str, **params: Any) -> list[Row]:
        """Runs a read query whose rows come back as one list, the ``rows`` column of its one
        record (``RETURN collect({...}) AS rows``), and returns them (none when the query returns
        no record): the async driver spends 0.1–0.2 ms on each record it reads (an awaited socket
        read per Bolt chunk), so a section's rows in one record save ~1 ms of a request
        (bench/README.md, issue 38)."""
        records = await self.read(name, **params)
        if not records:
            return []
        rows: list[Row] = records[0]["rows"]
        return rows

    async def write(self, name: str, **params: Any) -> list[Row]:
        """Runs a write query by catalog name in its own transaction."""
        return await self.write_transaction(lambda tx: tx.run(name, **params), action=name)

    async def write_alone(self, name: str, **params: Any) -> list[Row]:
        """Runs one write query by catalog name as its own (auto-commit) transaction: one
        round trip for the query and its commit (a managed transaction takes three), all of it
        committed or none of it; retried as a whole on transient errors and when the
        connection is lost, so the query must be one that can run again: after a failure (it
        wrote nothing) and after a lost connection that may have hidden its commit (its second
        run must write nothing more: loop/tool_turns/record_call checks for what it creates)."""
        return await self._run_alone(name, params, neo4j.WRITE_ACCESS)

    async def _run_alone(self, name: str, params: dict[str, Any], access: str) -> list[Row]:
        query = self._catalog.get(name)

        async def alone(session: neo4j.AsyncSession) -> list[Row]:
            result = await session.run(query.text, with_now(query, params, self.clock))
            rows = [row_of(record) async for record in result]
            if access == neo4j.WRITE_ACCESS:
                record_written((await session.last_bookmarks()).raw_values)
            return rows

        async with translated_driver_errors(name):
            return await self._retrying(alone, access=access, unreachable=True)

    async def read_transaction(
        self, work: Callable[[Transaction], Awaitable[T]], action: str = "reading"
    ) -> T:
        """Runs ``work`` in one read transaction (retried on transient errors)."""
        async with translated_driver_errors(action):
            return await self._retrying(lambda session: session.execute_read(self._unit(work)))

    async def write_transaction(
        self, work: Callable[[Transaction], Awaitable[T]], action: str = "writing"
    ) -> T:
        """Runs ``work`` in one write transaction: all of it commits, or none of it (retried as
        a whole on transient errors)."""

        async def committed(session: neo4j.AsyncSession) -> T:
            result = await session.execute_write(self._unit(work))
            # The client gets this write's bookmark (X-Credence-Bookmark) to read it elsewhere.
            record_written((await session.last_bookmarks()).raw_values)
            return result

        async with translated_driver_errors(action):
            return await self._retrying(committed)

    async def run_autocommit(self, query: LiteralString, action: str, **params: Any) -> None:
        """Runs a statement outside an explicit transaction (schema commands need this)."""
        async with translated_driver_errors(action), self._session() as session:
            result = await session.run(query, params)
            await result.consume()

    async def _retrying(
        self,
        run: Callable[[neo4j.AsyncSession], Awaitable[T]],
        access: str = neo4j.WRITE_ACCESS,
        unreachable: bool = False,
    ) -> T:
        """Runs a managed transaction in a new session until it does not fail with a transient
        error (a deadlock between writers of one dense node, a lock timeout), backing off with
        jitter, for at most ``transaction_retry_s``; the driver's own retries are short (they
        also cover an unreachable server, which must fail fast; ``unreachable``: a query run
        alone has no such retries, so a lost connection is retried here for as long as the
        driver's are)."""
        started = time.monotonic()
        deadline = started + self._transaction_retry_s
        delay = 0.05
        attempt = 0
        while True:
            attempt += 1
            try:
                async with self._session(access) as session:
                    return await run(session)
            except (neo4j_errors.ServiceUnavailable, neo4j_errors.SessionExpired):
                late = time.monotonic() + delay > started + self._unavailable_retry_s
                if not unreachable or late:
                    raise
                log.info("connection lost (attempt %d), retrying", attempt)
                await asyncio.sleep(delay * random.uniform(0.5, 1.5))  # noqa: S311 (jitter)
                delay = min(delay * 2, 1.0)
            except neo4j_errors.TransientError as error:
                # A database that is not available (Neo4j starting or stopping) is retried only
                # as long as an unreachable server is, then answered as unavailable: a request
                # must not hang through a restart.
                if error.code == _DATABASE_UNAVAILABLE:
                    if time.monotonic() + delay > started + self._unavailable_retry_s:
                        raise
                # A bookmark the server did not reach in its own wait is not a collision that
                # running again resolves (GraphBusy tells the client to come back).
                elif time.monotonic() + delay > deadline or error.code == _BOOKMARK_TIMEOUT:
                    raise
                log.info("transient error (attempt %d), retrying: %s", attempt, error.code)
                if not getattr(error, _COUNTED, False):
                    count_neo4j_retry(error.code or "unknown")
                await asyncio.sleep(delay * random.uniform(0.5, 1.5))  # noqa: S311 (jitter)
                delay = min(delay * 2, 1.0)

    def _unit(
        self, work: Callable[[Transaction], Awaitable[T]]
    ) -> Callable[[AsyncManagedTransaction], Awaitable[T]]:
        async def unit(tx: AsyncManagedTransaction) -> T:
            try:
                return await work(Transaction(tx, self._catalog, self.clock))
            except neo4j_errors.TransientError as error:
                # The driver runs the unit again on a transient error (a deadlock, a lock
                # timeout) before _retrying sees anything: count every such attempt here, so
                # the metric says how often writers really collided.
                log.info(
                    "transient error in a transaction: %s %s",
                    error.code,
                    (error.message or "").replace("\n", " "),
                )
                count_neo4j_retry(error.code or "unknown")
                setattr(error, _COUNTED, True)
                raise

        return unit

    def _session(self, access: str = neo4j.WRITE_ACCESS) -> neo4j.AsyncSession:
        after = bookmarks_to_wait_for()
        return self._driver.session(
            database=self._database,
            default_access_mode=access,
            # A request's transactions wait for the writes the client has seen (its
            # X-Credence-Bookmark) and for the request's own earlier ones.
            bookmarks=Bookmarks.from_raw_values(after) if after else None,
        )
