"""The decisions section of a context: the agent's recent past decisions that bear on the query,
one line each in seed 002's format, ``- [outcome] description (confidence: c)``.

Decisions carry no vector; the agent's newest ones (``decision_scan``, 200) are read
(``cypher/retrieval/recent_decisions.cypher``) and ranked by BM25 of the query's words on their
descriptions (the statistics of those decisions), then by recency; one that says none of the
query's words is left out. The confidence is the one its outcome finalised (success 0.8,
partial 0.5, failure or rejection 0.3: ``app/loop/decisions.py``), else the one it was proposed
with.
"""

from __future__ import annotations

from typing import Any

from app.graph.client import GraphClient
from app.graph.times import datetime_of
from app.text.lexical import DocumentStats, bm25, counted, tokens


def decision_line(outcome: str | None, description: str, confidence: float | None) -> str:
    """Seed 002's line of a past decision in the context (an unknown outcome reads pending)."""
    shown = "unknown" if confidence is None else f"{confidence:.2f}"
    return f"- [{outcome or 'pending'}] {description} (confidence: {shown})"


async def decision_items(
    graph: GraphClient, agent_id: str, text: str, k: int, *, scan: int
) -> list[dict[str, Any]]:
    """The ``k`` past decisions of the agent most relevant to ``text`` among its ``scan``
    newest, most relevant first and,
    among equally relevant ones, newest first: ``id``, ``description``, ``outcome``,
    ``confidence``, ``mode``, ``verb``, ``created_at``, ``resolved_at``, ``score`` (the BM25
    score over the best one's, in (0, 1]) and ``line`` (``decision_line``)."""
    terms = list(dict.fromkeys(term for term in tokens(text) if counted(term)))
    if not terms:
        return []
    rows = await graph.read_collected("retrieval/recent_decisions", agent_id=agent_id, scan=scan)
    texts = {row["id"]: str(row["description"] or "") for row in rows}
    stats = DocumentStats.of(texts.values())
    scores = bm25(terms, texts, stats.docs, stats.length, stats.df)
    if not scores:
        return []
    best = max(scores.values())
    newest = {row["id"]: rank for rank, row in enumerate(rows)}
    ranked = sorted(scores, key=lambda doc: (-round(scores[doc], 9), newest[doc]))[:k]
    by_id = {row["id"]: row for row in rows}
    return [
        {
            **by_id[doc],
            "created_at": datetime_of(by_id[doc]["created_at"]),
            "resolved_at": datetime_of(by_id[doc]["resolved_at"]),
            "score": scores[doc] / best,
            "line": decision_line(by_id[doc]["outcome"], texts[doc], by_id[doc]["confidence"]),
        }
        for doc in ranked
    ]
