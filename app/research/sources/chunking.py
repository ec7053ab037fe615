"""Splitting a document's text into passages a search can return whole.

Paragraphs (blank-line separated) are the unit: consecutive paragraphs are packed into one
passage up to ``max_chars``; a longer paragraph is split between sentences, and a sentence
longer still between words. Markdown is first split into sections at its headings, and a passage
never spans two sections (each starts with its section's heading, so a search on the heading's
words finds it).
"""

from __future__ import annotations

import re

DEFAULT_MAX_CHARS = 1000
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_SPACES = re.compile(r"\s+")
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+")
_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.+?)[ \t#]*$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")


def chunk_text(text: str, max_chars: int = DEFAULT_MAX_CHARS) -> list[str]:
    """The passages of plain text: paragraphs packed up to ``max_chars`` (whitespace inside a
    paragraph collapsed to single spaces)."""
    return _pack(_paragraphs(text), max_chars)


def chunk_markdown(text: str, max_chars: int = DEFAULT_MAX_CHARS) -> list[str]:
    """The passages of markdown: per section (split at headings outside code fences), its
    paragraphs packed up to ``max_chars``, each passage led by the section's heading."""
    passages: list[str] = []
    for heading, body in markdown_sections(text):
        prefix = f"{heading}\n\n" if heading else ""
        room = max(max_chars - len(prefix), max_chars // 2)
        chunks = _pack(_paragraphs(body), room)
        if not chunks and heading:
            passages.append(heading)
        passages += [prefix + chunk for chunk in chunks]
    return passages


def markdown_sections(text: str) -> list[tuple[str, str]]:
    """(heading text or "", body) per section, in order; headings inside code fences are text."""
    sections: list[tuple[str, list[str]]] = [("", [])]
    in_fence = False
    for line in text.splitlines():
        if _FENCE.match(line):
            in_fence = not in_fence
        heading = None if in_fence else _HEADING.match(line)
        if heading:
            sections.append((heading.group(2).strip(), []))
        else:
            sections[-1][1].append(line)
    return [(heading, "\n".join(lines)) for heading, lines in sections if heading or any(lines)]


def markdown_title(text: str) -> str | None:
    """The text of the first heading (outside code fences), if there is one."""
    for heading, _ in markdown_sections(text):
        if heading:
            return heading
    return None


def _paragraphs(text: str) -> list[str]:
    normalised = text.replace("\r\n", "\n").replace("\r", "\n")
    found = (_SPACES.sub(" ", block).strip() for block in _BLANK_LINE.split(normalised))
    return [paragraph for paragraph in found if paragraph]


def _pack(paragraphs: list[str], max_chars: int) -> list[str]:
    """Paragraphs packed greedily (joined by a blank line) into passages of at most
    ``max_chars``; a longer paragraph is first split into pieces that fit."""
    passages: list[str] = []
    current = ""
    for paragraph in paragraphs:
        for piece in _fit(paragraph, max_chars):
            joined = f"{current}\n\n{piece}" if current else piece
            if len(joined) <= max_chars:
                current = joined
                continue
            passages.append(current)
            current = piece
    if current:
        passages.append(current)
    return passages


def _fit(paragraph: str, max_chars: int) -> list[str]:
    """A paragraph as pieces of at most ``max_chars``: whole, else sentences packed, else (for a
    sentence too long) words packed, else (for a word too long) cut."""
    if len(paragraph) <= max_chars:
        return [paragraph]
    pieces: list[str] = []
    for sentence in _SENTENCE_END.split(paragraph):
        words = [sentence] if len(sentence) <= max_chars else _words(sentence, max_chars)
        for word in words:
            if pieces and len(pieces[-1]) + 1 + len(word) <= max_chars:
                pieces[-1] = f"{pieces[-1]} {word}"
            else:
                pieces.append(word)
    return pieces


def _words(sentence: str, max_chars: int) -> list[str]:
    words: list[str] = []
    for word in sentence.split(" "):
        while len(word) > max_chars:
            words.append(word[:max_chars])
            word = word[max_chars:]
        if word:
            words.append(word)
    return words
