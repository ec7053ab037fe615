"""Documents written before documents stored the words they are scored by (``lexical_terms``,
``token_count``: ``app/text/lexical.py`` ``scored_words``) get them, a batch at a time under the
agent's lock, the first time a search meets one of them: episodes, and beliefs, rules and
research-corpus passages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.graph.batches import in_locked_batches
from app.graph.client import GraphClient, Row, Transaction
from app.memory.lexical_stats import episode_document
from app.text.lexical import scored_words

# How many documents get their stored terms in one transaction.
TERMS_BATCH = 5000


async def ensure_episode_terms(graph: GraphClient, agent_id: str) -> int:
    """Gives the agent's episodes that store no lexical terms their terms (from their search
    text, message and response); returns how many got them."""
    return await _store_missing(
        graph,
        agent_id,
        ("retrieval/list_episodes_without_terms", "retrieval/store_episode_terms"),
        {},
        episode_document,
    )


async def ensure_short_text_terms(
    graph: GraphClient, label: str, fields: tuple[str, ...], agent_id: str
) -> int:
    """Gives the agent's documents of ``label`` (``Belief``, ``Rule`` or ``CorpusPassage``, text
    in ``fields``) that store no lexical terms their terms; returns how many got them."""
    return await _store_missing(
        graph,
        agent_id,
        ("retrieval/list_short_texts_without_terms", "retrieval/store_short_text_terms"),
        {"label": label, "fields": list(fields)},
        lambda row: str(row["text"]),
    )


async def _store_missing(
    graph: GraphClient,
    agent_id: str,
    queries: tuple[str, str],
    params: dict[str, Any],
    text_of: Callable[[Row], str],
) -> int:
    """Runs ``queries`` (the list of documents without terms, the store of their terms) with
    ``params``, a batch at a time, until none is left; ``text_of``: a listed row's text."""
    listed, stored = queries

    async def step(tx: Transaction, _after: str) -> tuple[int, str | None]:
        # Documents given their terms leave the list, so each batch reads it from the start.
        rows = await tx.run(listed, agent_id=agent_id, limit=TERMS_BATCH, **params)
        documents = [{"id": row["id"], **scored_words(text_of(row))} for row in rows]
        if not documents:
            return 0, None
        done = await tx.run(stored, agent_id=agent_id, documents=documents, **params)
        count = int(done[0]["stored"])
        return count, ("" if count else None)

    return await in_locked_batches(graph, agent_id, step, action="storing documents' lexical terms")
