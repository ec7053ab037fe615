"""Resolving references to the previous turn, without a model.

A follow-up such as "Who has to approve it?" means nothing on its own; read after "What is our
policy on wire transfers?" it asks about wire transfers. :func:`subject_of` finds the topic of a
turn (its longest run of content words: "wire transfers"), and :func:`resolve_references`
replaces a pronoun that points back ("it", "they", "them", and "that" / "this" when they stand
alone rather than before a noun) with the subject of the latest earlier turn that has one.
Deterministic and cheap; Claude reads the history itself.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from app.text.stopwords import CLAIM_STOP_WORDS, word_set
from app.text.words import normalise

# Words that end a noun phrase besides the stop words: common verbs of requests and questions
# (a subject is a thing, not what is done to it).
_NOT_SUBJECT = CLAIM_STOP_WORDS | word_set(
    """tell explain show give know think say said talk discuss handle handled treat treated
    need needs want wants like use used do does did done go goes went mean means happen happens
    happened work works worked apply applies applied require requires required approve approves
    approved check checked review reviewed send sent prepare prepared remember note track add
    let can could would should will shall must may might is are was were be been being has
    have had please any every each always usually often sometimes also now today yesterday
    tomorrow here there"""
)
# "that" / "this" stand alone (and point back) when the next word is one of these, or nothing.
_VERB_AFTER = word_set(
    """is was are were must should shall will would can could may might needs need requires
    require means mean applies apply works work happens happen has had have does did do right
    wrong correct true false ok okay fine"""
)
# "it" as a dummy subject points at nothing: "it's month end", "it is important to ...",
# "it was clear that ...".
_DUMMY_IT = re.compile(
    r"^(?:'s|\s+is|\s+was|\s+will be)\s+(?:(?:\w+\s+){0,2}(?:to|that)\b|"
    r"(?:almost\s+|nearly\s+|too\s+|so\s+|very\s+)?"
    r"(?:month|quarter|year|week|day|time|today|tomorrow|tonight|monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday|late|early|raining|snowing|cold|hot|noon|midnight)\b)",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"[A-Za-z][A-Za-z'-]*|\d[\d,]*(?:\.\d+)?")
_POINTER = re.compile(r"\b(it|they|them|that|this)\b(?=(\s*)([A-Za-z'-]*))", re.IGNORECASE)


def subject_of(text: str) -> str | None:
    """The topic of a turn: its longest run of consecutive content words (the first on a tie),
    as written; None when it has none ("Thanks!")."""
    best: list[str] = []
    run: list[str] = []
    for raw in _TOKEN.findall(normalise(text)):
        if raw.lower() in _NOT_SUBJECT or raw.lower() in ("it", "they", "them", "that", "this"):
            if len(run) > len(best):
                best = run
            run = []
            continue
        run.append(raw)
    if len(run) > len(best):
        best = run
    return " ".join(best) or None


def has_reference(text: str) -> bool:
    """Whether ``text`` holds a pronoun that points back to an earlier turn."""
    return _pointer_positions(text) != []


def _pointer_positions(text: str) -> list[tuple[int, int]]:
    """Spans of the pronouns that point back: "it", "they", "them" always; "that" / "this" only
    when no noun follows ("approve that", "that is wrong", not "that invoice")."""
    spans: list[tuple[int, int]] = []
    for match in _POINTER.finditer(text):
        word, after = match.group(1).lower(), match.group(3).lower()
        if word in ("that", "this") and after and after not in _VERB_AFTER:
            continue
        if word == "it" and _DUMMY_IT.match(text[match.end(1) :]):
            continue
        # "that" introducing a clause ("I think that ...") follows a verb of saying: skip it.
        before = text[: match.start()].split()
        if word == "that" and before and before[-1].lower() in ("think", "say", "said", "know"):
            continue
        # "that" right after a noun opens a relative clause ("misstatements that are trivial"):
        # it names that noun, not the previous turn's subject.
        if word == "that" and before and _is_content_word(before[-1]):
            continue
        spans.append((match.start(1), match.end(1)))
    return spans


def _is_content_word(token: str) -> bool:
    word = token.strip(".,;:!?\"'()").lower()
    return word.isalpha() and word not in _NOT_SUBJECT


def resolve_references(message: str, earlier: Sequence[str]) -> str:
    """``message`` with its pointing pronouns replaced by the subject of the latest earlier turn
    that has one (each earlier turn read with the references it made resolved too); unchanged
    when nothing points back or no earlier turn has a subject.

    Args:
        message: the current turn.
        earlier: the person's earlier messages of the session, oldest first.
    """
    subject: str | None = None
    for text in earlier:
        # A turn that points back stays on the same subject ("Are they monthly?").
        if subject is None or not has_reference(text):
            subject = subject_of(text) or subject
    return _replaced(message, subject)


def _replaced(text: str, subject: str | None) -> str:
    if subject is None:
        return text
    out = text
    for start, end in reversed(_pointer_positions(text)):
        words = subject[:1].upper() + subject[1:] if start == 0 else subject
        if out[end : end + 2].lower() == "'s":  # "it's" -> "<subject> is"
            words, end = words + " is", end + 2
        out = out[:start] + words + out[end:]
    return out
