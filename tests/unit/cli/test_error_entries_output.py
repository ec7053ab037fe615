"""The CLI prints each entry of an error's ``details.errors`` (docs/api.md, "Error entries")
as where, then why: a file with its line and field, a request's field path."""

from __future__ import annotations

import pytest

from app.cli.common import print_error_entries
from app.errors import CorpusFileInvalid, SeedFileInvalid, error_entry, file_location


def test_corpus_entries_name_the_file_line_and_field(capsys: pytest.CaptureFixture[str]) -> None:
    error = CorpusFileInvalid(
        [
            error_entry(file_location("bad.jsonl", "text", line=2), "Field required", "missing"),
            error_entry(file_location("empty.txt"), "the file has no text", "empty_file"),
            error_entry([], "3 more problems", "too_many_errors"),
        ]
    )

    print_error_entries(error)

    assert capsys.readouterr().err.splitlines() == [
        "bad.jsonl line 2: text: Field required",
        "empty.txt: the file has no text",
        "3 more problems",
    ]
    assert error.message == "bad.jsonl line 2: text: Field required (and 2 more)"


def test_seed_entries_name_the_file_and_the_field_path(capsys: pytest.CaptureFixture[str]) -> None:
    where = file_location("pack.yaml", "skill", "vocabulary", 0, "verb")
    error = SeedFileInvalid("pack.yaml", [error_entry(where, "verb listed twice", "duplicate")])
    body = SeedFileInvalid(
        "request body", [error_entry(["body", "beliefs"], "SUPPORTS cycle a -> a", "cycle")]
    )

    print_error_entries(error)
    print_error_entries(body)

    assert capsys.readouterr().err.splitlines() == [
        "pack.yaml: skill.vocabulary[0].verb: verb listed twice",
        "body.beliefs: SUPPORTS cycle a -> a",
    ]
    assert error.message == "pack.yaml: skill.vocabulary[0].verb: verb listed twice"
    assert body.message == "request body: beliefs: SUPPORTS cycle a -> a"


def test_a_yaml_syntax_entry_names_the_line() -> None:
    where = file_location("pack.yaml", line=3)
    error = SeedFileInvalid("pack.yaml", [error_entry(where, "not valid YAML: x", "yaml_invalid")])

    assert where == ["file", "pack.yaml", "line", 3]
    assert error.message == "pack.yaml: line 3: not valid YAML: x"
