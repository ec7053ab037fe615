"""Splitting a conversational turn into claims, and the word-level helpers the offline reasoner
shares (tokens, content words, light stemming, token overlap).

A claim is a sentence that asserts something: questions and pure greetings / courtesy ("Hi",
"Thanks a lot!") are dropped. Sentences end at ``.``, ``!``, ``?``, ``;`` or a line break; a
full stop inside a number ("7.5") or after a common abbreviation ("e.g.", "Dr.") does not end one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "`": "'"})

# Abbreviations whose trailing full stop does not end a sentence.
_ABBREVIATIONS = frozenset(
    {"e.g", "i.e", "etc", "vs", "dr", "mr", "mrs", "ms", "prof", "inc", "ltd", "co", "corp", "no",
     "approx", "dept", "fig", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept",
     "oct", "nov", "dec", "st", "jr", "sr", "u.s", "u.k"}
)  # fmt: skip

_TOKEN = re.compile(r"[A-Za-z][A-Za-z'-]*|\d[\d,]*(?:\.\d+)?")


def word_set(text: str) -> frozenset[str]:
    """The white-space separated words of a literal list (easier to read than quoted items)."""
    return frozenset(text.split())


STOPWORDS = word_set(
    """a an the and or but if then else so of to in on at by for with from into onto over under
    about above below as is are was were be been being am do does did doing have has had having
    it its it's this that these those there here their they them he she him her his hers we us
    our you your yours i me my mine what which who whom whose when where why how all any both
    each few many much some such than too very can could should would will shall may might must
    just also only own same other more most less least again once up down out off s t own
    not no nor never none cannot can't won't don't doesn't didn't isn't aren't wasn't weren't
    hasn't haven't hadn't shouldn't wouldn't couldn't mustn't that's what's there's let's i'm
    i've i'd i'll you're you've we're we've they're they've he's she's it'll yes yeah ok okay
    well oh right wrong actually really please thanks thank get got make made"""
)

GREETINGS = word_set(
    """hi hello hey hiya howdy greetings morning afternoon evening good night thanks thank you
    cheers bye goodbye see later welcome great cool nice ok okay sure yes yeah yep no nope
    please much lot very so appreciate appreciated it that all for a the there again awesome
    perfect wonderful excellent fine sounds noted got gotcha understood dear team everyone
    folks guys have day weekend care"""
)

_QUESTION_START = re.compile(
    r"^(what|why|how|who|whom|whose|which|where)\b(?!\s+(?:a|an)\b)", re.IGNORECASE
)


def normalise(text: str) -> str:
    """Curly quotes to straight ones and runs of white space to one space."""
    return " ".join(text.translate(_APOSTROPHES).split())


def tokens(text: str) -> list[str]:
    """Lower-cased word and number tokens (apostrophes kept: ``isn't``, ``o'clock``)."""
    return [token.lower().strip("'-") for token in _TOKEN.findall(normalise(text))]


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
    return [stem(token) for token in tokens(text) if token not in STOPWORDS]


def jaccard(first: Iterable[str], second: Iterable[str]) -> float:
    """|A ∩ B| / |A ∪ B| of two token collections (0 when both are empty)."""
    a, b = set(first), set(second)
    union = a | b
    return len(a & b) / len(union) if union else 0.0


def token_similarity(first: str, second: str) -> float:
    """Topic relatedness without embeddings: Jaccard of the content-word stems."""
    return jaccard(content_words(first), content_words(second))


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text`` with their closing punctuation kept."""
    text = normalise(text.replace("\r", "\n").replace("\n", " \n "))
    sentences: list[str] = []
    start = 0
    for match in re.finditer(r"[.!?;]+|\n", text):
        end = match.end()
        mark = match.group()
        if mark == ".":
            before = text[start : match.start()].split()
            previous = before[-1].lower() if before else ""
            following = text[end : end + 1]
            if previous.rstrip(".") in _ABBREVIATIONS or following.isdigit():
                continue
            if re.fullmatch(r"(?:[a-z]\.)*[a-z]", previous):  # initials: "J. R. R.", "U.S"
                continue
        sentence = text[start:end].strip()
        if sentence.strip(" \n.!?;"):
            sentences.append(sentence.replace("\n", "").strip())
        start = end
    tail = text[start:].strip()
    if tail.strip(" \n.!?;"):
        sentences.append(tail)
    return sentences


def is_question(sentence: str) -> bool:
    """Ends with a question mark, or opens with a question word ("what is ...")."""
    sentence = sentence.strip()
    return sentence.endswith("?") or bool(_QUESTION_START.match(sentence))


def is_courtesy(sentence: str) -> bool:
    """Only greetings, thanks and acknowledgements ("Hi!", "Thanks so much, team.")."""
    words = tokens(sentence)
    return bool(words) and all(word in GREETINGS for word in words)


def split_claims(message: str) -> list[str]:
    """The sentences of a turn that assert something, cleaned of closing punctuation runs.

    Args:
        message: the person's turn.

    Returns:
        The claims in order; empty when the turn holds only questions or courtesy.
    """
    claims: list[str] = []
    for sentence in split_sentences(message):
        if is_question(sentence) or is_courtesy(sentence):
            continue
        cleaned = sentence.rstrip(" ;").strip()
        if len(tokens(cleaned)) >= 2 and cleaned not in claims:
            claims.append(cleaned)
    return claims
