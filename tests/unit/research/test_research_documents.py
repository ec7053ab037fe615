"""Chunking corpus text into passages and reading corpus files (no database)."""

from __future__ import annotations

import json
import re

import pytest

from app.errors import CorpusFileInvalid
from app.research.sources.chunking import chunk_markdown, chunk_text, markdown_sections
from app.research.sources.documents import (
    DOCUMENT_ID_PATTERN,
    CorpusFile,
    file_document_id,
    format_of,
    read_corpus_files,
)


def test_short_paragraphs_are_packed_into_one_passage() -> None:
    assert chunk_text("One.\n\nTwo\nlines.\n\n\n  Three.  ") == ["One.\n\nTwo lines.\n\nThree."]


def test_paragraphs_are_not_split_while_they_fit() -> None:
    text = "a" * 30 + "\n\n" + "b" * 30 + "\n\n" + "c" * 30
    assert chunk_text(text, max_chars=70) == ["a" * 30 + "\n\n" + "b" * 30, "c" * 30]


def test_a_long_paragraph_is_split_between_sentences_then_words() -> None:
    sentences = " ".join(f"Sentence number {i} is here." for i in range(20))
    passages = chunk_text(sentences, max_chars=60)
    assert all(len(p) <= 60 for p in passages)
    assert " ".join(passages) == sentences
    assert all(p.endswith(".") for p in passages)
    words = chunk_text("word " * 50, max_chars=23)
    assert all(len(p) <= 23 for p in words) and " ".join(words).split() == ["word"] * 50
    assert chunk_text("x" * 25, max_chars=10) == ["x" * 10, "x" * 10, "x" * 5]


@pytest.mark.parametrize("max_chars", [30, 50, 200, 1000])
def test_no_passage_is_longer_than_the_bound_and_no_word_is_lost(max_chars: int) -> None:
    # Words up to 28 characters: none is cut.
    text = "\n\n".join(
        " ".join(f"w{p}x{i}" * (1 + i % 4) for i in range(p * 7 % 40 + 1)) + "." for p in range(30)
    )
    passages = chunk_text(text, max_chars=max_chars)
    assert all(0 < len(p) <= max_chars for p in passages)
    assert " ".join(passages).split() == text.split()


def test_markdown_splits_at_headings_and_leads_each_passage_with_its_heading() -> None:
    text = (
        "Intro line.\n\n# Title\n\nFirst para.\n\n## Part two ##\n\nSecond.\n\n```\n# code\n```\n"
    )
    assert markdown_sections(text)[0] == ("", "Intro line.\n")
    assert [h for h, _ in markdown_sections(text)] == ["", "Title", "Part two"]
    passages = chunk_markdown(text)
    assert passages == [
        "Intro line.",
        "Title\n\nFirst para.",
        "Part two\n\nSecond.\n\n``` # code ```",
    ]


def test_formats_and_ids_from_file_names() -> None:
    assert format_of("a/b/Notes.MD") == "md" and format_of("x.jsonl") == "jsonl"
    assert format_of("x.txt") == "txt" and format_of("x.pdf") is None
    assert file_document_id("dir/tides-2024.md") == "tides-2024.md"
    assert re.fullmatch(r"My-notes-v2~[0-9a-f]{8}\.md", file_document_id("dir/My notes (v2).md"))
    assert re.fullmatch(r"document~[0-9a-f]{8}", file_document_id("..."))


def test_different_file_names_never_share_a_document_id() -> None:
    names = ["日本.txt", "中国.txt", "a b.txt", "a-b.txt", "a_b.txt", "a?b.txt", "x" * 300 + ".txt"]
    names.append("x" * 299 + "y.txt")
    ids = [file_document_id(name) for name in names]
    assert len(set(ids)) == len(ids), ids
    assert all(re.fullmatch(DOCUMENT_ID_PATTERN, i) for i in ids), ids
    assert file_document_id("日本.txt") == file_document_id("dir/日本.txt")  # stable


def _jsonl(name: str, *lines: object) -> CorpusFile:
    content = "".join(
        (line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines
    )
    return CorpusFile(name=name, format="jsonl", content=content)


def test_jsonl_lines_become_documents_with_defaults() -> None:
    [documents] = read_corpus_files(
        [
            _jsonl(
                "news.jsonl",
                {"text": "First.", "id": 7, "url": "https://x.org", "date": "2026-01-02T10:00:00Z"},
                "",
                {"text": "Second.", "title": "T", "origin": "o", "published": "2025-12-31"},
                {"text": "Third.", "extra": "ignored"},
            )
        ]
    )
    assert [(d.document_id, d.title, d.origin, str(d.published)) for d in documents] == [
        ("7", "7", "https://x.org", "2026-01-02"),
        ("news.jsonl:3", "T", "o", "2025-12-31"),
        ("news.jsonl:4", "news.jsonl:4", "news.jsonl:4", "None"),
    ]
    assert documents[0].checksum() != documents[1].checksum()


def test_every_bad_jsonl_line_is_named_with_its_file_and_line() -> None:
    bad = _jsonl(
        "bad.jsonl",
        {"text": "fine", "id": "a"},
        "[1, 2]",
        "{broken",
        {"text": "   "},
        {"title": "no text"},
        {"text": "x", "published": "not a date"},
        {"text": "x", "id": "has space"},
        {"text": "again", "id": "a"},
    )
    with pytest.raises(CorpusFileInvalid) as raised:
        read_corpus_files([bad])
    found = [(e["location"][3:], e["type"]) for e in raised.value.details["errors"]]
    assert found == [
        ([2], "object_type"),
        ([3], "json_invalid"),
        ([4, "text"], "value_error"),
        ([5, "text"], "missing"),
        ([6, "published"], "value_error"),
        ([7, "id"], "invalid_document_id"),
        ([8, "id"], "duplicate_id"),
    ]
    assert "ISO date" in raised.value.details["errors"][4]["message"]
    assert all(
        e["location"][:3] == ["file", "bad.jsonl", "line"] for e in raised.value.details["errors"]
    )
    assert raised.value.message.startswith("bad.jsonl line 2:")


def test_empty_files_and_ids_shared_across_files_are_refused() -> None:
    with pytest.raises(CorpusFileInvalid) as raised:
        read_corpus_files(
            [
                CorpusFile(name="empty.txt", format="txt", content=" \n"),
                CorpusFile(name="blank.jsonl", format="jsonl", content="\n\n"),
                CorpusFile(name="a.md", format="md", content="# A"),
                CorpusFile(name="a.md", format="md", content="# B"),
            ]
        )
    problems = [(e["location"], e["type"]) for e in raised.value.details["errors"]]
    assert problems == [
        (["file", "empty.txt"], "empty_file"),
        (["file", "blank.jsonl"], "no_documents"),
        (["file", "a.md", "id"], "duplicate_id"),
    ]
