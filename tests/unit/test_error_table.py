"""The error table of docs/api.md lists every error code the API can answer with, with its status
(tests/support/error_codes.py collects them from the CredenceError classes)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.support.error_codes import error_codes

API_DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def test_the_api_doc_error_table_lists_every_code_with_its_status() -> None:
    text = API_DOC.read_text()
    section = text.split("### Error codes", 1)[1].split("\n#", 1)[0]
    listed = {
        code: int(status)
        for code, status in re.findall(r"^\| `(\w+)` \| (\d{3}) \|", section, flags=re.MULTILINE)
    }
    expected = {code: status for code, (status, _) in error_codes().items()}
    assert listed == expected, (
        "docs/api.md 'Error codes' is out of date; regenerate it with "
        "`.venv/bin/python -m tests.support.error_codes`"
    )
