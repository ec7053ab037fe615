"""The coverage half of the episode search: the turns that mention what the question is about.

A flat index ranks each turn alone, so a question whose answer is spread over several sessions
("What are Kate's hobbies?") finds the turn that matches best and its neighbours. Here the
question's subjects (the names it says and its topics, ``app/text/entities.py``) are looked up
as the agent's ``:Subject`` nodes and followed back along ``MENTIONS`` edges to every episode
that mentions them (``cypher/retrieval/subject_episode_candidates.cypher``); each episode scores
the idf-weighted share of the question's subjects it mentions, which the fused search adds with
``coverage_weight``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from app.graph.client import GraphClient
from app.memory.episode_subjects import names_in
from app.text.entities import entities
from app.text.lucene import WORD_TOKEN


def question_subjects(text: str) -> list[str]:
    """The subject keys of a question: the names it says (and every capitalised word, which may
    be a name an episode linked: "Did Caroline ..." opens with one) and its topics."""
    return list(_question_subjects(text))


# A context reads a question's subjects twice (its speakers, its episode weights; the coverage
# half a third time), and finding them takes ~0.7 ms: found once per question.
@lru_cache(maxsize=1024)
def _question_subjects(text: str) -> tuple[str, ...]:
    capitalised = [word for word in WORD_TOKEN.findall(text) if word[:1].isupper()]
    return tuple(entity.key for entity in entities(text, [*names_in(text), *capitalised]))


async def coverage_hits(
    graph: GraphClient, agent_id: str, text: str, *, pool: int
) -> list[dict[str, Any]]:
    """The episodes that mention the question's subjects, best first (``id``, ``score``,
    ``matched``); empty when the question has no subject the agent knows."""
    keys = question_subjects(text)
    if not keys:
        return []
    return await graph.read_collected(
        "retrieval/subject_episode_candidates", agent_id=agent_id, keys=keys, pool=pool
    )
