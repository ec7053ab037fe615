"""The offline subject extractor: stems that let word forms meet, topics that general English
rarely uses, names kept apart from topics."""

from __future__ import annotations

import re

from app.memory.episode_subjects import episode_subjects
from app.resources import resource_dir
from app.retrieval.coverage import question_subjects
from app.text.entities import entities, named, stem, topics
from app.text.stopwords import CONTRACTIONS


def test_stem_joins_the_forms_of_a_word() -> None:
    assert stem("hiking") == stem("hikes") == stem("hike") == "hik"
    assert stem("hobbies") == stem("hobby") == "hobby"
    assert stem("camping") == stem("camped") == stem("camp") == "camp"
    assert stem("running") == "run"


def test_topics_are_the_rare_words_rarest_first() -> None:
    keys = [entity.key for entity in topics("I really feel great about pottery and camping")]
    assert keys == ["topic:pottery", "topic:camp"]


def test_contractions_are_never_topics() -> None:
    """Their bare forms ("im", "youre", "lets") are rare in written English, which writes them
    with the apostrophe; a LoCoMo speaker's topics were "lets", "im", "youre"."""
    said = "I'm sure you're into pottery, let's go! That's why I didn't call; they're late."
    assert [e.surface for e in topics(said)] == ["pottery"]
    assert [e.surface for e in topics("Im sure youre into pottery lets go thats it")] == ["pottery"]


def test_the_migration_drops_the_topics_of_every_contraction() -> None:
    # Topics linked before contractions were skipped are removed by V0032, which lists their
    # word forms and stems: a contraction added to CONTRACTIONS needs a migration of its own.
    migration = resource_dir("schema") / "V0032__drop_contraction_topics.cypher"
    lines = migration.read_text(encoding="utf-8").splitlines()
    cypher = "\n".join(line for line in lines if not line.startswith("//"))
    keys = set(re.findall(r"'(topic:[a-z]+)'", cypher))
    assert set(re.findall(r"'([a-z]+)'", cypher)) - {"topic"} == CONTRACTIONS
    assert keys == {"topic:" + stem(word) for word in CONTRACTIONS}
    # A stem a rare word shares is never removed by its key alone ("letting", "yours").
    assert {"topic:" + stem("letting"), "topic:" + stem("yours")} <= keys
    assert cypher.count("'topic:let'") == cypher.count("'topic:your'") == 1


def test_a_word_written_as_a_contraction_is_not_a_topic_of_that_text() -> None:
    # "we'd" is no wedding, "I'll" nothing ill; a possessive stays a topic ("the dog's bowl").
    assert "wed" not in {e.surface for e in topics("We'd rather wait at the venue")}
    assert "wed" in {e.surface for e in topics("They wed at the venue")}
    assert {"dogs", "bowl"} <= {e.surface for e in topics("the dog's bowl")}


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
