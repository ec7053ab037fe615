"""Text that shows nothing is blank: white space and invisible format characters (a zero-width
space passed as a person's name or alias, a belief's statement)."""

from __future__ import annotations

import pytest

from app.common import not_blank


@pytest.mark.parametrize("text", ["", "   ", "\u200b", " \u200b\u200d ", "\u2060", "\ufeff"])
def test_text_of_white_space_and_invisible_characters_is_blank(text: str) -> None:
    with pytest.raises(ValueError, match="must not be blank"):
        not_blank(text)


@pytest.mark.parametrize(
    ("text", "kept"), [(" Zoë ", "Zoë"), ("\u200bBob", "\u200bBob"), ("ǅ", "ǅ"), ("42", "42")]
)
def test_text_that_shows_something_is_kept_trimmed(text: str, kept: str) -> None:
    assert not_blank(text) == kept
