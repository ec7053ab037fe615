"""The offline subject extractor: stems that let word forms meet, topics that general English
rarely uses, names kept apart from topics."""

from __future__ import annotations

from app.memory.episode_subjects import episode_subjects
from app.retrieval.coverage import question_subjects
from app.text.entities import entities, named, stem, topics


def test_stem_joins_the_forms_of_a_word() -> None:
    assert stem("hiking") == stem("hikes") == stem("hike") == "hik"
    assert stem("hobbies") == stem("hobby") == "hobby"
    assert stem("camping") == stem("camped") == stem("camp") == "camp"
    assert stem("running") == "run"


def test_topics_are_the_rare_words_rarest_first() -> None:
    keys = [entity.key for entity in topics("I really feel great about pottery and camping")]
    assert keys == ["topic:pottery", "topic:camp"]


def test_a_topic_keeps_the_form_of_the_word_the_text_uses_most() -> None:
    found = topics("Approve the tables: the table, then the tables again, approved.")
    assert {(e.key, e.surface) for e in found} == {
        ("topic:tabl", "tables"),
        ("topic:approv", "approve"),
    }
    # The form is no part of the topic's identity: the stem is its key.
    assert topics("tables")[0] == topics("table")[0]


def test_a_name_is_not_also_a_topic_and_possessives_meet() -> None:
    assert named("Kate's") == named("kate")
    keys = [entity.key for entity in entities("Kate's pottery class", ["Kate's"])]
    assert keys == ["name:kate", "topic:pottery"]


def test_an_episode_is_about_its_speaker_and_the_names_it_says() -> None:
    keys = [e.key for e in episode_subjects("Hey Caroline! We went camping.", "Melanie")]
    assert keys == ["name:caroline", "name:melanie", "topic:camp"]
    assert [e.key for e in episode_subjects("Camping again.", "user")] == ["topic:camp"]


def test_a_question_looks_up_its_names_and_topics() -> None:
    keys = question_subjects("Did Caroline go camping?")
    assert "name:caroline" in keys and "topic:camp" in keys
