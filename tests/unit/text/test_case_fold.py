"""The folding the name index looks words up by (app/text/case_fold.py), checked against the
``re`` of the running Python: every pair of characters ``re`` matches under IGNORECASE folds
alike, folding keeps the text's length and its word and space characters in place, and two
literal texts with one ``literal_key`` match the same."""

from __future__ import annotations

import re
from collections import defaultdict

from app.text.case_fold import IOTA_LETTERS, IOTA_SUBSCRIPT, fold, literal_key

EVERY_CHARACTER = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF)
WORD = re.compile(r"\w")
SPACE = re.compile(r"\s")


def _cased() -> str:
    """Every character with a case (and the letters a case maps to): the only ones ``re``
    matches with another under IGNORECASE."""
    cased = {c for c in EVERY_CHARACTER if c.lower() != c or c.upper() != c or c.casefold() != c}
    mapped = {m for c in cased for m in c.lower() + c.upper() + c.casefold()}
    return "".join(sorted(cased | mapped | set("\u0131\u017f\u00b5\u1fbe" + IOTA_SUBSCRIPT)))


CASED = _cased()


def test_folding_keeps_the_length_and_where_words_and_spaces_are() -> None:
    folded = fold(EVERY_CHARACTER)

    assert len(folded) == len(EVERY_CHARACTER)
    assert [m.start() for m in WORD.finditer(folded)] == [
        m.start() for m in WORD.finditer(EVERY_CHARACTER)
    ]
    assert [m.start() for m in SPACE.finditer(folded)] == [
        m.start() for m in SPACE.finditer(EVERY_CHARACTER)
    ]
    # str.isspace is re's \s (names.py reads a sentence's end by it).
    assert [i for i, c in enumerate(EVERY_CHARACTER) if c.isspace()] == [
        m.start() for m in SPACE.finditer(EVERY_CHARACTER)
    ]


def test_characters_re_matches_in_any_case_fold_alike() -> None:
    unlike, across_words = [], []
    for pattern in CASED:
        for match in re.finditer(re.escape(pattern), CASED, re.IGNORECASE):
            text = match.group()
            if IOTA_SUBSCRIPT in pattern + text:  # the one exception, handled by its caller
                assert {pattern, text} <= IOTA_LETTERS
                continue
            if fold(pattern) != fold(text):
                unlike.append((pattern, text))
            if bool(WORD.match(pattern)) != bool(WORD.match(text)):
                across_words.append((pattern, text))

    assert unlike == []
    assert across_words == []


def test_literals_with_one_key_match_the_same_characters() -> None:
    by_key: dict[str, list[str]] = defaultdict(list)
    for character in CASED:
        by_key[literal_key(character)].append(character)

    different = []
    for alike in (group for group in by_key.values() if len(group) > 1):
        matched = [
            [m.start() for m in re.finditer(re.escape(c), CASED, re.IGNORECASE)] for c in alike
        ]
        different += [c for c, found in zip(alike, matched, strict=True) if found != matched[0]]

    assert different == []
    assert literal_key("Maria") == literal_key("MARIA") != literal_key("Marja")
    assert literal_key("İvan") != literal_key("i\u0307van")
