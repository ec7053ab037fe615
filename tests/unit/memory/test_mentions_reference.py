"""The indexed name search (app/memory/people/names.py ``KnownNames``) finds what searching the
text with each known name's expression in turn found (``reference_mentions`` below: the finder
as it was before the index, kept verbatim), on generated texts and names full of the edges:
overlapping names, names that differ in case or spacing only, word boundaries, possessives,
sentence starts, letters ``re`` takes for one another, blank names."""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.memory.people.models import Mention
from app.memory.people.names import (
    _CAPITALISED_RUN,
    _NOT_NAMES,
    _SENTENCE_END,
    MAX_NAME_WORDS,
    KnownNames,
    find_mentions,
)

# The word lists and expressions are the module's own: what is kept apart is the search.


def reference_mentions(text: str, known: Sequence[tuple[str, str]]) -> list[Mention]:
    """``find_mentions`` before the index: each known name's expression searched in turn."""
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


# Words and the letters around them that make the edges: case and spacing variants, parts of
# other names, possessives, sentence starters, letters re matches across case (ı İ ſ K ς ẞ),
# the iota subscript, punctuation that ends a sentence or joins words.
_WORDS = """
    Maria maria MARIA Lopez lopez Jo jo Park Kim Ana de Souza Sam sam Samantha Tom
    The Please Monday Hi Dr and x _ a_b Ping Jo's Maria's O'Brien Jean-Luc Luc Dr. (Bob) Zoë ZOË
    İvan ivan Ivan ıvan Σίσυφος ΣΊΣΥΦΟΣ σίσυφοσ Ιων ιων K \u212a ſam Straße ẞ ß SS ᾳ ᾼ \u0345ων
"""
WORDS = _WORDS.split()
GLUE = [" ", "  ", "\t", "\n", ". ", ", ", "! ", "? ", ": ", '"', "“", "(", "-", "'", "’", ""]
GLUE += ["\u00a0", "\u0345", " \n "]
texts = st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(GLUE)), max_size=30).map(
    lambda parts: "".join(word + glue for word, glue in parts)
)
names = st.one_of(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).flatmap(
        lambda words: st.sampled_from([" ", "  ", "\t"]).map(lambda space: space.join(words))
    ),
    st.sampled_from(["", " "]),
)
people = st.lists(st.tuples(st.sampled_from(["p1", "p2", "p3", ""]), names), max_size=8).map(
    lambda pairs: [(person_id or name, name) for person_id, name in pairs]
)


@settings(max_examples=400, deadline=None)
@given(known=people, some_texts=st.lists(texts, min_size=1, max_size=4))
def test_the_index_finds_what_each_name_searched_in_turn_found(
    known: list[tuple[str, str]], some_texts: list[str]
) -> None:
    index = KnownNames(known)
    for text in some_texts:
        expected = reference_mentions(text, known)
        assert index.mentions(text) == expected
        assert find_mentions(text, known) == expected


def test_many_speakers_over_long_texts_as_before() -> None:
    """An import's case: every text of a batch against its many speakers (names of two words and
    a number, first names shared), long texts that name many of them."""
    first = [word for word in WORDS if word.istitle()][:9]
    speakers = [f"{first[i % len(first)]} Lopez {i}" for i in range(60)]
    known = [(name, name) for name in speakers]
    words = [*speakers[::3], *first, "the", "report.", "said", "Ask", "maria", "LOPEZ 12"]
    index = KnownNames(known)
    for seed in range(5):
        text = " ".join(words[(seed * 7 + i * 13) % len(words)] for i in range(600))
        assert index.mentions(text) == reference_mentions(text, known)


@pytest.mark.parametrize(
    ("text", "known"),
    [
        # re matches iota with the iota subscript (U+0345), which is no word character: the
        # index searches the whole text for such names.
        ("\u0345ων and ιων", [("p", "Ιων")]),
        ("a\u0345 Ivan\u0345", [("p", "Ivan"), ("q", "A")]),
        ("ιων", [("p", "\u0345ων")]),
        # Letters whose lower case is two ("İ": "i" and a combining dot): "İvan" and "i̇van"
        # lower alike, yet are two expressions, as are "ß" and "ẞ" (a case re is sure of).
        ("İvan", [("capital", "İvan"), ("dotted", "i\u0307van")]),
        ("ẞ and ß", [("sharp", "ß"), ("capital", "ẞ")]),
        # A name's matches do not overlap: "Jo Jo" is read once in "Jo Jo Jo", so the last "Jo"
        # (after a no-break space, no sentence end) is a new name.
        ("Jo Jo\u00a0Jo", [("p", "Jo Jo"), ("q", "Jo Kim")]),
        # Names alike but for their case or spacing share an expression, each still found.
        ("o'brien and O' Brien", [("a", "O'Brien"), ("b", "o'BRIEN"), ("c", "O' Brien")]),
        # A blank name matches between two non-word characters, and what it takes counts.
        ("Maria  Lopez - Tom", [("blank", " "), ("p", "Maria Lopez")]),
    ],
)
def test_the_rare_letters_and_names_as_before(text: str, known: list[tuple[str, str]]) -> None:
    assert find_mentions(text, known) == reference_mentions(text, known)
