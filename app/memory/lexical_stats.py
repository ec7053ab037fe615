"""Each agent's lexical statistics, kept on every episode write (``app/text/lexical.py``): the
number of episodes, their total length and each counted term's document frequency, over the
agent's own episodes only (``cypher/lexical/``).

They are written in the transaction that writes the episodes, which holds the agent's lock. An
agent whose episodes were written before the statistics were kept gets them built from its
stored episodes the first time they are needed (on its next write, or its next search).

Each episode also stores the words it is scored by (``lexical_terms``: its counted tokens, in
order; ``token_count``: every token), so a search scores hundreds of matches without reading
their text; a turn's response joins them when the turn completes its episode
(``cypher/loop/episode_rows/complete_turn_episode.cypher``). Episodes written before they were
stored get them on the agent's next search (``app/retrieval/stored_terms.py``).
"""

from __future__ import annotations

from typing import Any

from app.graph.agent_scope import lock_agent
from app.graph.client import GraphClient, Transaction
from app.text.lexical import DocumentStats, document_text, scored_words


def episode_document(row: dict[str, Any]) -> str:
    """The words of an episode as the fulltext index holds them (search text, user message,
    response)."""
    return document_text(row.get("search_text"), row.get("user_message"), row.get("response"))


def add_scored_words(rows: list[dict[str, Any]]) -> None:
    """Gives each new episode (rows with ``search_text``, ``user_message``, ``response``) what
    it stores to be scored without its text: ``lexical_terms`` (its counted tokens, in order)
    and ``token_count`` (every token). Pure; a batch's caller runs it before its transaction."""
    for row in rows:
        row.update(scored_words(episode_document(row)))


async def add_episode_statistics(
    tx: Transaction, agent_id: str, rows: list[dict[str, Any]]
) -> None:
    """Counts new episodes (rows with ``lexical_terms`` and ``token_count``:
    :func:`add_scored_words`) into the agent's statistics, inside the caller's transaction
    (which holds the agent's lock and has not written them yet: statistics missing so far are
    built from the stored episodes first)."""
    stats = DocumentStats.of_scored(rows)
    # One round trip when the statistics exist (every write but an agent's first).
    if await tx.run("lexical/add_to_corpus", agent_id=agent_id, **_params(stats)):
        return
    await _ensure(tx, agent_id)
    await _add(tx, agent_id, stats)


async def ensure_statistics(graph: GraphClient, agent_id: str) -> None:
    """Builds the agent's statistics from its stored episodes when it has none (under its lock).

    Raises:
        AgentNotFound: no such agent.
    """

    async def work(tx: Transaction) -> None:
        await lock_agent(tx, agent_id)
        await _ensure(tx, agent_id)

    await graph.write_transaction(work, action="building lexical statistics")


async def _ensure(tx: Transaction, agent_id: str) -> None:
    if await tx.run("lexical/find_corpus", agent_id=agent_id):
        return
    stored = await tx.run("lexical/list_episode_texts", agent_id=agent_id)
    await _add(tx, agent_id, DocumentStats.of(episode_document(row) for row in stored))


async def _add(tx: Transaction, agent_id: str, stats: DocumentStats) -> None:
    await tx.run("lexical/add_statistics", agent_id=agent_id, **_params(stats))


def _params(stats: DocumentStats) -> dict[str, object]:
    return {
        "docs": stats.docs,
        "length": stats.length,
        "terms": [{"term": term, "df": df} for term, df in sorted(stats.df.items())],
    }
