"""Finding people's names in a text (known people by name or first name, new ones as runs of
capitalised words), and the case-insensitive look-up key of a name. Pure; no model is involved.

Many texts are read against the same people (an import: every episode against every speaker of
the batch), so the known names are indexed once (:class:`KnownNames`) and a text is read in time
that grows with its length and the names it says, not with the number of names known: its
tokens are looked up in a tree of the names' tokens, and only where a name's tokens are found
is the name's own expression tried, the one that decides. What a text names is the same as
searching it with every name's expression in turn (``tests/unit/memory/
test_mentions_reference.py`` holds that search).
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right, insort
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from app.memory.people.models import Mention
from app.text.case_fold import IOTA_LETTERS, IOTA_SUBSCRIPT, fold, literal_key

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


def _letter_class(wanted: tuple[str, ...]) -> str:
    """A regex character class body of the characters below U+2000 (Latin, Greek, Cyrillic and
    their extensions) whose Unicode category starts with one of ``wanted`` (``Lu`` upper-case,
    ``Ll`` lower-case, ``M`` combining marks), as ranges."""
    chosen = [c for c in range(0x2000) if unicodedata.category(chr(c)).startswith(wanted)]
    ranges: list[tuple[int, int]] = []
    for code in chosen:
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1] = (ranges[-1][0], code)
        else:
            ranges.append((code, code))
    return "".join(
        re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}"
        for a, b in ranges
    )


# A capitalised word in any of those scripts ("Zoë", "Łukasz", "María"; "McDonald" whole: a
# capital may follow lower-case letters), its lower-case letters followed by any combining mark.
_UPPER = _letter_class(("Lu", "Lt"))
_LOWER = _letter_class(("Ll", "M"))
_PART = rf"[{_UPPER}][{_LOWER}]+(?:[{_UPPER}][{_LOWER}]+)*"
_CAPITALISED_WORD = rf"(?<![{_UPPER}{_LOWER}]){_PART}(?:['’\-][{_UPPER}{_LOWER}][{_LOWER}]*)*"
_CAPITALISED_RUN = re.compile(rf"{_CAPITALISED_WORD}(?:[ \t]+{_CAPITALISED_WORD})*")
_SENTENCE_END = re.compile(r"(?:^|[.!?:;\n\"“(]\s*)$")
_RUN_WORD = re.compile(r"\S+")
# What a name and a text are looked up by: runs of word characters and single other characters
# of the folded text (app/text/case_fold.py), so that any case matches, each after the
# whitespace before it (one marks a token that follows whitespace: between two words of a name).
_TOKEN = re.compile(r"(\s*)(\w+|[^\w\s])")
MAX_NAME_WORDS = 3

Span = tuple[int, int]


def find_mentions(text: str, known: Sequence[tuple[str, str]]) -> list[Mention]:
    """People named in ``text``, in order of first appearance, each once.

    A known person (``known`` = (id, name) pairs) is found by their full name (any case, whole
    words) or by a first name that is capitalised in the text and belongs to one known person
    only. Other names are runs of one to three capitalised words (``Maria``, ``Ana de Souza`` is
    read as ``Ana`` and ``Souza``) with non-name words (sentence starters, pronouns, greetings,
    titles, days, months) dropped at their ends; a lone word that opens a sentence is ignored
    (``Please`` / ``Invoices``), so a single name at a sentence start is found only when known,
    and a capitalised word that opens a sentence right before a name is read as part of it
    ("Ping Jo" at a sentence start). Deterministic; no model is involved. To read many texts
    against the same people, build :class:`KnownNames` once.
    """
    return KnownNames(known).mentions(text)


@dataclass
class _Expression:
    """One sequence of words searched for as whole words in any case (a known name, or a first
    name): the regular expression that decides, compiled when first needed."""

    source: str
    compiled: re.Pattern[str] | None = None

    def get(self) -> re.Pattern[str]:
        if self.compiled is None:
            self.compiled = re.compile(self.source, re.IGNORECASE)
        return self.compiled


@dataclass
class _Node:
    """A node of the tree of names' tokens: the expressions whose tokens end here."""

    children: dict[str, _Node] = field(default_factory=dict)
    expressions: list[int] = field(default_factory=list)


