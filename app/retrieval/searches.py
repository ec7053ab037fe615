"""The built-in sections of a context, one Cypher query each (``cypher/retrieval/``).

Each query does its fusion of the agent-scoped vector index and the lexical hits and its
section's weighting in the database; here the lexical hits are scored on the agent's own
statistics (``lexical.py``) and the parameters put together.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from app.graph.client import GraphClient
from app.graph.times import datetime_of
from app.graph.vectors import vector_param
from app.retrieval.asked_people import (
    NAME_PREFIX,
    AskedSpeakers,
    asked_speakers,
    said_names,
    without_names,
)
from app.retrieval.coverage import coverage_hits, question_subjects
from app.retrieval.diversity import diversified
from app.retrieval.lexical import BELIEFS, RULES, ShortTexts, episode_hits, short_text_hits
from app.retrieval.models import Mode
from app.retrieval.settings import RetrievalSettings
from app.text.dates import asks_when, mentioned_dates
from app.text.lucene import agent_clause, lucene_terms
from app.text.several_answers import asks_for_several

Rows = list[dict[str, Any]]
# The sections whose lexical hits are short texts scored at query time (``lexical.py``).
SHORT_TEXTS = {"beliefs": BELIEFS, "rules": RULES}
# The sections that search with the question's own vector (the episodes may search with the
# question without the names it says instead, ``asked_people.py``).
QUESTION_VECTOR_SECTIONS = frozenset({"beliefs", "rules", "conflicts"})


@dataclass(frozen=True)
class AskedPeople:
    """The speakers a question names (the speaker keys of their turns: an alias's is its
    holder's, ``asked_people.AskedSpeakers``), the weights their own turns get and how many
    of them become candidates (those of a question asking for several things about them, or of
    one that only names them; 0 without speakers), and the episodes' query vector (None without
    one)."""

    speakers: tuple[str, ...]
    speaker_bonus: float
    own_turn_weight: float
    own_turn_pool: int
    embedding: list[float] | None


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
    # The model that made ``embedding`` (app/embeddings/embedder.py model_id): the searches
    # compare it with the vectors that model made only.
    embedding_model: str
    # Embeds another text (the question without the asked people's names, ``asked_people.py``);
    # None: the episodes search with ``embedding`` alone.
    embed: Callable[[str], Awaitable[list[float] | None]] | None = None
    # The lexical hits of the belief, rule and episode sections already being read
    # (``read_ahead``, while the query is embedded); a section without one reads its own.
    ahead: Mapping[str, asyncio.Future[Rows | None]] = field(default_factory=dict)
    # The question without the names it says and its vector, embedded with the question
    # (``also_embedded``); None: embedded when needed.
    stripped: tuple[str, list[float]] | None = None
    # The speakers the question names, already being looked up (``speakers_ahead``).
    speakers: asyncio.Future[AskedSpeakers] | None = None
    # The vector of a long query's last lines, already being embedded (``tail_ahead``).
    tail: asyncio.Future[list[float] | None] | None = None
    # Embeds the question itself when ``embedding`` is the vector of the question without the
    # names it says (``stripped``): no wanted section but the episodes reads the question's own
    # vector, so it is embedded only if the episodes need it after all (``question_vector``).
    embed_question: Callable[[], Awaitable[list[float] | None]] | None = None
    # The names found before to be the agent's speakers (``asked_people.KNOWN_SPEAKERS``, read
    # once for the request): the names the question says among them are presumed speakers;
    # None: every name it says is.
    presumed: frozenset[str] | None = None

    def read_ahead(self, sections: Collection[str]) -> dict[str, asyncio.Future[Rows | None]]:
        """Starts reading the lexical hits of the wanted belief, rule and episode sections,
        which need no query vector, so that they run while the query is embedded (the
        episodes' when their lexical half is searched with a query vector or without one)."""
        reads: dict[str, asyncio.Future[Rows | None]] = {
            name: asyncio.ensure_future(
                self.short_lexical(kind, self._short_weights(name)["fulltext_on"])
            )
            for name, kind in SHORT_TEXTS.items()
            if name in sections
        }
        if "episodes" in sections:
            fulltext_on = any(self._episode_fusion(vector)["fulltext_on"] for vector in (1, 0))
            reads["episodes"] = asyncio.ensure_future(self._lexical(fulltext_on))
        return reads

    def speakers_ahead(self, sections: Collection[str]) -> asyncio.Future[AskedSpeakers] | None:
        """Starts looking up the speakers the question names when the episode section will
        (``_asked``), so that it runs while the query is embedded; None when it will not."""
        if "episodes" not in sections:
            return None
        if not (self._asks_about_people(vector=True) or self._strips_lexical()):
            return None
        return asyncio.ensure_future(asked_speakers(self.graph, self.agent_id, self.text))

    def tail_ahead(self, sections: Collection[str]) -> asyncio.Future[list[float] | None] | None:
        """Starts embedding the last ``long_query_tail_lines`` lines of a long query of more
        lines than that, when the episode section will search with a vector, so that it runs
        while the query is embedded; None when it will not."""
        lines = self.settings.long_query_tail_lines
        if "episodes" not in sections or self.mode == "fulltext" or self.embed is None:
            return None
        # Long by its words in every mode (``_question`` reads a vector-only query as short).
        terms = self.terms if self.terms is not None else lucene_terms(self.text)
        if lines == 0 or len((terms or "").split()) < self.settings.long_query_terms:
            return None
        said = [line for line in self.text.splitlines() if line.strip()]
        if len(said) <= lines:
            return None
        return asyncio.ensure_future(self.embed("\n".join(said[-lines:])))

    def strips_names(self, sections: Collection[str]) -> bool:
        """Whether the episode section will search with the vector of the question without the
        names of the speakers it says (``_asked``)."""
        if "episodes" not in sections or self.mode == "fulltext":
            return False
        return self._strips_names(self._question(), vector=True)

    def also_embedded(self, sections: Collection[str]) -> str | None:
        """The question without the names it says that are presumed to be speakers
        (``presumed``), when the episode section will search with its vector (``_asked``), so
        that it is embedded at the same time as the question; None when it will not or nothing
        is left out."""
        if not self.strips_names(sections):
            return None
        said = self._presumed_speakers()
        stripped = without_names(self.text, said) if said else ""
        return stripped if stripped and stripped != self.text else None

    def _presumed_speakers(self) -> list[str]:
        """The names the question says that are presumed to be the agent's speakers: those in
        ``presumed`` among the names the look-up will ask about (``asked_speakers``: every
        capitalised word too, so "Did Melanie ..." asks about "melanie", where the names finder
        reads "did melanie"), else every name it says."""
        if self.presumed is None:
            return said_names(self.text)
        keys = question_subjects(self.text)
        asked = (key[len(NAME_PREFIX) :] for key in keys if key.startswith(NAME_PREFIX))
        return [name for name in asked if name in self.presumed]

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
        return self._common(self.embedding)

    def _common(self, embedding: list[float] | None) -> dict[str, Any]:
        """The parameters every fused search takes, searching with ``embedding``."""
        return {
            "agent_id": self.agent_id,
            # Packed float32 (app/graph/vectors.py): ~0.6 ms less a search than 384 floats.
            "embedding": vector_param(embedding),
            "embedding_model": self.embedding_model,
            "candidates": max(self.settings.candidates, self.k),
            "k": self.k,
        }

    async def beliefs(self) -> Rows:
        """Beliefs weighted by strength, the top ones expanded one hop along their edges (the
        lexical half scored on the agent's own beliefs, ``lexical.py``)."""
        weights = self._short_weights("beliefs")
        w = {
            **weights,
            "strength_floor": self.settings.belief_strength_floor,
            "expand_top": self.settings.expand_top,
            "expand_per_hit": self.settings.expand_per_hit,
            "expansion_factor": self.settings.expansion_factor,
        }
        lexical = await self._lexical_hits("beliefs", weights["fulltext_on"])
        return await self.graph.read_collected(
            "retrieval/search_beliefs", w=w, lists={"lexical": lexical}, **self.common()
        )

    async def episodes(self) -> Rows:
        """Episodes weighted by salience, interference, outcome and recency (with their own
        vector share when one is set and the query has a vector; without a vector, the common
        share keeps the fulltext index in). The lexical half is scored on the agent's own
        statistics (``lexical.py``) before the fused query; the coverage half (``coverage.py``)
        follows the question's subjects to the episodes that mention them; a question that asks
        for several things about a speaker gathers that person's own turns (``_asked``; the
        fused query ranks them)."""
        s = self.settings
        weights = self._episode_fusion(self.embedding is not None)
        vector = weights["vector_on"] and self.embedding is not None
        # The lexical half does not wait for the asked speakers (a look-up, an embedding).
        lexical, asked = await asyncio.gather(
            self._episode_lexical(weights["fulltext_on"]), self._asked(self._question(), vector)
        )
        own_turns = vector and asked.own_turn_weight > 0
        w = {
            **weights,
            **self._episode_weights(),
            "own_turn_weight": asked.own_turn_weight,
            "speaker_bonus": asked.speaker_bonus,
            "asked_speakers": list(asked.speakers),
        }
        coverage = (
            await coverage_hits(self.graph, self.agent_id, self.text, pool=s.coverage_pool)
            if s.coverage_weight > 0
            else None
        )
        fetch = self.k * s.moment_fetch if s.moment_cap > 0 else self.k
        embedding = await self._with_tail(asked.embedding)
        rows = await self.graph.read_collected(
            "retrieval/search_episodes",
            w=w,
            lists={
                "lexical": lexical,
                "coverage": coverage,
                "own_turn_speakers": list(asked.speakers) if own_turns else [],
            },
            own_turn_pool=max(asked.own_turn_pool, 1),
            own_turn_candidates=s.own_turn_candidates,
            own_turn_scan=s.own_turn_scan,
            since_7d=(self.now - timedelta(days=7)).isoformat(),
            since_30d=(self.now - timedelta(days=30)).isoformat(),
            **{**self._common(embedding), "k": fetch},
        )
        kept = diversified(rows, self.k, per_moment=s.moment_cap, window=s.moment_window)
        return [{**row, "occurred_at": datetime_of(row["occurred_at"])} for row in kept]

    async def _with_tail(self, vector: list[float] | None) -> list[float] | None:
        """The episodes' query vector with that of the long query's last lines added
        (``tail_ahead``), or as it is."""
        if vector is None or self.tail is None:
            return vector
        near = await self.tail
        if near is None:
            return vector
        return _tail_added(vector, near, self.settings.long_query_tail_weight)

    def _episode_fusion(self, vector: bool | int) -> dict[str, Any]:
        """How the episode section fuses (``weights``), with a query vector or without one:
        its own vector share, or that of a long query (a whole dialogue matches many chatty
        words: meaning ranks it better), else the common one."""
        s = self.settings
        own = s.episode_vector_share if vector else None
        if own is None and s.long_query_vector_share is not None and not self._question():
            own = s.long_query_vector_share if vector else None
        return self.weights(own)

    def _question(self) -> bool:
        """A short query (a question), not a long one (a whole dialogue)."""
        s = self.settings
        return self.terms is None or len(self.terms.split()) < s.long_query_terms

    async def _episode_lexical(self, fulltext_on: bool) -> Rows | None:
        """The episode section's lexical hits: those read ahead, else read now."""
        ahead = self.ahead.get("episodes")
        if ahead is not None:
            hits = await ahead
            return hits if fulltext_on else None
        return await self._lexical(fulltext_on)

    async def _lexical(self, fulltext_on: bool) -> Rows | None:
        """The lexical half's hits on the agent's own statistics (None: not searched)."""
        if self.terms is None or not fulltext_on:
            return None
        s = self.settings
        return await episode_hits(
            self.graph,
            self.agent_id,
            self.terms,
            pool=max(s.episode_lexical_pool, s.candidates, self.k),
            keep=max(s.candidates, self.k),
            background_docs=s.lexical_background_docs,
            common_frequency=s.lexical_common_frequency,
            unmatched=await self._unmatched_terms(self.terms),
        )

    async def _unmatched_terms(self, terms: str) -> set[str]:
        """The query's ``terms`` that the episodes' lexical half scores but matches nothing by:
        the names of the agent's speakers the question says (``lexical_without_speakers``). A
        speaker's name matches every turn that person said, so the read met ~13x the matches
        with it; the turns that only it matches are left out (``lexical.episode_hits``)."""
        if not self._strips_lexical():
            return set()
        speakers = (await self._asked_speakers()).names
        if not speakers:
            return set()
        kept = set((lucene_terms(without_names(self.text, speakers)) or "").split())
        return {term for term in terms.split() if term not in kept}

    def _strips_lexical(self) -> bool:
        """Whether the episodes' lexical half leaves out the names of the speakers asked about:
        not in fulltext mode, where no vector gathers their own turns in the name's place."""
        s = self.settings
        return s.lexical_without_speakers and self.mode != "fulltext" and self._question()

    def _episode_weights(self) -> dict[str, Any]:
        """The episode section's own factors (time, neighbours, subjects)."""
        s = self.settings
        return {
            "neighbour_weight": s.neighbour_weight,
            "neighbour_sources": s.neighbour_sources,
            "interference_penalty": s.interference_penalty,
            "success_multiplier": s.success_multiplier,
            "recency_bonus_7d": s.recency_bonus_7d,
            "recency_bonus_30d": s.recency_bonus_30d,
            "recency": s.recency,
            "heuristic_bonus": s.heuristic_bonus,
            "consolidated_factor": s.consolidated_factor,
            "trivial_factor": s.trivial_factor,
            "score_cap": s.score_cap,
            "asks_when": asks_when(self.text),
            "dated_bonus": s.dated_bonus,
            "query_dates": mentioned_dates(self.text, self.now.date())
            if s.date_match_bonus > 0
            else [],
            "date_match_bonus": s.date_match_bonus,
            "coverage_weight": s.coverage_weight,
            "person_bonus": s.person_bonus,
            "name_subjects": [
                f"{self.agent_id}|{key}"
                for key in question_subjects(self.text)
                if key.startswith("name:")
            ]
            if s.person_bonus > 0
            else [],
        }

    async def _asked(self, question: bool, vector: bool) -> AskedPeople:
        """Whom a question (``question``: a short query, not a dialogue) asks about, and the
        episodes' query vector (``vector``: the vector half is searched): the question's own, or
        that of the question without the names of the agent's speakers it says
        (``asked_people.py``) where ``query_without_speakers`` applies ("several": a question
        asking for several things, ``several_answers.py``). Embedding the shorter text failing
        keeps the question's vector."""
        bonus, own, pool = self._asked_weights(question)
        strip = self._strips_names(question, vector)
        if not self._asks_about_people(vector, question):
            return AskedPeople((), 0.0, 0.0, 0, await self.question_vector() if vector else None)
        # The question is embedded without the names it says (beside the question, when it was
        # embedded: ``also_embedded``) while the graph tells which of them are speakers (nearly
        # always all of them); embedded again when that differs.
        said = self._presumed_speakers() if strip else []
        found, guessed = await asyncio.gather(self._asked_speakers(), self._embed_without(said))
        names = tuple(found.names)
        if names and strip:
            same = without_names(self.text, list(names)) == without_names(self.text, said)
            embedding = guessed if same else await self._embed_without(list(names))
        else:
            embedding = await self.question_vector()
        if not names:
            return AskedPeople((), 0.0, 0.0, 0, embedding)
        return AskedPeople(tuple(found.keys), bonus, own, pool, embedding)

    def _several(self, question: bool) -> bool:
        """A question asking for several things (``several_answers.py``)."""
        broad = self.settings.several_questions == "broad"
        return question and asks_for_several(self.text, broad=broad)

    def _asked_weights(self, question: bool) -> tuple[float, float, int]:
        """The asked speakers' bonus, their own turns' weight and pool."""
        s = self.settings
        if self._several(question):
            return s.several_speaker_bonus, s.several_own_turn_weight, s.several_own_turn_pool
        return s.named_speaker_bonus, s.named_own_turn_weight, s.named_own_turn_pool

    def _strips_names(self, question: bool, vector: bool) -> bool:
        """Whether the episodes search with the question's vector without the names it says."""
        without = self.settings.query_without_speakers
        several = without == "several" and self._several(question)
        return vector and (without == "always" or several)

    def _asks_about_people(self, vector: bool, question: bool | None = None) -> bool:
        """Whether the episode section looks up the speakers the question names."""
        question = self._question() if question is None else question
        bonus, own, _ = self._asked_weights(question)
        return question and (self._strips_names(question, vector) or bonus > 0 or own > 0)

    async def _asked_speakers(self) -> AskedSpeakers:
        """The speakers the question names: as looked up ahead, else looked up now."""
        if self.speakers is not None:
            return await self.speakers
        return await asked_speakers(self.graph, self.agent_id, self.text)

    def episode_vector_text(self, speakers: Sequence[str]) -> str:
        """The text whose vector the episodes search with once the asked ``speakers`` are known
        (``_asked``, where the question's names are left out): the question without their
        names, or the question itself when that leaves it unchanged or empty. Known early, it
        is embedded while the question is (``build_context``)."""
        stripped = without_names(self.text, list(speakers)) if speakers else ""
        return stripped if stripped and stripped != self.text else self.text

    async def _embed_without(self, names: list[str]) -> list[float] | None:
        """The vector of the query without ``names`` (the query's own when that leaves it
        unchanged, or embedding it fails; the one embedded with the query when it is that
        text)."""
        stripped = self.episode_vector_text(names)
        if self.embed is None or stripped == self.text:
            return await self.question_vector()
        if self.stripped is not None and self.stripped[0] == stripped:
            return self.stripped[1]
        return await self.embed(stripped) or await self.question_vector()

    async def question_vector(self) -> list[float] | None:
        """The question's own vector: ``embedding``, or embedded now when ``embedding`` is the
        vector of the question without the names it says (``embed_question``); that failing
        keeps ``embedding``."""
        if self.embed_question is None:
            return self.embedding
        return await self.embed_question() or self.embedding

    async def rules(self) -> Rows:
        """Rules weighted by their confidence, decayed since the last validation (the lexical
        half scored on the agent's own rules, ``lexical.py``)."""
        weights = self._short_weights("rules")
        lexical = await self._lexical_hits("rules", weights["fulltext_on"])
        return await self.graph.read_collected(
            "retrieval/search_rules", w=weights, lists={"lexical": lexical}, **self.common()
        )

    def _short_weights(self, section: str) -> dict[str, Any]:
        """How the belief section (its own vector share) or the rule section fuses."""
        return self.weights(self.settings.belief_vector_share if section == "beliefs" else None)

    async def _lexical_hits(self, section: str, fulltext_on: bool) -> Rows | None:
        """The belief or rule section's lexical hits: those read ahead, else read now."""
        ahead = self.ahead.get(section)
        if ahead is not None:
            return await ahead
        return await self.short_lexical(SHORT_TEXTS[section], fulltext_on)

    async def short_lexical(self, kind: ShortTexts, fulltext_on: bool) -> Rows | None:
        """The lexical hits of the beliefs, the rules or the research corpus passages on the
        agent's own documents (None: not searched)."""
        if self.terms is None or not fulltext_on:
            return None
        s = self.settings
        return await short_text_hits(
            self.graph,
            kind,
            self.agent_id,
            self.terms,
            pool=max(s.lexical_pool, s.candidates, self.k),
            keep=max(s.candidates, self.k),
        )

    async def conflicts(self) -> Rows:
        """Open (and unresolvable) conflicts between the sources of the agent's investigations,
        closest to the query first (by the hypothesis' embedding), then newest."""
        return await self.graph.read_collected(
            "retrieval/open_research_conflicts",
            agent_id=self.agent_id,
            embedding=vector_param(self.embedding),
            embedding_model=self.embedding_model,
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
        return await self.graph.read_collected(
            "retrieval/search_people",
            agent_id=self.agent_id,
            agent_clause=agent_clause(self.agent_id),
            terms=lucene_terms(self.text, max_terms=16),
            episode_ids=episode_ids,
            k=self.k,
        )


def _tail_added(vector: list[float], tail: list[float], weight: float) -> list[float]:
    """``vector + weight × tail``, of unit length (``vector`` itself when that sum is zero)."""
    summed = [v + weight * t for v, t in zip(vector, tail, strict=True)]
    norm = math.sqrt(sum(x * x for x in summed))
    return [x / norm for x in summed] if norm > 0 else vector
