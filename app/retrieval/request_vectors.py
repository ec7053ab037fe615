"""The vectors one context request embeds, each text once: a text asked for again, or started
early (before the section that needs it asks), shares the first call's embedding.

A question that names people is embedded without their names while the graph says which of
them are speakers of the agent; when they are not all speakers, the episodes search with
another text's vector (the question itself, or without fewer names). Started as soon as the
speakers are known instead of when the episode section asks, that second embedding runs beside
the first rather than after it: ~10% of LoCoMo's questions (a place or a third person named),
the slowest tenth of ``/context`` (bench/README.md, issue 38).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Iterator
from typing import Any

from app.embeddings.embedder import Vector

Embed = Callable[[str], Coroutine[Any, Any, Vector | None]]


class RequestVectors:
    """Query vectors by text for one request (embedded as queries by ``embed``)."""

    def __init__(self, embed: Embed) -> None:
        self._embed = embed
        self._started: dict[str, asyncio.Future[Vector | None]] = {}
        self._asked: set[str] = set()

    def start(self, text: str) -> None:
        """Starts embedding ``text`` now, unless it already is (started, or asked for)."""
        if text not in self._started and text not in self._asked:
            self._started[text] = asyncio.ensure_future(self._embed(text))

    async def vector(self, text: str) -> Vector | None:
        """``text``'s vector (None when embeddings fail): the embedding started early when
        there is one (a caller cancelled while it waits leaves it to the others), else embedded
        now (awaited directly: no task of its own on the request's path)."""
        started = self._started.get(text)
        if started is not None:
            return await asyncio.shield(started)
        self._asked.add(text)
        return await self._embed(text)

    def pending(self) -> Iterator[asyncio.Future[Vector | None]]:
        """Every embedding started early, for the request to settle when it ends."""
        return iter(list(self._started.values()))
