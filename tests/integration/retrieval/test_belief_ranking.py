"""The belief section ranks by the episode section's fusion (issue 12) and is no worse for it:
the shipped gaap-fundamentals pack, questions written for its beliefs
(bench/data/gaap_belief_questions.yaml), score fusion against reciprocal-rank fusion."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from fastapi.testclient import TestClient

from app.config import Settings
from app.embeddings.embedder import shared_embedder
from app.graph.client import GraphClient
from app.retrieval.context import build_context
from app.retrieval.models import ContextRequest
from app.retrieval.settings import RetrievalSettings
from app.seeds.files import find_pack

QUESTIONS = Path(__file__).parents[3] / "bench" / "data" / "gaap_belief_questions.yaml"


async def _ranks(
    graph: GraphClient, retrieval: RetrievalSettings, agent: str, questions: list[dict[str, str]]
) -> list[int | None]:
    statements = {
        b.key: " ".join(b.statement.split()) for b in find_pack("gaap-fundamentals").beliefs
    }
    embedder = shared_embedder(Settings().embeddings)
    ranks: list[int | None] = []
    for question in questions:
        context = await build_context(
            graph, embedder, retrieval, agent, ContextRequest(q=question["q"], sections=["beliefs"])
        )
        ranked = [" ".join(str(i["statement"]).split()) for i in context.sections["beliefs"].items]
        wanted = statements[question["key"]]
        ranks.append(ranked.index(wanted) + 1 if wanted in ranked else None)
    return ranks


def _recall(ranks: list[int | None], k: int) -> float:
    return sum(r is not None and r <= k for r in ranks) / len(ranks)


async def test_score_fusion_ranks_pack_beliefs_no_worse_than_rank_fusion(
    client: TestClient, agent: str, graph: GraphClient
) -> None:
    response = client.post(f"/v1/agents/{agent}/packs/gaap-fundamentals/load")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = yaml.safe_load(QUESTIONS.read_text(encoding="utf-8"))
    questions: list[dict[str, str]] = data["questions"]

    current = await _ranks(graph, RetrievalSettings(), agent, questions)
    before = await _ranks(graph, RetrievalSettings(fusion="rrf"), agent, questions)

    assert RetrievalSettings().fusion == "score"
    for k in (5, 10):
        assert _recall(current, k) >= _recall(before, k), k
    assert _recall(current, 10) >= 0.9
