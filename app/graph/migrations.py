"""Versioned schema migrations: ``schema/V0001__create_constraints.cypher``, ...

The runner applies pending files in version order, records each with its checksum in the graph
(``:CredenceMigration`` nodes), refuses to run when an applied file was changed or removed, holds
a lock so two runners cannot interleave, and waits for new indexes to be ONLINE before it records
a file as applied. Running it again changes nothing.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import re
import time
import uuid
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from app.errors import (
    ErrorEntry,
    GraphError,
    MigrationChecksumMismatch,
    MigrationFailed,
    MigrationFileInvalid,
    MigrationLockHeld,
    MigrationMissing,
    error_entry,
    file_location,
    location_text,
)
from app.graph.catalog import file_statements
from app.graph.client import GraphClient
from app.graph.settings import MigrationSettings
from app.resources import resource_dir

log = logging.getLogger(__name__)

DEFAULT_NAMESPACE = "credence"
# What db.awaitIndexes fails with when an index is FAILED or does not come ONLINE in time.
_PROCEDURE_CALL_FAILED = "Neo.ClientError.Procedure.ProcedureCallFailed"
_FILE_NAME = re.compile(r"V(?P<version>\d{4})__(?P<description>[a-z0-9]+(?:_[a-z0-9]+)*)\.cypher")


@dataclass(frozen=True, slots=True)
class MigrationFile:
    """One migration file on disk."""

    version: int
    description: str
    path: Path
    checksum: str

    @property
    def file(self) -> str:
        return self.path.name


@dataclass(frozen=True, slots=True)
class MigrationState:
    """A migration's state: on disk and/or in the graph."""

    version: int
    file: str
    state: Literal["applied", "pending", "changed", "missing"]
    checksum: str
    applied_at: datetime | None = None
    duration_ms: int | None = None


@dataclass(frozen=True, slots=True)
class MigrationReport:
    """What one run of the runner did."""

    applied: list[str]
    already_applied: list[str]


def checksum_of(path: Path) -> str:
    """sha256 of the file with line endings normalised (a CRLF checkout is not a change)."""
    return hashlib.sha256(path.read_bytes().replace(b"\r\n", b"\n")).hexdigest()


def discover(directory: Path) -> list[MigrationFile]:
    """The migration files of a folder in version order.

    Raises:
        MigrationFileInvalid: a ``.cypher`` file is misnamed or two files share a version; every
            such problem is listed.
    """
    files: list[MigrationFile] = []
    problems: list[ErrorEntry] = []
    for path in sorted(directory.glob("*.cypher")):
        match = _FILE_NAME.fullmatch(path.name)
        if match is None:
            problems.append(
                error_entry(
                    file_location(path.name),
                    "name must look like V0001__lower_snake_description.cypher",
                    "file_name",
                )
            )
            continue
        if not file_statements(path.read_text(encoding="utf-8")):
            problems.append(
                error_entry(file_location(path.name), "holds no statement", "empty_file")
            )
            continue
        files.append(
            MigrationFile(
                version=int(match["version"]),
                description=match["description"],
                path=path,
                checksum=checksum_of(path),
            )
        )
    seen: dict[int, str] = {}
    for migration in files:
        if migration.version in seen:
            problems.append(
                error_entry(
                    file_location(migration.file),
                    f"version {migration.version} is also used by {seen[migration.version]}",
                    "duplicate_version",
                )
            )
        seen[migration.version] = migration.file
    if problems:
        listed = "; ".join(f"{location_text(p['location'])}: {p['message']}" for p in problems)
        raise MigrationFileInvalid(
            f"invalid migration files in {directory}: {listed}",
            errors=problems,
            directory=str(directory),
        )
    return files


