"""Questions that ask for several things, told by their wording (app/text/several_answers.py),
and the asked names left out of a question (app/retrieval/asked_people.py)."""

from __future__ import annotations

import pytest

from app.retrieval.asked_people import without_names
from app.text.several_answers import asks_for_several


@pytest.mark.parametrize(
    "question",
    [
        "What activities does Melanie partake in?",
        "Which cities has Jon visited?",
        "What kind of books does Caroline have in her library?",
        "How many children does Melanie have?",
        "In what ways is Caroline participating in the community?",
        "What has Maria done to feel closer to her faith?",
        "Where has Melanie camped?",
        "what pets does kate have",
    ],
)
def test_a_question_asking_for_several_things(question: str) -> None:
    assert asks_for_several(question)


@pytest.mark.parametrize(
    "question",
    [
        "What did Caroline research?",
        "When did Melanie go camping?",
        "What is Caroline's relationship status?",
        "Where did Caroline move from?",
        "What does Melanie do to destress?",
        "What class did Kate take?",
    ],
)
def test_a_question_asking_for_one_thing(question: str) -> None:
    assert not asks_for_several(question)


@pytest.mark.parametrize(
    "question",
    [
        "What are Kate's hobbies?",
        "What are the names of John's children?",
        "What types of yoga has Maria practiced?",
        "What type of volunteering have John and Maria done?",
        "What people has Maria met while volunteering?",
        "Which city have both Jean and John visited?",
        "What do Jon and Gina have in common?",
    ],
)
def test_the_broad_reading_adds_sets_without_a_plural_thing(question: str) -> None:
    assert not asks_for_several(question)
    assert asks_for_several(question, broad=True)


@pytest.mark.parametrize(
    "question",
    [
        "What did Caroline research?",
        "What is Caroline's relationship status?",
        "What kind of pot did Mel make with clay?",
        "What kind of place does Caroline want to create?",
        "What class did Kate take?",
    ],
)
def test_the_broad_reading_still_tells_one_thing(question: str) -> None:
    assert not asks_for_several(question, broad=True)


def test_names_are_left_out_with_their_possessive() -> None:
    assert without_names("What are Melanie's pets' names?", ["melanie"]) == "What are pets' names?"
    assert without_names("Which city have Jean and JOHN visited?", ["john", "jean"]) == (
        "Which city have and visited?"
    )
    assert without_names("What did Melanielle do?", ["melanie"]) == "What did Melanielle do?"
