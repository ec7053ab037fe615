"""A statement longer than a belief holds is cut at a word boundary, where the claim is made."""

from __future__ import annotations

from app.text.claims import MAX_STATEMENT_CHARS, clip_statement


def test_a_statement_that_fits_is_kept_as_it_is() -> None:
    text = "x " * (MAX_STATEMENT_CHARS // 2)
    assert clip_statement(text.strip()) == text.strip()


def test_a_long_sentence_is_cut_at_a_word_boundary_and_marked() -> None:
    text = " ".join(f"word{n}" for n in range(3000)) + "."

    clipped = clip_statement(text)

    assert len(clipped) <= MAX_STATEMENT_CHARS
    assert clipped.endswith("…")
    assert text.startswith(clipped[:-1])
    assert clipped[:-1].split()[-1] in text.split()


def test_one_word_longer_than_the_limit_is_cut_inside_it() -> None:
    clipped = clip_statement("a" * 10_000, 100)

    assert clipped == "a" * 99 + "…"
