"""The people a question asks about, left out of the episodes' query vector.

A chat turn is embedded with its speaker, and the other person's turns say the name ("Thanks,
Melanie!"), so the vector of "What activities does Melanie partake in?" sits nearest to turns
that *address* Melanie, not to the turns in which she talks about pottery and camping. The
person is found in the graph instead (the person bonus along ``MENTIONS`` edges); the vector
half searches with the question without the names of the agent's speakers it says ("What
activities does partake in?"), which ranks the turns by what is asked about.
"""

from __future__ import annotations

import re
from functools import lru_cache

from app.graph.client import GraphClient
from app.memory.episode_subjects import names_in
from app.retrieval.coverage import question_subjects
from app.text.entities import entities

NAME_PREFIX = "name:"


def said_names(text: str) -> list[str]:
    """The names (lower case) the people finder reads in ``text``, speakers or not (not every
    capitalised word, as ``asked_speakers`` looks up: "What" opens most questions)."""
    return list(_said_names(text))


# A context asks twice for the same question's names (its vector and its episode search), and
# finding them takes ~0.7 ms: found once per question.
@lru_cache(maxsize=1024)
def _said_names(text: str) -> tuple[str, ...]:
    keys = [entity.key for entity in entities(text, names_in(text))]
    return tuple(sorted(key[len(NAME_PREFIX) :] for key in keys if key.startswith(NAME_PREFIX)))


async def asked_speakers(graph: GraphClient, agent_id: str, text: str) -> list[str]:
    """The names (lower case) ``text`` says that are speakers of the agent's episodes."""
    keys = [key for key in question_subjects(text) if key.startswith(NAME_PREFIX)]
    if not keys:
        return []
    rows = await graph.read("retrieval/question_speakers", agent_id=agent_id, keys=keys)
    return sorted(str(row["key"])[len(NAME_PREFIX) :] for row in rows)


def without_names(text: str, names: list[str]) -> str:
    """``text`` without ``names`` (whole words, any case, with a possessive "'s")."""
    for name in sorted(names, key=len, reverse=True):
        text = re.sub(rf"\b{re.escape(name)}(?:['’]s)?\b", "", text, flags=re.IGNORECASE)
    return re.sub(r"\s+", " ", text).strip()
