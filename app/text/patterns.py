"""Deterministic pattern matching shared by frame selection and affect cues.

A pattern with a space ("pros and cons") matches as a substring of the lower-cased text with its
whitespace collapsed; a pattern without one ("error") matches a whole token, so "error" does not
fire inside "terror" (a one-word pattern with an apostrophe or hyphen, "don't", is matched between
non-word characters). Typographic apostrophes are read as ASCII ones.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from app.text.words import normalise

# Whole-word tests use every word character, Unicode letters and digits included (a frame or a
# person may be named in any script); words.tokens is the ASCII tokeniser of claim comparison.
_TOKEN = re.compile(r"\w+")


def matched_patterns(patterns: Iterable[str], text: str) -> list[str]:
    """The distinct patterns (in their given order) that occur in ``text``."""
    normalised = normalise(text).lower()
    words = set(_TOKEN.findall(normalised))
    found: list[str] = []
    seen: set[str] = set()
    for pattern in patterns:
        key = normalise(pattern).lower()
        if not key or key in seen:
            continue
        seen.add(key)
        if " " in key:
            hit = key in normalised
        elif _TOKEN.fullmatch(key):
            hit = key in words
        else:  # one word with an apostrophe or hyphen ("don't"): bounded by non-word characters
            hit = re.search(rf"(?<!\w){re.escape(key)}(?!\w)", normalised) is not None
        if hit:
            found.append(pattern)
    return found
