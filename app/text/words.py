"""Words of a text: one normalisation, one tokeniser, light stemming and token overlap, shared by
every piece of Credence that compares texts without embeddings."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from app.text.stopwords import CLAIM_STOP_WORDS

_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "`": "'"})

_TOKEN = re.compile(r"[A-Za-z][A-Za-z'-]*|\d[\d,]*(?:\.\d+)?")


def normalise(text: str) -> str:
    """Curly quotes to straight ones and runs of white space to one space."""
    return " ".join(text.translate(_APOSTROPHES).split())


def tokens(text: str) -> list[str]:
    """Lower-cased word and number tokens (apostrophes kept: ``isn't``, ``o'clock``)."""
    return list(_tokens(text))


# The stance judges tokenise the same two texts a few dozen times per pair; these caches make
# that one pass (pure functions of the text).
@lru_cache(maxsize=4096)
def _tokens(text: str) -> tuple[str, ...]:
    return tuple(token.lower().strip("'-") for token in _TOKEN.findall(normalise(text)))


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light suffix strip so that "obligations"/"obligation" and "recognised"/"recognises"
    compare equal; numbers and short words are kept whole."""
    if not word[:1].isalpha() or len(word) <= 3:
        return word
    if word.endswith("'s"):
        word = word[:-2]
    for suffix, replacement in (
        ("ies", "y"),
        ("ied", "y"),
        ("ing", ""),
        ("ed", ""),
        ("es", ""),
        ("s", ""),
    ):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "s" and word.endswith("ss"):
                return word
            return word[: -len(suffix)] + replacement
    if word.endswith("e") and len(word) > 4:
        return word[:-1]
    return word


def content_words(text: str) -> list[str]:
    """Stems of the tokens that carry meaning (stop words, negators and courtesy dropped)."""
    return [stem(token) for token in tokens(text) if token not in CLAIM_STOP_WORDS]


def jaccard(first: Iterable[str], second: Iterable[str]) -> float:
    """|A ∩ B| / |A ∪ B| of two token collections (0 when both are empty)."""
    a, b = set(first), set(second)
    union = a | b
    return len(a & b) / len(union) if union else 0.0


def token_similarity(first: str, second: str) -> float:
    """Topic relatedness without embeddings: Jaccard of the content-word stems."""
    return jaccard(content_words(first), content_words(second))
