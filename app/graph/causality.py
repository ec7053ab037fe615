"""Causal consistency across API processes: Neo4j bookmarks handed to clients.

A client that writes through one API process and reads through another (or through the same one
on a cluster, where reads go to secondaries) may read from a server that has not applied its write
yet. Neo4j's answer is the bookmark: the transaction a write committed as. Credence returns the
bookmarks of a request's writes in the ``X-Credence-Bookmark`` response header; a client that
sends them back on a later request (any process) has that request's transactions wait until the
server they run on has caught up with them.

The request's bookmarks travel in context variables, set by the API's middleware
(``app/api/causality.py``) and read by :class:`app.graph.client.GraphClient` for every session it
opens, so no service function has to pass them along.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from app.errors import InvalidInput, error_entry

HEADER = "x-credence-bookmark"
# Neo4j's bookmarks ("FB:kcwQ8cMUV1ckRsCJHWUG/FVFrMkGYpA="): the server fails some other strings
# with an unknown error rather than refusing them, so only this shape is passed on.
BOOKMARK_PATTERN = r"FB:[A-Za-z0-9+/]{1,256}={0,2}"
# The header: bookmarks separated by commas.
HEADER_PATTERN = rf"^{BOOKMARK_PATTERN}(,{BOOKMARK_PATTERN}){{0,15}}$"
MAX_BOOKMARKS = 16
_BOOKMARK = re.compile(BOOKMARK_PATTERN)

# What the current request's transactions must wait for (None: nothing).
_after: ContextVar[tuple[str, ...] | None] = ContextVar("credence_bookmarks_after", default=None)
# Where the current request collects the bookmarks of its writes (None: nobody listens). A list,
# so that the tasks a request starts (which copy the context) add to the same one.
_written: ContextVar[list[str] | None] = ContextVar("credence_bookmarks_written", default=None)


class InvalidBookmark(InvalidInput):
    """The X-Credence-Bookmark header holds something that is not a bookmark of this database."""

    code = "invalid_bookmark"

    def __init__(self, reason: str) -> None:
        super().__init__(
            f"invalid {HEADER} header: {reason}",
            errors=[error_entry(["header", HEADER], reason, "invalid_bookmark")],
        )


def parse_bookmarks(header: str | None) -> tuple[str, ...]:
    """The bookmarks of a header value (comma-separated), checked for shape.

    Raises:
        InvalidBookmark: too many, empty or with characters a bookmark never has.
    """
    if header is None or not header.strip():
        return ()
    values = tuple(value.strip() for value in header.split(","))
    if len(values) > MAX_BOOKMARKS:
        raise InvalidBookmark(f"at most {MAX_BOOKMARKS} bookmarks, got {len(values)}")
    for value in values:
        if not _BOOKMARK.fullmatch(value):
            raise InvalidBookmark(f"{value[:40]!r} is not a bookmark (FB:<base64>)")
    return values


@contextmanager
def causal_scope(after: tuple[str, ...]) -> Iterator[list[str]]:
    """Runs the body's transactions after ``after`` and yields the list that collects the
    bookmarks of its writes."""
    written: list[str] = []
    after_token = _after.set(after or None)
    written_token = _written.set(written)
    try:
        yield written
    finally:
        _written.reset(written_token)
        _after.reset(after_token)


def bookmarks_to_wait_for() -> tuple[str, ...]:
    """The bookmarks a session of the current request starts from: those the client sent and
    those of the request's own earlier writes (so a read after a write in one request sees it
    on a cluster too). Empty outside a request or when there are none."""
    return (*(_after.get() or ()), *(_written.get() or ()))


def record_written(bookmarks: frozenset[str] | tuple[str, ...]) -> None:
    """Keeps the bookmarks of a committed write for the current request's answer."""
    written = _written.get()
    if written is not None:
        written.extend(sorted(set(bookmarks) - set(written)))