class KnownNames:
    """The known people of :func:`find_mentions`, indexed once to read any number of texts.

    Each full name and each first name is one expression (``(?<!\\w)Maria\\s+Lopez(?!\\w)``,
    any case); its tokens, folded, are a path in a tree. A text's tokens are walked down the
    tree, and an expression is tried only where its path was found, as a whole-text search of
    it would have found it (its matches one after the other, none overlapping). A name with the
    iota subscript (U+0345, app/text/case_fold.py), or with an iota in a text that has it, is
    searched for in the whole text instead, as is a name of no words.
    """

    def __init__(self, known: Iterable[tuple[str, str]]) -> None:
        self._known = list(known)
        self._expressions: list[_Expression] = []
        self._ids: dict[str, int] = {}
        self._root = _Node()
        self._scanned: set[int] = set()  # searched in every text: no tokens to look up
        self._iota: set[int] = set()  # searched in a text with the iota subscript
        self._full = [self._expression(name.split()) for _, name in self._known]
        self._named: dict[int, list[int]] = {}
        for index, expression in enumerate(self._full):
            self._named.setdefault(expression, []).append(index)
        self._firsts = self._first_names()

    def _first_names(self) -> list[tuple[int, str, str]]:
        """The first names that find a known person: (expression, person id, name) of each
        first name (of a name of two words or more, two letters or more) that one known name
        has, in the order of the known names."""
        owners: dict[str, list[tuple[str, str]]] = {}
        for person_id, name in self._known:
            words = name.split()
            if len(words) >= 2 and len(words[0]) >= 2:
                owners.setdefault(words[0].lower(), []).append((person_id, name))
        return [
            (self._expression([first]), *found[0])
            for first, found in owners.items()
            if len(found) == 1
        ]

    def _expression(self, words: list[str]) -> int:
        """The id of the expression of ``words``: one for the names ``re`` reads alike (that
        differ in the case of their letters only)."""
        source = r"(?<!\w)" + r"\s+".join(re.escape(w) for w in words) + r"(?!\w)"
        key = literal_key(source)
        if key in self._ids:
            return self._ids[key]
        expression = len(self._expressions)
        self._expressions.append(_Expression(source))
        self._ids[key] = expression
        letters = "".join(words)
        if not words or IOTA_SUBSCRIPT in letters:
            self._scanned.add(expression)
            return expression
        if not IOTA_LETTERS.isdisjoint(letters):
            self._iota.add(expression)
        node = self._root
        tokens = _tokens(" ".join(fold(word) for word in words))
        for key in [tokens[0][1], *(after for _, _, after in tokens[1:])]:
            node = node.children.setdefault(key, _Node())
        node.expressions.append(expression)
        return expression

    def mentions(self, text: str) -> list[Mention]:
        """People named in ``text``, as :func:`find_mentions` says."""
        spans = self._spans(text)
        found = _Found(len(text))
        # Every match of a full name is taken; each name is found at its first match (the
        # names of one expression share its matches: they are read once).
        for expression in spans.keys() & self._named.keys():
            for start, end in spans[expression]:
                found.taken.add(start, end)
        for index in sorted(i for e in spans for i in self._named.get(e, ())):
            person_id, name = self._known[index]
            found.keep(person_id, name, True, spans[self._full[index]][0][0])
        for expression, person_id, name in self._firsts:
            for start, end in spans.get(expression, ()):
                if text[start].isupper() and not found.taken.overlaps(start, end):
                    found.add(person_id, name, True, start, end)
        _add_new_names(text, found)
        return sorted(found.mentions.values(), key=lambda mention: mention.start)

    def _spans(self, text: str) -> dict[int, list[Span]]:
        """Each expression's matches in ``text`` (those that have any), in order."""
        scanned = set(self._scanned)
        if IOTA_SUBSCRIPT in text:
            scanned |= self._iota
        spans: dict[int, list[Span]] = {}
        for expression, starts in self._candidates(text).items():
            if expression not in scanned:
                matches = self._matches_at(expression, text, starts)
                if matches:
                    spans[expression] = matches
        for expression in scanned:
            matches = [m.span() for m in self._expressions[expression].get().finditer(text)]
            if matches:
                spans[expression] = matches
        return spans

    def _candidates(self, text: str) -> dict[int, list[int]]:
        """Where each expression may match: the starts of the text's runs of tokens that are a
        path of the tree, in order."""
        candidates: dict[int, list[int]] = {}
        if not self._root.children:
            return candidates
        tokens = _tokens(fold(text))
        for first, (start, token, _) in enumerate(tokens):
            node = self._root.children.get(token)
            following = first + 1
            while node is not None:
                for expression in node.expressions:
                    candidates.setdefault(expression, []).append(start)
                if following == len(tokens) or not node.children:
                    break
                node = node.children.get(tokens[following][2])
                following += 1
        return candidates

    def _matches_at(self, expression: int, text: str, starts: list[int]) -> list[Span]:
        """The matches a search of the whole text would find, tried at ``starts`` only: after a
        match, the next one starts at its end or later."""
        compiled = self._expressions[expression].get()
        matches: list[Span] = []
        resume = 0
        for start in starts:
            if start < resume:
                continue
            match = compiled.match(text, start)
            if match is not None:
                matches.append(match.span())
                resume = match.end()
        return matches


