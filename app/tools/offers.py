"""The agent's tools as a turn offers them to the reasoner (a message that may ask for one),
read from the graph at most every ``CONNECTION_TTL_S`` per process: a turn of an agent without
tools pays a dictionary look-up, not a query. A connection added or removed in this process
forgets the agent's entry at once; another process sees it within the TTL."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.graph.client import GraphClient

OFFERS_TTL_S = 5.0


@dataclass(frozen=True, slots=True)
class StoredTool:
    qualified_name: str
    description: str
    input_schema: dict[str, Any]
    embedding: list[float] | None


class ToolOffers:
    """Per-process cache of each agent's active tools (see the module docstring)."""

    def __init__(
        self, ttl_s: float = OFFERS_TTL_S, monotonic: Callable[[], float] = time.monotonic
    ) -> None:
        self._ttl_s = ttl_s
        self._monotonic = monotonic
        self._tools: dict[str, tuple[float, list[StoredTool]]] = {}

    async def of(self, graph: GraphClient, agent_id: str, embedding_model: str) -> list[StoredTool]:
        """The agent's active tools; a description vector only when ``embedding_model`` (the
        running model) made it."""
        now = self._monotonic()
        cached = self._tools.get(agent_id)
        if cached is not None and now - cached[0] < self._ttl_s:
            return cached[1]
        rows = await graph.read_collected(
            "tools/list_tool_offers", agent_id=agent_id, embedding_model=embedding_model
        )
        tools = [
            StoredTool(
                qualified_name=row["qualified_name"],
                description=row["description"] or "",
                input_schema=json.loads(row["input_schema"]) if row["input_schema"] else {},
                embedding=[float(x) for x in row["embedding"]] if row["embedding"] else None,
            )
            for row in rows
        ]
        self._tools[agent_id] = (now, tools)
        return tools

    def forget(self, agent_id: str) -> None:
        self._tools.pop(agent_id, None)
