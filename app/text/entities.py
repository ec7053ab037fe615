"""What an episode is about, found offline and deterministically: the people (its speaker and the
names it says) and its topics (the words general English rarely uses: "pottery", "adoption",
"kayak"), each as a key that links episodes in the graph (``app/memory/episode_entities.py``)
so that a question about a person or a thing can gather every turn that mentions it, across
sessions.

A topic is a content word (two letters or more, not a stop word) whose frequency in general
English (``app/text/background.py``) is below ``TOPIC_FREQUENCY``; its key is a crude stem
(plural, "-ing" / "-ed", a final "e" and a doubled last consonant dropped: "hiking", "hikes" and
"hike" share ``hik``), so different forms of a word meet. The stem is the key; each topic also
keeps its ``surface``, the form of the word the text uses most (the first on a tie: "hiking"),
so that what is shown to a person reads as a word. A contraction is never a topic ("I'm" and
"let's" tokenise as "im" and "lets", which general English seldom writes without the
apostrophe), nor a word the text writes as one ("we'd" is no "wed"). Names (people, places:
the speaker and the names the text says) are found by the caller
(``app/memory/episode_entities.py`` uses the people finder) and become ``name:`` keys; a word
that is part of a name is not also a topic.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from app.text.background import english_frequency
from app.text.lexical import counted, tokens
from app.text.stopwords import word_set

# A word is a topic when general English uses it less often than this (per token): 2e-4 keeps
# "camping", "kids", "painting" and drops "really", "great", "feel", "family".
TOPIC_FREQUENCY = 2e-4
# At most this many topics per episode (the rarest first), so that a long text does not link
# to everything.
MAX_TOPICS = 24

# Chat interjections general English (written) uses rarely, yet say nothing a turn is about.
CHAT_WORDS = word_set(
    """hey hi hello wow yeah yep yes okay ok lol haha omg thanks thx cool awesome gonna wanna
    gotta hmm um uh oh ah btw"""
)

# Contractions lose their apostrophe in the tokens, and general English writes them with it, so
# their bare forms look rare: as query stop words (``stopwords.CONTRACTIONS``, which ``counted``
# leaves out) they are never topics.
# A word the text writes as a contraction ("we'd", "I'll", "she'll"), whose bare form is also a
# word ("wed", "ill", "shell"): not a topic of that text. "'s" is left out: "the dog's bowl".
_CONTRACTED = re.compile(r"\b([A-Za-z]+)['’](m|ve|d|re|ll|t)\b", re.IGNORECASE)

Kind = Literal["name", "topic"]


@dataclass(frozen=True, order=True)
class Entity:
    """One thing an episode is about: ``key`` (``name:<name>`` or ``topic:<stem>``, lower
    case) links the episodes that share it; ``surface`` (a topic's): the word as the text says
    it most, lower case (not part of the entity's identity)."""

    key: str
    kind: Kind
    surface: str | None = field(default=None, compare=False)


def stem(word: str) -> str:
    """A crude, deterministic stem: plural, "-ing" / "-ed", final "e" and a doubled final
    consonant dropped."""
    w = word.lower()
    if len(w) > 4 and w.endswith("ies"):
        w = w[:-3] + "y"
    elif len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    for suffix in ("ing", "ed"):
        if len(w) > len(suffix) + 2 and w.endswith(suffix):
            w = w[: -len(suffix)]
            break
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiou":
        w = w[:-1]
    return w


def named(name: str) -> Entity | None:
    """The entity of a name ("Kate's" and "kate" alike), None when nothing is left of it."""
    words = tokens(name)
    if words and words[-1].endswith("s") and name.rstrip().endswith(("'s", "’s")):
        words[-1] = words[-1][:-1]
    key = " ".join(words)
    return Entity(key="name:" + key, kind="name") if key else None


def topics(text: str, skip: Iterable[str] = ()) -> list[Entity]:
    """The topics of ``text``, rarest first, at most ``MAX_TOPICS``; words of ``skip`` (lower
    case: the words of its names) are left out."""
    left_out = set(skip) | {(head + tail).lower() for head, tail in _CONTRACTED.findall(text)}
    rates: dict[str, float] = {}
    forms: dict[str, dict[str, int]] = {}
    for word in tokens(text):
        if not counted(word) or word.isdigit() or word in left_out or word in CHAT_WORDS:
            continue
        frequency = english_frequency(word)
        if frequency < TOPIC_FREQUENCY:
            key = stem(word)
            rates[key] = min(rates.get(key, 1.0), frequency)
            seen = forms.setdefault(key, {})
            seen[word] = seen.get(word, 0) + 1
    ranked = sorted(rates, key=lambda key: (rates[key], key))[:MAX_TOPICS]
    # The most used form of each stem; max keeps the first seen on a tie.
    return [
        Entity(
            key="topic:" + key, kind="topic", surface=max(forms[key], key=forms[key].__getitem__)
        )
        for key in ranked
    ]


def entities(text: str, names: Iterable[str]) -> list[Entity]:
    """What ``text`` is about, given its ``names`` (people and places it names, its speaker):
    the names, then the topics, each once."""
    found = sorted({e for e in (named(name) for name in names) if e is not None})
    name_words = {word for e in found for word in e.key.removeprefix("name:").split()}
    # Possessives lose their "s" in the key; the token of the text keeps it.
    name_words |= {word + "s" for word in name_words}
    return found + topics(text, skip=name_words)
