"""Search: ask every source the investigation names for passages about one hypothesis, and
record what they found as the investigation's ``Source`` nodes (a passage already found keeps
its node and its citation number)."""

from __future__ import annotations

import asyncio
import logging
import uuid

from app.graph.client import Transaction
from app.research.models import ResearchState
from app.research.services import ResearchServices, StepPlan
from app.research.sources.protocol import Passage, ResearchSource
from app.text.stopwords import CLAIM_STOP_WORDS
from app.text.words import tokens

log = logging.getLogger(__name__)


def query_for(statement: str, question: str, searches: int) -> str:
    """The n-th search's query: the hypothesis, then the question (when it differs), then the
    hypothesis' content words."""
    keywords = " ".join(token for token in tokens(statement) if token not in CLAIM_STOP_WORDS)
    queries = [statement]
    if question.strip().rstrip("?").lower() != statement.strip().rstrip(".").lower():
        queries.append(question)
    if keywords:
        queries.append(keywords)
    return queries[searches % len(queries)]


async def _search_one(
    source: ResearchSource, agent_id: str, query: str, limit: int
) -> tuple[str, list[Passage], str | None]:
    try:
        return source.name, await source.search(agent_id, query, limit=limit), None
    except Exception as error:  # one failing source must not fail the step
        log.warning("research source %s failed: %s", source.name, error)
        return source.name, [], f"{type(error).__name__}: {error}"


async def prepare(services: ResearchServices, state: ResearchState, hypothesis_id: str) -> StepPlan:
    """Searches the named sources (all of them concurrently) for the hypothesis."""
    investigation = state.investigation
    hypothesis = next(h for h in state.hypotheses if h.id == hypothesis_id)
    query = query_for(hypothesis.statement, investigation.question, hypothesis.searches)
    wanted = set(investigation.sources)
    sources = [s for s in services.sources if not wanted or s.name in wanted]
    results = await asyncio.gather(
        *(
            _search_one(
                source, investigation.agent_id, query, services.research.passages_per_source
            )
            for source in sources
        )
    )
    known = {(s.kind, s.ref): s for s in state.sources}
    number = max((s.number for s in state.sources), default=0)
    passages: list[dict[str, object]] = []
    seen: set[tuple[str, str]] = set()
    new = 0
    for source_name, found, _ in results:
        for passage in found:
            key = (passage.kind, passage.ref)
            if key in seen:
                continue
            seen.add(key)
            if key not in known:
                number += 1
                new += 1
            passages.append(
                {
                    "id": str(uuid.uuid4()),
                    "number": number if key not in known else known[key].number,
                    "source_name": source_name,
                    **passage.model_dump(),
                }
            )
    failures = {name: why for name, _, why in results if why is not None}

    async def write(tx: Transaction, step_id: str) -> None:
        await tx.run(
            "research/record_search",
            agent_id=investigation.agent_id,
            investigation_id=investigation.id,
            hypothesis_id=hypothesis.id,
            step_id=step_id,
            query=query,
            passages=passages,
        )

    return StepPlan(
        kind="search",
        summary=f"searched {', '.join(s.name for s in sources) or 'no source'} for “{query}”: "
        f"{len(passages)} passage(s), {new} new",
        write=write,
        details={
            "hypothesis_id": hypothesis.id,
            "query": query,
            "found": len(passages),
            "new": new,
            "failed_sources": failures,
        },
    )
