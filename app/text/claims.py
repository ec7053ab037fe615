"""Splitting a conversational turn into sentences and claims.

A claim is a sentence that asserts something: questions and pure greetings / courtesy ("Hi",
"Thanks a lot!") are dropped. Sentences end at ``.``, ``!``, ``?``, ``;`` or a line break; a
full stop inside a number ("7.5") or after a common abbreviation ("e.g.", "Dr.") does not end one.
"""

from __future__ import annotations

import re

from app.text.stopwords import word_set
from app.text.words import normalise, tokens

# Abbreviations whose trailing full stop does not end a sentence.
_ABBREVIATIONS = frozenset(
    {"e.g", "i.e", "etc", "vs", "dr", "mr", "mrs", "ms", "prof", "inc", "ltd", "co", "corp", "no",
     "approx", "dept", "fig", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept",
     "oct", "nov", "dec", "st", "jr", "sr", "u.s", "u.k"}
)  # fmt: skip

GREETINGS = word_set(
    """hi hello hey hiya howdy greetings morning afternoon evening good night thanks thank you
    cheers bye goodbye see later welcome great cool nice ok okay sure yes yeah yep no nope
    please much lot very so appreciate appreciated it that all for a the there again awesome
    perfect wonderful excellent fine sounds noted got gotcha understood dear team everyone
    folks guys have day weekend care"""
)

# The longest statement a belief holds (a learned claim, a revision, a pack belief).
MAX_STATEMENT_CHARS = 2000

_QUESTION_START = re.compile(
    r"^(what|why|how|who|whom|whose|which|where)\b(?!\s+(?:a|an)\b)", re.IGNORECASE
)


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


def clip_statement(text: str, limit: int = MAX_STATEMENT_CHARS) -> str:
    """``text`` as it is when it fits in ``limit`` characters, else cut at the last word
    boundary before the limit and ended with "…" (one very long sentence, e.g. a pasted log
    line, still makes a statement a belief can hold)."""
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    boundary = head.rstrip().rfind(" ")
    if boundary > limit // 2:
        head = head[:boundary]
    return head.rstrip(" ,;:.") + "…"