def _tokens(folded: str) -> list[tuple[int, str, str]]:
    """The tokens of a folded text: where each starts, its key at the top of the tree and its
    key after another token (with a space before it when whitespace separates them)."""
    return [
        (m.start(2), m[2], " " + m[2] if m.end(1) > m.start(1) else m[2])
        for m in _TOKEN.finditer(folded)
    ]


class _Taken:
    """The spans of the text already read as names: whether a new one overlaps any."""

    def __init__(self, length: int) -> None:
        self._covered = bytearray(length)
        self._points: list[int] = []  # empty spans: a blank name's, between two non-words

    def add(self, start: int, end: int) -> None:
        if end > start:
            self._covered[start:end] = b"\x01" * (end - start)
        else:
            insort(self._points, start)

    def overlaps(self, start: int, end: int) -> bool:
        """Whether the non-empty span [start, end) overlaps a span taken."""
        if self._covered.find(1, start, end) != -1:
            return True
        after = bisect_right(self._points, start)
        return after < len(self._points) and self._points[after] < end


class _Found:
    """The mentions found so far (each person or new name once, at its first place) and the
    spans taken."""

    def __init__(self, length: int) -> None:
        self.mentions: dict[str, Mention] = {}
        self.taken = _Taken(length)

    def add(self, person_id: str | None, name: str, known: bool, start: int, end: int) -> None:
        self.taken.add(start, end)
        self.keep(person_id, name, known, start)

    def keep(self, person_id: str | None, name: str, known: bool, start: int) -> None:
        """The mention, unless its person or name was found before this place."""
        key = person_id or name.lower()
        held = self.mentions.get(key)
        if held is None or held.start > start:
            self.mentions[key] = Mention(name=name, person_id=person_id, known=known, start=start)


def _add_new_names(text: str, found: _Found) -> None:
    """The runs of capitalised words not taken by a known name, as new names."""
    for run in _CAPITALISED_RUN.finditer(text):
        spans = [
            (m.start() + run.start(), m.end() + run.start()) for m in _RUN_WORD.finditer(run[0])
        ]
        while spans and text[spans[0][0] : spans[0][1]].lower() in _NOT_NAMES:
            spans.pop(0)
        while spans and text[spans[-1][0] : spans[-1][1]].lower() in _NOT_NAMES:
            spans.pop()
        if not spans or len(spans) > MAX_NAME_WORDS:
            continue
        start, end = spans[0][0], spans[-1][1]
        if found.taken.overlaps(start, end):
            continue
        if len(spans) == 1 and _opens_sentence(text, start):
            continue
        found.add(None, text[start:end], False, start, end)


def _opens_sentence(text: str, start: int) -> bool:
    """Whether ``text[:start]`` ends a sentence (or is empty), read from its last character
    other than whitespace only: a match of ``_SENTENCE_END`` starts there or later."""
    last = start
    while last > 0 and text[last - 1].isspace():
        last -= 1
    return _SENTENCE_END.search(text, max(last - 1, 0), start) is not None


def name_key(name: str) -> str:
    """The case-insensitive look-up key of a name (as Cypher's ``toLower(trim(name))``)."""
    return " ".join(name.split()).lower()
