"""The contract between an investigation and the places it searches.

An investigation asks every registered source for passages about a hypothesis or a question;
each source answers in the same shape, so the supervisor, the judge and the ``Source`` nodes an
investigation records never depend on where a passage came from.
"""

from __future__ import annotations

from datetime import date
from typing import Literal, Protocol

from pydantic import BaseModel, Field

from app.errors import CredenceError

PassageKind = Literal["corpus", "belief", "episode", "rule", "tool"]


class Passage(BaseModel):
    """One piece of text a source found, with enough identity to record and cite it.

    ``ref`` is stable for the same text across searches (a corpus chunk id, a belief id, an
    episode id), so an investigation that resumes after a crash recognises a passage it already
    holds and records nothing twice.
    """

    kind: PassageKind
    ref: str = Field(min_length=1)
    title: str
    origin: str = Field(description="Where it came from: a file name, a URL, or 'graph'.")
    text: str = Field(min_length=1)
    published: date | None = Field(default=None, description="When the text was written, if known.")
    score: float = Field(
        description="The source's own relevance score; comparable within one search only."
    )


class SourceAnswer(BaseModel):
    """The answer of a source made of parts that fail one by one (``tools``: each marked tool):
    what the parts that answered found, and each part that failed with why (as
    :func:`failure_text` writes it), so a search reports every part's outcome."""

    passages: list[Passage]
    failed_parts: dict[str, str] = Field(default_factory=dict)


class ResearchSource(Protocol):
    """A place an investigation can search.

    ``name`` is unique among the registered sources (``graph``, ``corpus``, ...). ``search`` reads
    only ``agent_id``'s data and returns at most ``limit`` passages, best first (a source with
    parts: a :class:`SourceAnswer`); it never writes. A source that fails raises.
    """

    name: str

    async def search(
        self, agent_id: str, query: str, *, limit: int
    ) -> list[Passage] | SourceAnswer: ...


def failure_text(error: Exception) -> str:
    """How a search records a failure: the error's type and message."""
    message = error.message if isinstance(error, CredenceError) else str(error)
    return f"{type(error).__name__}: {message}"
