"""The agent's own graph as a research source (``graph``): its beliefs, episodes and rules,
found by the same relevance retrieval as a context (``app/retrieval``), so an investigation
weighs what the agent already believes and has seen beside what it reads."""

from __future__ import annotations

import itertools
import logging
from datetime import date, datetime
from typing import Any

from app.embeddings.embedder import Embedder
from app.errors import GraphError
from app.graph.client import GraphClient
from app.research.sources.protocol import Passage, PassageKind
from app.retrieval.context import build_context
from app.retrieval.models import MAX_QUERY_CHARS, ContextRequest, SectionName
from app.retrieval.settings import RetrievalSettings

log = logging.getLogger(__name__)

# The sections searched, in the order their passages are interleaved (rank by rank).
SECTIONS: tuple[tuple[SectionName, PassageKind], ...] = (
    ("beliefs", "belief"),
    ("episodes", "episode"),
    ("rules", "rule"),
)
# Large enough that no section's token share drops an item a search asked for.
_BUDGET_TOKENS = 200_000


class GraphSource:
    """Beliefs, episodes and rules of the agent as passages (``origin="graph"``, ``ref`` = the
    node's id). Sections are searched as a context's are; their passages are interleaved rank by
    rank (beliefs first), since scores of different sections do not compare."""

    name = "graph"

    def __init__(
        self,
        graph: GraphClient,
        embedder: Embedder,
        settings: RetrievalSettings | None = None,
    ) -> None:
        self._graph = graph
        self._embedder = embedder
        self._settings = settings or RetrievalSettings()

    async def search(self, agent_id: str, query: str, *, limit: int) -> list[Passage]:
        """At most ``limit`` of the agent's beliefs, episodes and rules about ``query``.

        Raises:
            AgentNotFound: no such agent.
            GraphError: every section failed.
        """
        if limit < 1 or not query.strip():
            return []
        request = ContextRequest(
            q=query[:MAX_QUERY_CHARS],
            k=min(limit, 100),
            sections=[name for name, _ in SECTIONS],
            budget_tokens=_BUDGET_TOKENS,
        )
        context = await build_context(
            self._graph, self._embedder, self._settings, agent_id, request
        )
        failed = {name: s.error for name, s in context.sections.items() if s.error}
        if failed and len(failed) == len(SECTIONS):
            raise GraphError(f"the graph source failed: {failed}", sections=failed)
        for name, error in failed.items():
            log.warning("graph source: section %s failed for agent %s: %s", name, agent_id, error)
        per_section = [
            [_passage(kind, item) for item in context.sections[name].items]
            for name, kind in SECTIONS
        ]
        passages: list[Passage] = []
        seen: set[str] = set()
        for rank in itertools.zip_longest(*per_section):
            for passage in rank:
                if passage is None or passage.ref in seen or not passage.text.strip():
                    continue
                seen.add(passage.ref)
                passages.append(passage)
        return passages[:limit]


def _passage(kind: PassageKind, item: dict[str, Any]) -> Passage:
    if kind == "belief":
        title, text, published = "belief", str(item.get("statement") or ""), None
    elif kind == "episode":
        speaker = item.get("speaker")
        title = f"episode ({speaker})" if speaker else "episode"
        text = str(item.get("text") or "")
        published = _day(item.get("occurred_at"))
    else:
        trigger = item.get("trigger_concept")
        title = f"rule ({trigger})" if trigger else "rule"
        text, published = str(item.get("content") or ""), None
    return Passage(
        kind=kind,
        ref=str(item["id"]),
        title=title,
        origin="graph",
        text=text or "-",
        published=published,
        score=float(item.get("score") or 0.0),
    )


def _day(value: object) -> date | None:
    if isinstance(value, datetime):
        return value.date()
    return value if isinstance(value, date) else None
