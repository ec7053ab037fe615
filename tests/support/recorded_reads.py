"""The reads a test's code sends, recorded while they run on the real Neo4j
(``GraphClient.read`` wrapped, not replaced): each query's catalog name and parameters."""

from __future__ import annotations

from typing import Any

import pytest

from app.graph.client import GraphClient

Read = tuple[str, dict[str, Any]]


def record_reads(monkeypatch: pytest.MonkeyPatch) -> list[Read]:
    """Every read from now on (until the test ends), in order; the list is the test's to
    clear between phases."""
    sent: list[Read] = []
    read = GraphClient.read

    async def recording(self: GraphClient, name: str, **params: Any) -> Any:
        sent.append((name, params))
        return await read(self, name, **params)

    monkeypatch.setattr(GraphClient, "read", recording)
    return sent
