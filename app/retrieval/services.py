"""What context retrieval runs on in a process: built once by the runtime (``app/runtime.py``)
and handed to the API's ``/context`` route, ``credence context`` and the MCP recall tools, so all
three read working memory at the same clock."""

from __future__ import annotations

from dataclasses import dataclass

from app.clock import Clock
from app.embeddings.embedder import Embedder
from app.graph.client import GraphClient
from app.retrieval.context_inputs import assemble_context
from app.retrieval.models import Context, ContextRequest
from app.retrieval.settings import RetrievalSettings


@dataclass(frozen=True, slots=True)
class RetrievalServices:
    graph: GraphClient
    embedder: Embedder
    settings: RetrievalSettings
    clock: Clock

    async def context(self, agent_id: str, request: ContextRequest) -> Context:
        """The full context of a query for an agent (docs/retrieval.md), with working memory
        read at the process clock's time."""
        return await assemble_context(
            self.graph, self.embedder, self.settings, agent_id, request, now=self.clock.now()
        )
