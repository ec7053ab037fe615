"""Beliefs, rules and research-corpus passages written before documents stored the words they
are scored by (``lexical_terms``, ``token_count``: ``app/text/lexical.py`` ``scored_words``) get
them, a batch at a time under the agent's lock, the first time a search meets one of them; the
episodes' counterpart is ``app/memory/lexical_stats.py`` ``ensure_episode_terms``."""

from __future__ import annotations

from app.graph.agent_scope import lock_agent
from app.graph.client import GraphClient, Transaction
from app.text.lexical import counted_terms, tokens

# How many documents get their stored terms in one transaction.
TERMS_BATCH = 5000


async def ensure_short_text_terms(
    graph: GraphClient, label: str, fields: tuple[str, ...], agent_id: str
) -> int:
    """Gives the agent's documents of ``label`` (``Belief``, ``Rule`` or ``CorpusPassage``, text
    in ``fields``) that store no lexical terms their terms; returns how many got them."""
    stored = 0
    while True:

        async def work(tx: Transaction) -> int:
            await lock_agent(tx, agent_id)
            rows = await tx.run(
                "retrieval/list_short_texts_without_terms",
                label=label,
                fields=list(fields),
                agent_id=agent_id,
                limit=TERMS_BATCH,
            )
            documents = []
            for row in rows:
                words = tokens(str(row["text"]))
                documents.append(
                    {
                        "id": row["id"],
                        "lexical_terms": counted_terms(words),
                        "token_count": len(words),
                    }
                )
            if not documents:
                return 0
            done = await tx.run(
                "retrieval/store_short_text_terms",
                label=label,
                agent_id=agent_id,
                documents=documents,
            )
            return int(done[0]["stored"])

        batch = await graph.write_transaction(work, action=f"storing {label} lexical terms")
        if batch == 0:
            return stored
        stored += batch
