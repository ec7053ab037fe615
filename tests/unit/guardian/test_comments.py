"""The censors read a text without its SQL comments as well as the text itself: a comment
between two keywords (`DROP/**/TABLE`) hid them from every shipped SQL censor."""

from __future__ import annotations

import pytest

from app.guardian.check import evaluate
from app.guardian.comments import without_comments
from app.guardian.patterns import shipped_censors


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("DROP/**/TABLE ledger;", "DROP TABLE ledger;"),
        ("DROP /* keep */ TABLE ledger;", "DROP   TABLE ledger;"),
        ("DROP -- a note\nTABLE ledger;", "DROP  \nTABLE ledger;"),
        ("DROP /* never closed TABLE ledger;", "DROP  "),
        ("no comment here", "no comment here"),
    ],
)
def test_comments_become_one_space(text: str, plain: str) -> None:
    assert without_comments(text) == plain


def test_a_text_without_comments_is_the_same_object() -> None:
    text = "SELECT name FROM invoices"
    assert without_comments(text) is text


@pytest.mark.parametrize(
    ("text", "action", "key"),
    [
        ("DROP/**/TABLE ledger;", "block", "sql_drop_table"),
        ("DROP -- tidy up\nTABLE ledger;", "block", "sql_drop_table"),
        ("DROP/* x */DATABASE ledger;", "absolute", "sql_drop_database"),
    ],
)
def test_a_comment_between_keywords_does_not_hide_them(text: str, action: str, key: str) -> None:
    verdict = evaluate(text, shipped_censors())

    assert verdict.action == action, verdict.reason
    assert any(match.key == key for match in verdict.matches)
