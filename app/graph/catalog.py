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
        body = "\n".join("" if _is_comment(line) else line for line in text.splitlines())
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

    Only the catalog and the migrations runner (via :func:`split_statements`) call this: both read
    files shipped in ``cypher/`` or ``schema/``, never user input.
    """
    return cast(LiteralString, text)  # type: ignore[redundant-cast]  # mypy: LiteralString is str


def _is_comment(line: str) -> bool:
    return line.lstrip().startswith("//")


def split_statements(text: str) -> list[LiteralString]:
    """Splits a migration file into statements on ``;`` at a line end, dropping ``//`` lines."""
    without_comments = "\n".join(line for line in text.splitlines() if not _is_comment(line))
    parts = _STATEMENT_END.split(without_comments)
    return [as_query_text(part.strip()) for part in parts if part.strip()]


@cache
def default_catalog() -> QueryCatalog:
    """The catalog over the shipped ``cypher/`` folder (one per process)."""
    return QueryCatalog(resource_dir("cypher"))
