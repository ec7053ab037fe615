"""Search: ask every source the investigation names for passages about one hypothesis, and
record what they found as the investigation's ``Source`` nodes (a passage already found keeps
its node and its citation number)."""

from __future__ import annotations

import logging
import uuid

from app.graph.client import Transaction
from app.research.models import ResearchState
from app.research.services import ResearchServices, StepPlan
from app.research.sources.registry import SourceSearch
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


def _summary(found: SourceSearch, passages: int, new: int, *, counted: bool) -> str:
    """The step's line: what was searched for, what came back, each source that failed."""
    return (
        f"searched {', '.join(found.sources) or 'no source'} for “{found.query}”: "
        f"{passages} passage(s), {new} new"
        + "".join(
            f"; {n} failed ({w[:80] + '…' * (len(w) > 80)})" for n, w in found.failures.items()
        )
        + ("" if counted else "; not counted: no source answered")
    )


def answering_sources(found: SourceSearch) -> list[str]:
    """The sources asked that answered the search: neither failed, nor returned nothing while
    parts of them failed (a ``tools`` source all of whose tools failed)."""
    returned = {passage.source for passage in found.passages}
    return [
        name
        for name in found.sources
        if name not in found.failures
        and (name in returned or not any(key.startswith(f"{name}/") for key in found.failures))
    ]


async def prepare(services: ResearchServices, state: ResearchState, hypothesis_id: str) -> StepPlan:
    """Searches the named sources (all of them concurrently) for the hypothesis."""
    investigation = state.investigation
    hypothesis = next(h for h in state.hypotheses if h.id == hypothesis_id)
    query = query_for(hypothesis.statement, investigation.question, hypothesis.searches)
    found = await services.sources.search_all(
        investigation.agent_id,
        query,
        services.research.passages_per_source,
        sources=investigation.sources or None,
    )
    # A belief an investigation created restates sources already judged: not evidence again.
    belief_refs = [p.ref for p in found.passages if p.kind == "belief"]
    derived = (
        {
            row["id"]
            for row in await services.graph.read(
                "research/steps/list_research_beliefs",
                agent_id=investigation.agent_id,
                ids=belief_refs,
            )
        }
        if belief_refs
        else set()
    )
    kept = [p for p in found.passages if not (p.kind == "belief" and p.ref in derived)]
    known = {(s.kind, s.ref): s for s in state.sources}
    number = max((s.number for s in state.sources), default=0)
    passages: list[dict[str, object]] = []
    new = 0
    for passage in kept:
        key = (passage.kind, passage.ref)
        if key not in known:
            number += 1
            new += 1
        data = passage.model_dump(exclude={"source"})
        passages.append(
            {
                "id": str(uuid.uuid4()),
                "number": known[key].number if key in known else number,
                "source_name": passage.source,
                **data,
            }
        )

    answered = answering_sources(found)

    async def write(tx: Transaction, step_id: str) -> None:
        await tx.run(
            "research/steps/record_search",
            agent_id=investigation.agent_id,
            investigation_id=investigation.id,
            hypothesis_id=hypothesis.id,
            step_id=step_id,
            query=query,
            passages=passages,
            failed_sources=list(found.failures),
            answered=answered,
            counted=bool(answered),
        )

    return StepPlan(
        kind="search",
        summary=_summary(found, len(passages), new, counted=bool(answered)),
        write=write,
        details={
            "hypothesis_id": hypothesis.id,
            "query": query,
            "found": len(passages),
            "new": new,
            "failed_sources": found.failures,
            # Every source failed: the search does not use up one of the hypothesis'.
            "counted": bool(answered),
            "skipped_research_beliefs": len(found.passages) - len(kept),
        },
    )
