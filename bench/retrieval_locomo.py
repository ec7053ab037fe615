"""Retrieval quality on the LoCoMo development split: Credence's real episode retrieval against
BM25, turn by turn, as ``../shared/eval-data/locomo-dev/SOURCE.md`` describes.

One agent per conversation (``locomo-<sample_id>``); every turn is imported as one episode
through the real import path (``import_episodes``): external id = ``dia_id``, speaker, text (plus
`` [image: <blip_caption>]`` for a shared photo), occurred_at = the session's date (each turn one
second after the one before, so the order survives), session = ``<sample_id>-s<N>``. Every
question with gold evidence is asked through ``build_context`` (episodes section only, k = 10) in
the three retrieval modes, and scored:

- Recall@k = |gold ∩ top k| / |gold| for k in {1, 3, 5, 10}, averaged over questions;
- MRR = 1 / rank of the first gold turn in the top 10 (0 when none), averaged;
- overall, per conversation and per category (1 multi-hop, 2 temporal, 3 open-domain,
  4 single-hop, 5 adversarial).

The BM25 baseline (k1 1.2, b 0.75, Lucene's idf, lower-cased ``\\w+`` tokens) ranks the same turn
texts of the question's own conversation (the same code as ``bench/retrieval_madial.py``).

    .venv/bin/python bench/retrieval_locomo.py                     # import (idempotent), score
    .venv/bin/python bench/retrieval_locomo.py --set rrf_k=30 --set vector_weight=1
    .venv/bin/python bench/retrieval_locomo.py --mode fused --markdown locomo.md
    .venv/bin/python bench/retrieval_locomo.py --no-keep           # delete the agents after

The agents are found again by name on the next run, so a second run only scores (the import of
already-stored turns is a look-up). ``--fresh`` creates new agents. The episodes' keyword half is
scored on each agent's own statistics (issue 22), so other agents' episodes do not move these
figures (up to which 100 matching turns Lucene returns for re-scoring).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import neo4j

sys.path.insert(0, str(Path(__file__).resolve().parent))

from retrieval_madial import (
    KS,
    TOP,
    Bm25,
    Result,
    delete_agent,
    markdown_table,
    score,
    settings_line,
    text_table,
)

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.config import Settings, get_settings
from app.embeddings.embedder import shared_embedder
from app.graph.client import GraphClient
from app.memory.episodes import EpisodeBatch, EpisodeIn, import_episodes
from app.retrieval.context import build_context
from app.retrieval.models import ContextRequest, Mode
from app.retrieval.settings import RetrievalSettings

DEFAULT_DATA = Path(
    os.environ.get(
        "LOCOMO_DEV_FILE",
        str(
            Path(__file__).resolve().parents[2]
            / "shared"
            / "eval-data"
            / "locomo-dev"
            / "locomo_dev.json"
        ),
    )
)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
MODES: tuple[Mode, ...] = ("fused", "vector", "fulltext")
_SESSION = re.compile(r"^session_(\d+)$")
_EVIDENCE_SPLIT = re.compile(r"[;\s]+")


@dataclass(frozen=True)
class Turn:
    dia_id: str
    speaker: str
    text: str
    session: str
    occurred_at: datetime


@dataclass(frozen=True)
class Question:
    """One question with its gold turns; ``index`` / ``relevant`` as ``score`` reads them."""

    index: int
    conversation: str
    text: str
    category: int
    relevant: frozenset[str]


@dataclass(frozen=True)
class Conversation:
    sample_id: str
    turns: list[Turn]
    questions: list[Question]


def session_time(text: str) -> datetime:
    """``1:56 pm on 8 May, 2023`` as a UTC time."""
    return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)


def turn_text(turn: dict[str, Any]) -> str:
    caption = turn.get("blip_caption")
    return f"{turn['text']} [image: {caption}]" if caption else str(turn["text"])


def load_conversations(path: Path) -> list[Conversation]:
    conversations: list[Conversation] = []
    for raw in json.loads(path.read_text()):
        sample_id = raw["sample_id"]
        body = raw["conversation"]
        turns: list[Turn] = []
        numbers = sorted(int(m[1]) for key in body if (m := _SESSION.match(key)))
        for number in numbers:
            start = session_time(body[f"session_{number}_date_time"])
            for offset, turn in enumerate(body[f"session_{number}"]):
                turns.append(
                    Turn(
                        dia_id=turn["dia_id"],
                        speaker=turn["speaker"],
                        text=turn_text(turn),
                        session=f"{sample_id}-s{number}",
                        occurred_at=start + timedelta(seconds=offset),
                    )
                )
        known = {turn.dia_id for turn in turns}
        questions: list[Question] = []
        for item in raw["qa"]:
            gold = frozenset(
                piece
                for evidence in item.get("evidence") or []
                for piece in _EVIDENCE_SPLIT.split(str(evidence))
                if piece in known
            )
            if gold:
                questions.append(
                    Question(
                        index=len(questions),
                        conversation=sample_id,
                        text=str(item["question"]),
                        category=int(item["category"]),
                        relevant=gold,
                    )
                )
        conversations.append(Conversation(sample_id=sample_id, turns=turns, questions=questions))
    return conversations


FIND_AGENT = """
MATCH (a:Agent {name: $name})
RETURN a.id AS id ORDER BY a.created_at DESC LIMIT 1
"""


async def find_agent(settings: Settings, name: str) -> str | None:
    neo = settings.neo4j
    driver = neo4j.AsyncGraphDatabase.driver(
        neo.uri, auth=(neo.user, neo.password.get_secret_value())
    )
    try:
        records, _, _ = await driver.execute_query(
            FIND_AGENT, name=name, database_=neo.database, routing_=neo4j.RoutingControl.READ
        )
    finally:
        await driver.close()
    return str(records[0]["id"]) if records else None


async def agent_for(
    graph: GraphClient, settings: Settings, conversation: Conversation, fresh: bool
) -> tuple[str, bool]:
    name = f"locomo-{conversation.sample_id}"
    found = None if fresh else await find_agent(settings, name)
    if found:
        return found, False
    return (await create_agent(graph, AgentCreate(name=name))).id, True


async def import_turns(
    graph: GraphClient,
    embedder: Any,
    retrieval: RetrievalSettings,
    agent_id: str,
    conversation: Conversation,
) -> str:
    batch = EpisodeBatch(
        episodes=[
            EpisodeIn(
                external_id=turn.dia_id,
                speaker=turn.speaker,
                text=turn.text,
                occurred_at=turn.occurred_at,
                session=turn.session,
            )
            for turn in conversation.turns
        ]
    )
    started = time.perf_counter()
    report = await import_episodes(graph, embedder, retrieval, agent_id, batch)
    seconds = time.perf_counter() - started
    return f"{report.created} created, {report.existing} already there in {seconds:.1f} s"


def subset(result: Result, questions: Sequence[Question], rankings: Sequence[Sequence[str]],
           keep: Sequence[int]) -> Result:  # fmt: skip
    chosen = [questions[i] for i in keep]
    return score(result.system, result.variant, chosen, [rankings[i] for i in keep])


def overridden(base: RetrievalSettings, assignments: Sequence[str]) -> RetrievalSettings:
    values = base.model_dump()
    for assignment in assignments:
        name, _, raw = assignment.partition("=")
        if name not in values:
            raise SystemExit(f"--set {assignment}: RetrievalSettings has no field {name!r}")
        values[name] = json.loads(raw)
    return RetrievalSettings.model_validate(values)


async def rank_with_credence(
    graph: GraphClient,
    embedder: Any,
    retrieval: RetrievalSettings,
    agents: dict[str, str],
    questions: Sequence[Question],
    mode: Mode,
) -> tuple[Result, list[list[str]]]:
    """Every question through ``build_context`` (episodes only, k = 10) of its conversation's
    agent; the rankings are kept for the per-group figures."""
    rankings: list[list[str]] = []
    latency: list[float] = []
    errors: list[str] = []
    for question in questions:
        request = ContextRequest(q=question.text, k=TOP, sections=["episodes"], mode=mode)
        started = time.perf_counter()
        context = await build_context(
            graph, embedder, retrieval, agents[question.conversation], request
        )
        latency.append((time.perf_counter() - started) * 1000)
        section = context.sections["episodes"]
        if section.error:
            errors.append(f"{question.conversation} #{question.index}: {section.error}")
        rankings.append([str(item["external_id"]) for item in section.items])
    if errors:
        print(f"   {mode}: {len(errors)} section errors, first: {errors[0]}")
    total = score(mode, "question", questions, rankings)
    total.latency_ms = latency
    return total, rankings


def figure_rows(label: str, result: Result) -> list[str]:
    recall = [f"{result.recall[k]:.3f}" for k in KS]
    p50 = f"{statistics.median(result.latency_ms):.1f}" if result.latency_ms else "—"
    p95 = (
        f"{statistics.quantiles(result.latency_ms, n=20)[-1]:.1f}"
        if len(result.latency_ms) >= 20
        else "—"
    )
    return [label, result.system, *recall, f"{result.mrr:.3f}", p50, p95]


def groups(questions: Sequence[Question]) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {"all": list(range(len(questions)))}
    for i, question in enumerate(questions):
        found.setdefault(question.conversation, []).append(i)
    for i, question in enumerate(questions):
        found.setdefault(f"cat {question.category} {CATEGORIES[question.category]}", []).append(i)
    return found


async def main(args: argparse.Namespace) -> int:
    settings = get_settings()
    retrieval = overridden(settings.retrieval, args.set or [])
    embedder = shared_embedder(settings.embeddings)
    conversations = load_conversations(args.data)
    questions = [q for c in conversations for q in c.questions]
    print(
        f"LoCoMo dev: {len(conversations)} conversations, "
        f"{sum(len(c.turns) for c in conversations)} turns, {len(questions)} questions; "
        f"retrieval: {settings_line(retrieval)}"
    )
    graph = GraphClient.from_settings(settings.neo4j)
    agents: dict[str, str] = {}
    created: list[str] = []
    try:
        for conversation in conversations:
            agent_id, new = await agent_for(graph, settings, conversation, args.fresh)
            agents[conversation.sample_id] = agent_id
            if new:
                created.append(agent_id)
            imported = await import_turns(graph, embedder, retrieval, agent_id, conversation)
            print(f"   {conversation.sample_id}: agent {agent_id}: {imported}")
        bm25_rankings = []
        corpora = {
            c.sample_id: Bm25([t.dia_id for t in c.turns], [t.text for t in c.turns])
            for c in conversations
        }
        for question in questions:
            bm25_rankings.append(corpora[question.conversation].rank(question.text))
        results = [(score("BM25", "question", questions, bm25_rankings), bm25_rankings)]
        for mode in args.mode or MODES:
            results.append(
                await rank_with_credence(graph, embedder, retrieval, agents, questions, mode)
            )
        header = ["questions", "system", *(f"R@{k}" for k in KS), "MRR@10", "p50 ms", "p95 ms"]
        rows: list[list[str]] = []
        for label, keep in groups(questions).items():
            for result, rankings in results:
                part = result if label == "all" else subset(result, questions, rankings, keep)
                rows.append(figure_rows(f"{label} ({len(keep)})", part))
        print(text_table(header, rows))
        if args.markdown:
            args.markdown.write_text(markdown_table(header, rows) + "\n")
    finally:
        if not args.keep:
            for agent_id in created:
                await delete_agent(graph, agent_id)
            print(f"deleted {len(created)} bench agent(s) (--no-keep)")
        await graph.close()
    return 0


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="locomo_dev.json")
    parser.add_argument("--mode", action="append", choices=MODES, help="repeatable")
    parser.add_argument(
        "--set",
        action="append",
        metavar="FIELD=JSON",
        help="override any RetrievalSettings field, e.g. --set rrf_k=30",
    )
    parser.add_argument("--fresh", action="store_true", help="new agents, even if some exist")
    parser.add_argument("--keep", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--markdown", type=Path, help="also write the table as markdown")
    return parser.parse_args(argv)


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(parse_args())))
