"""The query catalog: ``cypher/**/*.cypher`` loaded by name.

This module is the only place where file text becomes a query string (``LiteralString``), so a
query built any other way stands out. Names are paths under ``cypher/`` without the suffix, e.g.
``graph/client/get_server_components`` for ``cypher/graph/client/get_server_components.cypher``;
the first folder is the package of ``app/`` that owns the query (docs/architecture.md §4).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import LiteralString, cast

from app.errors import UnknownQuery
from app.resources import resource_dir

_STATEMENT_END = re.compile(r";[ \t]*(?:\r?\n|$)")
_NOW_PARAMETER = re.compile(r"\$now\b")


@dataclass(frozen=True, slots=True)
class Query:
    """One named Cypher query: ``text``, what is sent to the server (the file with its
    whole-line ``//`` comments emptied, so that its lines keep their numbers), ``source``, the
    file as written, and ``header``, its ``//`` lines."""

    name: str
    text: LiteralString
    source: str
    header: str
    # Whether the text reads ``$now``: the graph client fills it in from its clock when the
    # caller passes none (app/graph/client.py), so the graph's times follow the injected clock.
    uses_now: bool = False


class QueryCatalog:
    """Loads queries by name from a folder, caching each file after its first use."""

    def __init__(self, root: Path) -> None:
        self._root = root
        self._cache: dict[str, Query] = {}

    @property
    def root(self) -> Path:
        return self._root

    def names(self) -> list[str]:
        """Every query name in the catalog, sorted."""
        return sorted(
            p.relative_to(self._root).with_suffix("").as_posix()
            for p in self._root.rglob("*.cypher")
        )

    def get(self, name: str) -> Query:
        """The query called ``name``.

        Raises:
            UnknownQuery: no such file (the message suggests close names).
        """
        cached = self._cache.get(name)
        if cached is not None:
            return cached
        path = self._path_of(name)
        if path is None:
            raise UnknownQuery(name, difflib.get_close_matches(name, self.names(), n=3))
        text = path.read_text(encoding="utf-8")
        header = "\n".join(line for line in text.splitlines() if _is_comment(line))
        # The header and the other whole-line comments stay here: sent with every run they cost
        # the server ~0.5 ms a query for the longest ones (bench/README.md, issue 38). Each is
        # sent as an empty line, so that every other line keeps its place: a Neo4j error's
        # "line N" is line N of the file.
        body = _comments_emptied(text)
        query = Query(
            name=name,
            text=as_query_text(body.rstrip()),
            source=text.strip(),
            header=header,
            uses_now=_NOW_PARAMETER.search(text) is not None,
        )
        self._cache[name] = query
        return query

    def _path_of(self, name: str) -> Path | None:
        if not re.fullmatch(r"[a-z0-9_]+(/[a-z0-9_]+)*", name):
            return None
        path = self._root / f"{name}.cypher"
        return path if path.is_file() else None


def as_query_text(text: str) -> LiteralString:
    """Marks text read from a project file as a query string.

    Only the catalog and the migrations runner (via :func:`file_statements`) call this: both read
    files shipped in ``cypher/`` or ``schema/``, never user input.
    """
    return cast(LiteralString, text)  # type: ignore[redundant-cast]  # mypy: LiteralString is str


def _is_comment(line: str) -> bool:
    return line.lstrip().startswith("//")


def _comments_emptied(text: str) -> str:
    """``text`` with its whole-line ``//`` comments as empty lines: every other line keeps its
    number."""
    return "\n".join("" if _is_comment(line) else line for line in text.splitlines())


@dataclass(frozen=True, slots=True)
class Statement:
    """One statement of a migration file: its text and the file line it starts on.

    ``text`` is sent as it stands: preceded by as many empty lines as come before it in the file
    and with its whole-line ``//`` comments emptied, so a Neo4j error's "line N" is line N of the
    file.
    """

    text: LiteralString
    line: int


def file_statements(text: str) -> list[Statement]:
    """The statements of a migration file, split on ``;`` at a line end."""
    lines = _comments_emptied(text)
    statements: list[Statement] = []
    start = 0
    for end in [*(match.start() for match in _STATEMENT_END.finditer(lines)), len(lines)]:
        part = lines[start:end]
        if part.strip():
            first = start + (len(part) - len(part.lstrip()))
            line = lines.count("\n", 0, first) + 1
            # From the start of its first line: its indentation kept, so columns are the file's.
            body = lines[lines.rfind("\n", 0, first) + 1 : end].rstrip()
            statements.append(Statement(as_query_text("\n" * (line - 1) + body), line))
        match = _STATEMENT_END.match(lines, end)
        start = match.end() if match else end
    return statements


@cache
def default_catalog() -> QueryCatalog:
    """The catalog over the shipped ``cypher/`` folder (one per process)."""
    return QueryCatalog(resource_dir("cypher"))
