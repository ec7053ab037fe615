"""Finding people's names in a text (known people by name or first name, new ones as runs of
capitalised words), and the case-insensitive look-up key of a name. Pure; no model is involved."""

from __future__ import annotations

import re
from collections.abc import Sequence

from app.memory.people.models import Mention

# Capitalised words that are not names on their own (sentence starters, pronouns, greetings,
# titles, days and months). A run of capitalised words loses these at its ends.
_NOT_NAME_WORDS = """
    i i'm i've i'll i'd a an the this that these those it its we you he she they my our your their
    his her me us them please thanks thank hi hello hey dear yes no ok okay so but and or if when
    what why how who where which can could would should will shall may might must let let's also
    just then there here today tomorrow yesterday tonight regards best cheers sincerely team all
    everyone mr mrs ms miss dr prof sir madam monday tuesday wednesday thursday friday saturday
    sunday january february march april june july august september october november december
    re fw fwd cc bcc subject note ps
"""
_NOT_NAMES = frozenset(_NOT_NAME_WORDS.split())
_CAPITALISED_WORD = r"[A-Z][a-z]+(?:['’\-][A-Za-z][a-z]*)*"
_CAPITALISED_RUN = re.compile(rf"{_CAPITALISED_WORD}(?:[ \t]+{_CAPITALISED_WORD})*")
_SENTENCE_END = re.compile(r"(?:^|[.!?:;\n\"“(]\s*)$")
MAX_NAME_WORDS = 3


def find_mentions(text: str, known: Sequence[tuple[str, str]]) -> list[Mention]:
    """People named in ``text``, in order of first appearance, each once.

    A known person (``known`` = (id, name) pairs) is found by their full name (any case, whole
    words) or by a first name that is capitalised in the text and belongs to one known person
    only. Other names are runs of one to three capitalised words (``Maria``, ``Ana de Souza`` is
    read as ``Ana`` and ``Souza``) with non-name words (sentence starters, pronouns, greetings,
    titles, days, months) dropped at their ends; a lone word that opens a sentence is ignored
    (``Please`` / ``Invoices``), so a single name at a sentence start is found only when known,
    and a capitalised word that opens a sentence right before a name is read as part of it
    ("Ping Jo" at a sentence start). Deterministic; no model is involved.
    """
    found: dict[str, Mention] = {}
    taken: list[tuple[int, int]] = []

    def add(mention: Mention, end: int) -> None:
        key = mention.person_id or mention.name.lower()
        taken.append((mention.start, end))
        if key not in found or found[key].start > mention.start:
            found[key] = mention

    first_names: dict[str, list[tuple[str, str]]] = {}
    for person_id, name in known:
        words = name.split()
        if len(words) >= 2 and len(words[0]) >= 2:
            first_names.setdefault(words[0].lower(), []).append((person_id, name))
    for person_id, name in known:
        pattern = r"(?<!\w)" + r"\s+".join(re.escape(w) for w in name.split()) + r"(?!\w)"
        for match in re.finditer(pattern, text, flags=re.IGNORECASE):
            add(
                Mention(name=name, person_id=person_id, known=True, start=match.start()),
                match.end(),
            )
    for first, owners in first_names.items():
        if len(owners) != 1:
            continue
        person_id, name = owners[0]
        for match in re.finditer(r"(?<!\w)" + re.escape(first) + r"(?!\w)", text, re.IGNORECASE):
            if match.group(0)[0].isupper() and not _overlaps(taken, match.start(), match.end()):
                add(
                    Mention(name=name, person_id=person_id, known=True, start=match.start()),
                    match.end(),
                )

    for run in _CAPITALISED_RUN.finditer(text):
        spans = [
            (m.start() + run.start(), m.end() + run.start())
            for m in re.finditer(r"\S+", run.group(0))
        ]
        while spans and text[spans[0][0] : spans[0][1]].lower() in _NOT_NAMES:
            spans.pop(0)
        while spans and text[spans[-1][0] : spans[-1][1]].lower() in _NOT_NAMES:
            spans.pop()
        if not spans or len(spans) > MAX_NAME_WORDS:
            continue
        start, end = spans[0][0], spans[-1][1]
        if _overlaps(taken, start, end):
            continue
        if len(spans) == 1 and _SENTENCE_END.search(text[:start]):
            continue
        add(Mention(name=text[start:end], known=False, start=start), end)
    return sorted(found.values(), key=lambda mention: mention.start)


def _overlaps(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(start < taken_end and taken_start < end for taken_start, taken_end in spans)


def name_key(name: str) -> str:
    """The case-insensitive look-up key of a name (as Cypher's ``toLower(trim(name))``)."""
    return " ".join(name.split()).lower()
