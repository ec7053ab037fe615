"""The people a question asks about, left out of the episodes' query vector.

A chat turn is embedded with its speaker, and the other person's turns say the name ("Thanks,
Melanie!"), so the vector of "What activities does Melanie partake in?" sits nearest to turns
that *address* Melanie, not to the turns in which she talks about pottery and camping. The
person is found in the graph instead (the person bonus along ``MENTIONS`` edges); the vector
half searches with the question without the names of the agent's speakers it says ("What
activities does partake in?"), which ranks the turns by what is asked about.
"""

from __future__ import annotations

import asyncio
import re
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
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


class KnownSpeakers:
    """Which names each agent's questions were found to say as speakers, in this process, so
    that a new question's vector is embedded once: without the names presumed to be speakers
    (``of``), while the look-up (``asked_speakers``) tells which are. Only a presumption:
    the look-up decides, and a wrong guess costs the second embedding it would have saved
    (``searches.py``); the ranking is the same either way. Bounded: the agents asked about
    most recently, and their names."""

    def __init__(self, agents: int = 10_000, names: int = 1_000) -> None:
        self._known: OrderedDict[str, set[str]] = OrderedDict()
        self._agents = agents
        self._names = names

    def record(self, agent_id: str, asked: Iterable[str], found: Iterable[str]) -> None:
        """The look-up's answer: of the ``asked`` names, ``found`` are speakers."""
        speakers = set(found)
        known = self._touched(agent_id)
        known.difference_update(set(asked) - speakers)
        if len(known) + len(speakers) <= self._names:
            known.update(speakers)

    def seen(self, agent_id: str) -> bool:
        """Whether a look-up of the agent's speakers ran in this process (and is kept)."""
        return agent_id in self._known

    def seed(self, agent_id: str, speakers: Iterable[str]) -> None:
        """The names that speak in the agent's episodes (``agent_speakers``), learned at its
        first look-up; a look-up's own answer (``record``) corrects them. Not learned when
        they are more than the names kept."""
        names = set(speakers)
        known = self._touched(agent_id)
        if len(known | names) <= self._names:
            known.update(names)

    def _touched(self, agent_id: str) -> set[str]:
        """The agent's known names, the agent now the most recent (the oldest dropped beyond
        the agents kept)."""
        known = self._known.setdefault(agent_id, set())
        self._known.move_to_end(agent_id)
        while len(self._known) > self._agents:
            self._known.popitem(last=False)
        return known

    def of(self, agent_id: str) -> frozenset[str] | None:
        """The names found to be the agent's speakers; None while none was (the agent's first
        questions in this process): then every name a question says is presumed one."""
        known = self._known.get(agent_id)
        return frozenset(known) if known else None


# Per process: what one request finds speeds the next (a guess, never a result).
KNOWN_SPEAKERS = KnownSpeakers()


# Episodes read for an agent's speakers at its first look-up in a process (``agent_speakers``).
SPEAKER_SCAN = 5_000


@dataclass(frozen=True)
class AskedSpeakers:
    """The names (lower case, as the question says them: what is left out of its text) that
    are speakers of the agent's episodes, and the ``speaker_key`` of their turns (what the
    episodes are matched by): a name's own, or for an alias of a person (docs/memory.md §2:
    "bob" after Bob was merged into Bob Jones) that person's ("bob jones")."""

    names: list[str]
    keys: list[str]


NO_SPEAKERS = AskedSpeakers([], [])


async def asked_speakers(graph: GraphClient, agent_id: str, text: str) -> AskedSpeakers:
    """The names (lower case) ``text`` says that are speakers of the agent's episodes. The
    agent's first look-up in this process also reads who speaks in its episodes, beside it, so
    that its next questions are embedded once from the start (``KnownSpeakers``), not only once
    each speaker has been asked about: after a restart a question naming a speaker not yet asked
    about, or someone who does not speak, was embedded twice (bench/README.md, issue 38)."""
    keys = [key for key in question_subjects(text) if key.startswith(NAME_PREFIX)]
    if not keys:
        return NO_SPEAKERS
    looked_up = graph.read("retrieval/question_speakers", agent_id=agent_id, keys=keys)
    if KNOWN_SPEAKERS.seen(agent_id):
        rows = await looked_up
    else:
        rows, speaking = await asyncio.gather(
            looked_up,
            graph.read("retrieval/agent_speakers", agent_id=agent_id, scan=SPEAKER_SCAN),
        )
        KNOWN_SPEAKERS.seed(agent_id, (str(key) for key in speaking[0]["keys"]))
    found = sorted({str(row["key"])[len(NAME_PREFIX) :] for row in rows})
    KNOWN_SPEAKERS.record(agent_id, (key[len(NAME_PREFIX) :] for key in keys), found)
    return AskedSpeakers(found, sorted({str(row["speaker_key"]) for row in rows}))


def without_names(text: str, names: list[str]) -> str:
    """``text`` without ``names`` (whole words, any case, with a possessive "'s")."""
    for name in sorted(names, key=len, reverse=True):
        text = re.sub(rf"\b{re.escape(name)}(?:['’]s)?\b", "", text, flags=re.IGNORECASE)
    return re.sub(r"\s+", " ", text).strip()
