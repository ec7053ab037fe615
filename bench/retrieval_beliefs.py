"""The belief section ranks by the same machinery as the episodes: a scripted check that the
fusion chosen for episodes (issue 12) did not make the belief ranking worse.

The shipped gaap-fundamentals pack is loaded into an agent (found again by name), then each of the
questions of ``bench/data/gaap_belief_questions.yaml`` (written for one belief each, in everyday
words) asks ``build_context`` for its belief section (k = 10) under each fusion: the current
settings, and reciprocal-rank fusion (the default before issue 12). Recall@1/3/5/10 of the
intended belief and MRR are printed per fusion.

Then the belief a turn would rest on (``app/loop/activation.py``): each question as a turn's
message retrieves ``beliefs_per_turn`` beliefs, the relevance model scores them, and the belief
chosen is compared with the intended one, for the loop's rule (``chosen_belief``: the highest
relevance weighted by strength, of those at or above the floor) and for the rule before it (the
first found at or above the floor, in the search's order).

    .venv/bin/python bench/retrieval_beliefs.py
"""

from __future__ import annotations

import asyncio
import statistics
import sys
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

from retrieval_locomo import find_agent

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.config import Settings, get_settings
from app.embeddings.embedder import Embedder, shared_embedder
from app.graph.client import GraphClient
from app.loop.activation import chosen_belief, relevance_scores
from app.packs.loader import load_pack
from app.retrieval.context import build_context
from app.retrieval.models import ContextRequest
from app.retrieval.settings import RetrievalSettings
from app.seeds.files import find_pack

QUESTIONS = Path(__file__).resolve().parent / "data" / "gaap_belief_questions.yaml"
AGENT_NAME = "belief-ranking-check"
KS = (1, 3, 5, 10)


def load_questions(path: Path = QUESTIONS) -> tuple[str, list[dict[str, str]]]:
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return str(data["pack"]), list(data["questions"])


def normalised(text: str) -> str:
    return " ".join(text.split())


async def rank_of_intended(
    graph: GraphClient,
    embedder: Embedder,
    retrieval: RetrievalSettings,
    agent_id: str,
    question: str,
    statement: str,
) -> int | None:
    """The 1-based rank of the intended belief in the belief section, None when absent."""
    request = ContextRequest(q=question, k=10, sections=["beliefs"])
    context = await build_context(graph, embedder, retrieval, agent_id, request)
    section = context.sections["beliefs"]
    if section.error:
        raise SystemExit(f"belief section failed: {section.error}")
    ranked = [normalised(str(item["statement"])) for item in section.items]
    wanted = normalised(statement)
    return ranked.index(wanted) + 1 if wanted in ranked else None


async def rests_on(
    graph: GraphClient,
    embedder: Embedder,
    settings: Settings,
    agent_id: str,
    question: str,
    statement: str,
) -> tuple[str, str]:
    """Whether a turn with ``question`` as its message rests on the intended belief
    (``intended``, ``another``, ``none``), under the loop's rule and under the first-found rule."""
    loop = settings.loop
    request = ContextRequest(q=question, k=loop.beliefs_per_turn, sections=["beliefs"])
    context = await build_context(graph, embedder, settings.retrieval, agent_id, request)
    items = context.sections["beliefs"].items
    scores, cosine = await relevance_scores(
        embedder, question, items, model=loop.relevance_embedding_model
    )
    relevance = {item["id"]: score for item, score in zip(items, scores, strict=True)}
    floor = loop.relevance_floor if cosine else loop.relevance_floor_tokens
    best = chosen_belief(items, relevance, floor, settings.retrieval.belief_strength_floor)
    first = next(
        (i["id"] for i in items if i.get("via") == "search" and relevance[i["id"]] >= floor), None
    )
    statements = {item["id"]: normalised(str(item["statement"])) for item in items}

    def label(chosen: str | None) -> str:
        if chosen is None:
            return "none"
        return "intended" if statements[chosen] == normalised(statement) else "another"

    return label(best), label(first)


def figures(ranks: list[int | None]) -> dict[str, float]:
    out = {f"R@{k}": statistics.fmean(r is not None and r <= k for r in ranks) for k in KS}
    out["MRR"] = statistics.fmean(1 / r if r is not None else 0.0 for r in ranks)
    return out


async def main() -> int:
    settings = get_settings()
    embedder = shared_embedder(settings.embeddings)
    pack_name, questions = load_questions()
    pack = find_pack(pack_name)
    statements = {belief.key: belief.statement for belief in pack.beliefs}
    graph = GraphClient.from_settings(settings.neo4j)
    try:
        agent_id = await find_agent(settings, AGENT_NAME)
        if agent_id is None:
            agent_id = (await create_agent(graph, AgentCreate(name=AGENT_NAME))).id
        await load_pack(graph, embedder, settings.mechanics, agent_id, pack)
        fusions = {
            f"current ({settings.retrieval.fusion})": settings.retrieval,
            "rrf (before issue 12)": settings.retrieval.model_copy(update={"fusion": "rrf"}),
        }
        print(f"{len(questions)} questions for the {pack_name} pack ({len(statements)} beliefs)")
        for name, retrieval in fusions.items():
            ranks = [
                await rank_of_intended(
                    graph, embedder, retrieval, agent_id, q["q"], statements[q["key"]]
                )
                for q in questions
            ]
            line = "  ".join(f"{k} {v:.3f}" for k, v in figures(ranks).items())
            print(f"  {name:24s} {line}")
        rests = [
            await rests_on(graph, embedder, settings, agent_id, q["q"], statements[q["key"]])
            for q in questions
        ]
        print("the belief a turn rests on (the intended one / another / none relevant):")
        for index, rule in enumerate(("highest relevance x strength", "first found (before)")):
            chosen = [outcome[index] for outcome in rests]
            counts = {label: chosen.count(label) for label in ("intended", "another", "none")}
            print(f"  {rule:30s} " + " / ".join(str(n) for n in counts.values()))
    finally:
        await graph.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
