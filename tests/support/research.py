"""Research-mode test helpers: an in-memory ResearchSource over a list of passages (token
overlap ranking), VitaminC claims with conflicting evidence, and the services an investigation
runs with."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any

from app.config import Settings
from app.embeddings.embedder import Embedder
from app.graph.client import GraphClient
from app.reasoning.protocol import Reasoner
from app.research.services import ResearchServices
from app.research.settings import ResearchSettings
from app.research.sources.protocol import Passage, ResearchSource
from app.research.sources.registry import SourceRegistry
from app.text.words import token_similarity
from tools.eval_data.vitaminc import find_vitaminc


class ListSource:
    """Passages held in memory, ranked by token overlap with the query (a stand-in for a
    corpus in unit-sized tests). ``delay_s`` makes each search slow (to kill a run mid-step)."""

    def __init__(self, passages: Sequence[Passage], name: str = "memory", delay_s: float = 0.0):
        self.name = name
        self.passages = list(passages)
        self.delay_s = delay_s

    async def search(self, agent_id: str, query: str, *, limit: int) -> list[Passage]:
        if self.delay_s:
            await asyncio.sleep(self.delay_s)
        scored = [(token_similarity(query, f"{p.title} {p.text}"), p) for p in self.passages]
        ranked = sorted((s for s in scored if s[0] > 0), key=lambda s: -s[0])[:limit]
        return [p.model_copy(update={"score": score}) for score, p in ranked]


def vitaminc_rows() -> list[dict[str, Any]]:
    """The rows of the VitaminC dev slice (the shared data, else the repository's first 400)."""
    path = find_vitaminc()
    assert path is not None, "no VitaminC data: tests/fixtures/vitaminc/ is missing"
    with path.open() as lines:
        return [json.loads(line) for line in lines]


def passage_of(row: dict[str, Any], number: int) -> Passage:
    return Passage(
        kind="corpus",
        ref=f"vitaminc-dev:{number}",
        title=row["page"],
        origin="vitaminc_dev.jsonl",
        text=row["evidence"],
        score=0.0,
    )


def services_for(
    graph: GraphClient,
    settings: Settings,
    reasoner: Reasoner,
    embedder: Embedder,
    sources: Sequence[ResearchSource],
    research: ResearchSettings | None = None,
) -> ResearchServices:
    return ResearchServices(
        graph=graph,
        reasoner=reasoner,
        embedder=embedder,
        mechanics=settings.mechanics,
        loop=settings.loop,
        retrieval=settings.retrieval,
        research=research or ResearchSettings(),
        sources=SourceRegistry(sources),
    )
