"""The built-in sections of a context, one Cypher query each (``cypher/retrieval/``).

Each query does its reciprocal-rank fusion over the agent-scoped vector and fulltext indexes and
its section's weighting in the database; here only the parameters are put together.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from app.graph.client import GraphClient
from app.retrieval.coverage import coverage_hits, question_subjects
from app.retrieval.diversity import diversified
from app.retrieval.lexical import episode_hits
from app.retrieval.models import Mode
from app.retrieval.settings import RetrievalSettings
from app.text.dates import asks_when, mentioned_dates
from app.text.lucene import agent_clause, lucene_terms

Rows = list[dict[str, Any]]


@dataclass(frozen=True)
class SectionSearch:
    """One query of one agent, as every section searches it.

    ``embedding`` is None in fulltext mode or when embeddings do not work; ``terms`` is None in
    vector mode.
    """

    graph: GraphClient
    settings: RetrievalSettings
    agent_id: str
    text: str
    k: int
    mode: Mode
    now: datetime
    embedding: list[float] | None
    terms: str | None

    def weights(self, vector_share: float | None = None) -> dict[str, Any]:
        """How the indexes are fused (``vector_share``: the section's own, else the common one):
        a mode that leaves out one index does not search it, and neither does a fusion that gives
        it no weight."""
        s = self.settings
        vector_mode, fulltext_mode = self.mode != "fulltext", self.mode != "vector"
        wanted = s.vector_share if vector_share is None else vector_share
        share = wanted if vector_mode and fulltext_mode else float(vector_mode)
        if s.fusion == "score":
            vector_on, fulltext_on = vector_mode and share > 0, fulltext_mode and share < 1
        else:
            vector_on = vector_mode and s.vector_weight > 0
            fulltext_on = fulltext_mode and s.fulltext_weight > 0
        return {
            "fusion": s.fusion,
            "vector_on": vector_on,
            "fulltext_on": fulltext_on,
            "vector_share": share,
            "rrf_k": s.rrf_k,
            "vector_weight": s.vector_weight if vector_on else 0.0,
            "fulltext_weight": s.fulltext_weight if fulltext_on else 0.0,
        }

    def common(self) -> dict[str, Any]:
        """The parameters every fused search takes."""
        return {
            "agent_id": self.agent_id,
            "agent_clause": agent_clause(self.agent_id),
            "embedding": self.embedding,
            "terms": self.terms,
            "candidates": max(self.settings.candidates, self.k),
            "k": self.k,
        }

    async def beliefs(self) -> Rows:
        """Beliefs weighted by strength, the top ones expanded one hop along their edges."""
        w = {
            **self.weights(self.settings.belief_vector_share),
            "strength_floor": self.settings.belief_strength_floor,
            "expand_top": self.settings.expand_top,
            "expansion_factor": self.settings.expansion_factor,
        }
        return await self.graph.read("retrieval/search_beliefs", w=w, **self.common())

    async def episodes(self) -> Rows:
        """Episodes weighted by salience, interference, outcome and recency (with their own
        vector share when one is set and the query has a vector; without a vector, the common
        share keeps the fulltext index in). The lexical half is scored on the agent's own
        statistics (``lexical.py``) before the fused query; the coverage half (``coverage.py``)
        follows the question's subjects to the episodes that mention them."""
        own = self.settings.episode_vector_share if self.embedding is not None else None
        long_share = self.settings.long_query_vector_share
        if (
            own is None
            and long_share is not None
            and self.embedding is not None
            and self.terms is not None
            and len(self.terms.split()) >= self.settings.long_query_terms
        ):
            # A long query (a whole dialogue) matches many chatty words: meaning ranks it better.
            own = long_share
        w = {
            **self.weights(own),
            "neighbour_weight": self.settings.neighbour_weight,
            "interference_penalty": self.settings.interference_penalty,
            "success_multiplier": self.settings.success_multiplier,
            "recency_bonus_7d": self.settings.recency_bonus_7d,
            "recency_bonus_30d": self.settings.recency_bonus_30d,
            "asks_when": asks_when(self.text),
            "dated_bonus": self.settings.dated_bonus,
            "query_dates": mentioned_dates(self.text, self.now.date())
            if self.settings.date_match_bonus > 0
            else [],
            "date_match_bonus": self.settings.date_match_bonus,
            "coverage_weight": self.settings.coverage_weight,
            "person_bonus": self.settings.person_bonus,
            "name_subjects": [
                f"{self.agent_id}|{key}"
                for key in question_subjects(self.text)
                if key.startswith("name:")
            ]
            if self.settings.person_bonus > 0
            else [],
        }
        lexical = (
            await episode_hits(
                self.graph,
                self.agent_id,
                self.terms,
                pool=max(self.settings.lexical_pool, self.settings.candidates, self.k),
                keep=max(self.settings.candidates, self.k),
                background_docs=self.settings.lexical_background_docs,
                common_frequency=self.settings.lexical_common_frequency,
            )
            if self.terms is not None and w["fulltext_on"]
            else None
        )
        s = self.settings
        coverage = (
            await coverage_hits(self.graph, self.agent_id, self.text, pool=s.coverage_pool)
            if s.coverage_weight > 0
            else None
        )
        fetch = self.k * s.moment_fetch if s.moment_cap > 0 else self.k
        rows = await self.graph.read(
            "retrieval/search_episodes",
            w=w,
            lexical=lexical,
            coverage=coverage,
            since_7d=self.now - timedelta(days=7),
            since_30d=self.now - timedelta(days=30),
            **{**self.common(), "k": fetch},
        )
        return diversified(rows, self.k, per_moment=s.moment_cap, window=s.moment_window)

    async def rules(self) -> Rows:
        """Rules weighted by their confidence, decayed since the last validation."""
        return await self.graph.read("retrieval/search_rules", w=self.weights(), **self.common())

    async def conflicts(self) -> Rows:
        """Open (and unresolvable) conflicts between the sources of the agent's investigations,
        closest to the query first (by the hypothesis' embedding), then newest."""
        return await self.graph.read(
            "retrieval/open_research_conflicts",
            agent_id=self.agent_id,
            embedding=self.embedding,
            k=self.k,
        )

    async def people(self, episodes: asyncio.Task[Rows] | None) -> Rows:
        """People named in the query and the people of the episodes found (``episodes``: the
        running episode search, when that section is wanted), by relationship value."""
        episode_ids: list[str] = []
        if episodes is not None:
            try:
                episode_ids = [row["id"] for row in await episodes]
            except Exception:  # the episode section reports its own failure
                episode_ids = []
        return await self.graph.read(
            "retrieval/search_people",
            agent_id=self.agent_id,
            agent_clause=agent_clause(self.agent_id),
            terms=lucene_terms(self.text, max_terms=16),
            episode_ids=episode_ids,
            k=self.k,
        )
