"""The error table of docs/api.md lists every error code the API can answer with, with its status
and what it means, in alphabetical order (tests/support/error_codes.py collects them from the
CredenceError classes)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.support.error_codes import error_codes

API_DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def _rows() -> list[tuple[str, str, str]]:
    """(code, status, meaning) of each row of the table, in the table's order."""
    text = API_DOC.read_text()
    section = text.split("### Error codes", 1)[1].split("\n#", 1)[0]
    return re.findall(r"^\| `(\w+)` \| (\d{3}) \|(.*)\|$", section, flags=re.MULTILINE)


def test_the_api_doc_error_table_lists_every_code_with_its_status() -> None:
    listed = {code: int(status) for code, status, _ in _rows()}
    expected = {code: status for code, (status, _) in error_codes().items()}
    assert listed == expected, (
        "docs/api.md 'Error codes' is out of date; regenerate it with "
        "`.venv/bin/python -m tests.support.error_codes`"
    )


def test_the_error_table_is_in_alphabetical_order() -> None:
    codes = [code for code, _, _ in _rows()]
    assert codes == sorted(codes), [c for c, s in zip(codes, sorted(codes), strict=True) if c != s]


def test_every_code_of_the_error_table_says_what_it_means() -> None:
    """A code with no meaning in the table comes from an error class without a docstring."""
    assert [code for code, _, meaning in _rows() if not meaning.strip()] == []
    assert [code for code, (_, meaning) in error_codes().items() if not meaning] == []