class MigrationRunner:
    """Applies the migrations of one folder to the graph, under one namespace."""

    def __init__(
        self,
        graph: GraphClient,
        directory: Path | None = None,
        namespace: str = DEFAULT_NAMESPACE,
        lock_timeout_s: float = 60.0,
        lock_stale_after_s: float = 600.0,
        index_online_timeout_s: float = 300.0,
    ) -> None:
        self._graph = graph
        self._directory = directory or resource_dir("schema")
        self._namespace = namespace
        self._lock_timeout_s = lock_timeout_s
        self._lock_stale_after_s = lock_stale_after_s
        self._index_online_timeout_s = index_online_timeout_s

    @classmethod
    def with_settings(cls, graph: GraphClient, settings: MigrationSettings) -> MigrationRunner:
        """The runner over the shipped schema/ with the configured waits."""
        return cls(
            graph,
            lock_timeout_s=settings.lock_timeout_s,
            lock_stale_after_s=settings.lock_stale_after_s,
            index_online_timeout_s=settings.index_online_timeout_s,
        )

    async def status(self) -> list[MigrationState]:
        """Every migration with its state: applied, pending, changed (edited after being applied)
        or missing (applied, but its file is gone). Reads only."""
        files = discover(self._directory)
        applied = {row["version"]: row for row in await self._applied()}
        states: list[MigrationState] = []
        for migration in files:
            record = applied.pop(migration.version, None)
            if record is None:
                states.append(
                    MigrationState(migration.version, migration.file, "pending", migration.checksum)
                )
                continue
            state: Literal["applied", "changed"] = (
                "applied" if record["checksum"] == migration.checksum else "changed"
            )
            states.append(
                MigrationState(
                    migration.version,
                    migration.file,
                    state,
                    migration.checksum,
                    _to_datetime(record["applied_at"]),
                    record["duration_ms"],
                )
            )
        states.extend(
            MigrationState(
                version,
                str(record["file"]),
                "missing",
                str(record["checksum"]),
                _to_datetime(record["applied_at"]),
                record["duration_ms"],
            )
            for version, record in applied.items()
        )
        return sorted(states, key=lambda s: s.version)

    async def migrate(self) -> MigrationReport:
        """Applies every pending migration in version order.

        Returns:
            The files applied now and those applied before.

        Raises:
            MigrationFileInvalid: a misnamed or duplicate-version file.
            MigrationChecksumMismatch: an applied file was edited (names the file).
            MigrationMissing: an applied file was removed.
            MigrationLockHeld: another runner held the lock for longer than the lock timeout.
            MigrationFailed: a statement failed (names the file and the statement); the file is
                not recorded, so the next run retries it (statements use IF NOT EXISTS).
        """
        files = discover(self._directory)
        await self._bootstrap()
        owner = f"{uuid.uuid4()}"
        await self._acquire_lock(owner)
        try:
            applied = {row["version"]: row for row in await self._applied()}
            self._check_applied_unchanged(files, applied)
            done: list[str] = []
            for migration in files:
                if migration.version not in applied:
                    await self._apply(migration)
                    done.append(migration.file)
            already = [m.file for m in files if m.version in applied]
            return MigrationReport(applied=done, already_applied=already)
        finally:
            await self._graph.write(
                "graph/migrations/release_lock", namespace=self._namespace, owner=owner
            )

    async def _bootstrap(self) -> None:
        for name in (
            "graph/migrations/create_lock_constraint",
            "graph/migrations/create_record_constraint",
        ):
            await self._graph.run_autocommit(self._graph.catalog.get(name).text, action=name)

    async def _applied(self) -> list[dict[str, Any]]:
        return await self._graph.read("graph/migrations/list_applied", namespace=self._namespace)

    def _check_applied_unchanged(
        self, files: list[MigrationFile], applied: dict[int, dict[str, Any]]
    ) -> None:
        by_version = {m.version: m for m in files}
        for version, record in applied.items():
            migration = by_version.get(version)
            if migration is None:
                raise MigrationMissing(
                    f"migration {record['file']} was applied but its file is gone from "
                    f"{self._directory}; applied migrations are never removed",
                    file=record["file"],
                    version=version,
                )
            if migration.checksum != record["checksum"]:
                raise MigrationChecksumMismatch(
                    migration.file, record["checksum"], migration.checksum
                )

    async def _acquire_lock(self, owner: str) -> None:
        deadline = time.monotonic() + self._lock_timeout_s
        while True:
            rows = await self._graph.write(
                "graph/migrations/acquire_lock",
                namespace=self._namespace,
                owner=owner,
                stale_after_s=self._lock_stale_after_s,
            )
            if rows[0]["acquired"]:
                return
            if time.monotonic() >= deadline:
                raise MigrationLockHeld(
                    f"another migration runner ({rows[0]['owner']}) holds the lock of namespace "
                    f"{self._namespace!r} since {rows[0]['acquired_at']}; waited "
                    f"{self._lock_timeout_s:.0f}s",
                    holder=rows[0]["owner"],
                    namespace=self._namespace,
                )
            await asyncio.sleep(0.25)

    async def _apply(self, migration: MigrationFile) -> None:
        started = time.monotonic()
        statements = file_statements(migration.path.read_text(encoding="utf-8"))
        for index, statement in enumerate(statements, start=1):
            try:
                await self._graph.run_autocommit(
                    statement.text, action=f"applying {migration.file}"
                )
            except GraphError as error:
                # Neo4j's "line N" is the file's line N: the statement is sent at its place.
                raise MigrationFailed(
                    f"migration {migration.file} failed at statement {index} of "
                    f"{len(statements)} (line {statement.line}): {error.message}",
                    file=migration.file,
                    statement_index=index,
                    statement_line=statement.line,
                    statement=statement.text.strip(),
                ) from error
        await self._await_indexes_online(migration)
        duration_ms = int((time.monotonic() - started) * 1000)
        await self._graph.write(
            "graph/migrations/record_applied",
            namespace=self._namespace,
            migration={
                "version": migration.version,
                "description": migration.description,
                "file": migration.file,
                "checksum": migration.checksum,
                "duration_ms": duration_ms,
            },
        )
        log.info("applied migration %s in %d ms", migration.file, duration_ms)

    async def _await_indexes_online(self, migration: MigrationFile) -> None:
        # The server waits (db.awaitIndexes); it fails, without naming them, when an index is
        # FAILED or the wait ran out, and the index states then say which ones.
        try:
            await self._graph.read(
                "graph/migrations/await_indexes", timeout_s=math.ceil(self._index_online_timeout_s)
            )
        except GraphError as error:
            if error.details.get("neo4j_code") != _PROCEDURE_CALL_FAILED:
                raise
            await self._raise_for_index_states(migration, error)

    async def _raise_for_index_states(self, migration: MigrationFile, cause: GraphError) -> None:
        """Raises MigrationFailed naming the FAILED, else the not yet ONLINE, indexes.

        Returns (nothing to report) when every index came ONLINE after the wait gave up.
        """
        indexes = await self._graph.read("graph/migrations/list_index_states")
        failed = [row["name"] for row in indexes if row["state"] == "FAILED"]
        if failed:
            raise MigrationFailed(
                f"after {migration.file} these indexes FAILED: {', '.join(failed)}",
                file=migration.file,
                indexes=failed,
            ) from cause
        waiting = [row["name"] for row in indexes if row["state"] != "ONLINE"]
        if waiting:
            raise MigrationFailed(
                f"after {migration.file} these indexes were not ONLINE within "
                f"{self._index_online_timeout_s:.0f}s: {', '.join(waiting)}",
                file=migration.file,
                indexes=waiting,
            ) from cause


def _to_datetime(value: Any) -> datetime | None:
    if value is None:
        return None
    native = value.to_native() if hasattr(value, "to_native") else value
    return native if isinstance(native, datetime) else None
