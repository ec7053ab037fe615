"""Deterministic pattern matching shared by frame selection and affect cues.

A pattern with a space ("pros and cons") matches as a substring of the lower-cased text with its
whitespace collapsed; a pattern without one ("error") matches a whole token, so "error" does not
fire inside "terror" (a one-word pattern with an apostrophe or hyphen, "don't", is matched between
non-word characters). Typographic apostrophes are read as ASCII ones.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from app.text.words import normalise

# Whole-word tests use every word character, Unicode letters and digits included (a frame or a
# person may be named in any script); words.tokens is the ASCII tokeniser of claim comparison.
_TOKEN = re.compile(r"\w+")


def matched_patterns(patterns: Iterable[str], text: str) -> list[str]:
    """The distinct patterns (in their given order) that occur in ``text``."""
    normalised, words = _prepared(text)
    found: list[str] = []
    seen: set[str] = set()
    for pattern in patterns:
        key, kind = _key(pattern)
        if not key or key in seen:
            continue
        seen.add(key)
        if kind == _PHRASE:
            hit = key in normalised
        elif kind == _WORD:
            hit = key in words
        else:  # one word with an apostrophe or hyphen ("don't"): bounded by non-word characters
            hit = occurs_bounded(key, normalised)
        if hit:
            found.append(pattern)
    return found


_PHRASE, _WORD, _MARKED_WORD = "phrase", "word", "marked word"


@lru_cache(maxsize=8192)
def _key(pattern: str) -> tuple[str, str]:
    """A pattern's normalised form and how it is matched (patterns are few and reused: the
    frames' and cues' lists are read for every text)."""
    key = normalise(pattern).lower()
    if " " in key:
        return key, _PHRASE
    return key, _WORD if _TOKEN.fullmatch(key) else _MARKED_WORD


def occurs_bounded(phrase: str, text: str, *, hyphen_bounds: bool = False) -> bool:
    """Whether ``phrase`` occurs in ``text`` between non-word characters (and, with
    ``hyphen_bounds``, not joined to a hyphen either: "follow-up" does not hold "follow"). The
    substring test comes first: most phrases are not in a given text at all, and it rules them
    out for a fraction of a regular expression's cost."""
    return phrase in text and _bounded(phrase, hyphen_bounds).search(text) is not None


@lru_cache(maxsize=2048)
def _bounded(phrase: str, hyphen_bounds: bool) -> re.Pattern[str]:
    edge = r"[\w-]" if hyphen_bounds else r"\w"
    return re.compile(rf"(?<!{edge}){re.escape(phrase)}(?!{edge})")


@lru_cache(maxsize=16)
def _prepared(text: str) -> tuple[str, frozenset[str]]:
    """The text normalised and its words (one text is matched against several lists in a row:
    every frame's patterns)."""
    normalised = normalise(text).lower()
    return normalised, frozenset(_TOKEN.findall(normalised))
