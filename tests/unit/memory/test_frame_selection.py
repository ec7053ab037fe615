"""Frame selection and pattern matching (pure, against the shipped seeds/frames.yaml)."""

from __future__ import annotations

import pytest

from app.memory.frames import TIE_ORDER, default_frames, select_frame
from app.seeds.pack_schema import FrameSpec
from app.text.patterns import matched_patterns


def _frame(key: str, *patterns: str) -> FrameSpec:
    return FrameSpec(
        key=key,
        name=key,
        activation_patterns=list(patterns),
        default_category="contextual",
        default_stakes="low",
    )


def test_single_words_match_whole_tokens_and_phrases_match_as_substrings() -> None:
    patterns = ["error", "pros and cons", "don't", "set up"]
    assert matched_patterns(patterns, "A terrorist's  PROS   and cons") == ["pros and cons"]
    assert matched_patterns(patterns, "Error: I don’t know how to set up") == [
        "error",
        "don't",
        "set up",
    ]
    assert matched_patterns(patterns, "errors, setup") == []


def test_most_matches_wins() -> None:
    frames = [_frame("task", "fix", "deploy"), _frame("debug", "error", "broken", "crash")]
    selection = select_frame(frames, "Fix the broken build, it throws an error")
    assert selection.key == "debug"
    assert selection.matched and selection.matches == 2
    assert selection.patterns == ["error", "broken"]
    assert [(s.key, s.matches) for s in selection.scores] == [("debug", 2), ("task", 1)]


def test_each_pattern_counts_once() -> None:
    frames = [_frame("task", "fix"), _frame("debug", "error", "bug")]
    assert select_frame(frames, "fix fix fix fix the bug").key == "debug"


def test_ties_follow_the_documented_order() -> None:
    frames = [_frame(key, "go") for key in reversed(TIE_ORDER)] + [_frame("aardvark", "go")]
    assert select_frame(frames, "go").key == "decision"
    scores = [s.key for s in select_frame(frames, "go").scores]
    assert scores == [*TIE_ORDER, "aardvark"]
    assert select_frame([_frame("zebra", "go"), _frame("alpaca", "go")], "go").key == "alpaca"


def test_no_match_selects_conversation() -> None:
    selection = select_frame([_frame("task", "fix")], "lorem ipsum")
    assert selection.key == "conversation" and not selection.matched
    assert select_frame([], "anything").key == "conversation"


@pytest.mark.parametrize(
    ("text", "frame"),
    [
        ("Please reconcile the bank account and update the ledger", "task"),
        ("What is the VAT rate for Germany?", "question"),
        ("Should we switch suppliers? Compare the pros and cons", "decision"),
        ("Brainstorm some ideas for the newsletter", "creative"),
        ("Hello, thanks for yesterday!", "conversation"),
        ("The import job is failing with an exception", "debug"),
        ("lorem ipsum dolor", "conversation"),
    ],
)
def test_the_shipped_frames_select_as_expected(text: str, frame: str) -> None:
    assert select_frame(default_frames(), text).key == frame


def test_the_shipped_frames_are_the_six_defaults() -> None:
    frames = {f.key: f for f in default_frames()}
    assert set(frames) >= {"task", "question", "decision", "creative", "conversation", "debug"}
    stakes = {key: frames[key].default_stakes for key in TIE_ORDER}
    assert stakes == {
        "task": "medium",
        "question": "low",
        "decision": "high",
        "creative": "low",
        "conversation": "low",
        "debug": "medium",
    }
