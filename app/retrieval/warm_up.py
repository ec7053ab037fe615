"""The context's query plans made at start-up (``CREDENCE_RETRIEVAL__WARM_UP_ON_START``).

Neo4j plans a query the first time it sees its text with parameters of those types, which
takes the first context after a Neo4j start ~2-6 s on two cores (bench/README.md, issue 38).
The API therefore asks, in the background as it starts, a few questions of an agent that
exists: a real agent's request sends the same parameter types a user's will (a warm-up with an
unknown agent does not: its lists are empty, its maps missing). The questions have the shapes
that make a context run different queries: one naming a speaker of the agent, one naming two,
one naming nobody, and a long multi-line query. Nothing is written but what any context writes
(the stored words of documents written before they were stored).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass

from app.errors import CredenceError
from app.retrieval.models import ContextRequest
from app.retrieval.services import RetrievalServices

log = logging.getLogger(__name__)

NOBODY = ("Alex", "Sam")


@dataclass(frozen=True, slots=True)
class WarmUp:
    """What the warm-up asked: of which agent (None: the graph has no agent) and how many
    questions."""

    agent_id: str | None
    questions: int


def warm_up_questions(speakers: Sequence[str]) -> list[str]:
    """The questions asked: names from ``speakers`` (the agent's, most frequent first), else
    two that the agent need not know."""
    first, second = (list(speakers) + list(NOBODY))[:2]
    conversation = "\n".join(
        [
            f"{first}: I went through the numbers for the quarter again this morning.",
            f"{second}: Did anything change since we last talked about the budget?",
            f"{first}: Two invoices were late and the forecast moved a little.",
            f"{second}: What did we decide to do about the late payments?",
        ]
    )
    return [
        f"What did {first} say about the plan?",
        f"What did {first} and {second} each decide last week?",
        "What do we know about the budget?",
        conversation,
    ]


async def warm_context_plans(retrieval: RetrievalServices, agent_id: str | None = None) -> WarmUp:
    """Asks the warm-up's questions of ``agent_id`` (None: an agent of the graph that has
    spoken episodes, else any) with every section and the defaults, one after the other;
    nothing when the graph has no agent.

    Raises:
        CredenceError: a read failed (Neo4j unavailable, ...); the caller logs it.
    """
    rows = await retrieval.graph.read("retrieval/warm_up_subject", agent_id=agent_id)
    agent_id = rows[0]["agent_id"] if rows else None
    if agent_id is None:
        return WarmUp(None, 0)
    questions = warm_up_questions(rows[0]["speakers"])
    for question in questions:
        await retrieval.context(agent_id, ContextRequest(q=question))
    return WarmUp(agent_id, len(questions))


async def warm_up_logged(retrieval: RetrievalServices) -> None:
    """:func:`warm_context_plans`, its outcome logged (a failure too: it raises none but its
    cancellation)."""
    started = time.perf_counter()
    try:
        done = await warm_context_plans(retrieval)
    except CredenceError as error:
        log.warning("the context's query plans not warmed up: %s", error.message)
        return
    except Exception:
        # Only an optimisation: the API keeps serving; the first requests plan instead.
        log.exception("the context's query plans not warmed up")
        return
    if done.agent_id is None:
        log.info("no agent yet: the context's query plans are made by the first request")
        return
    log.info(
        "the context's query plans warmed up: %d questions of agent %s in %.0f ms",
        done.questions,
        done.agent_id,
        (time.perf_counter() - started) * 1000,
    )
