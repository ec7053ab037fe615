"""A log is imported in batches an import takes (app/memory/episodes.py ``import_batches``): at
most so many episodes and ``MAX_BATCH_CHARS`` characters each, in order, none left out."""

from __future__ import annotations

from app.memory.episodes import MAX_BATCH_CHARS, EpisodeIn, episode_chars, import_batches


def _episode(index: int, chars: int) -> EpisodeIn:
    """An episode of ``chars`` characters in all (a speaker of 3, the rest text)."""
    return EpisodeIn(external_id=f"e{index}", speaker="Sam", text="x" * (chars - 3))


def test_batches_hold_at_most_the_characters_and_the_episodes_one_import_takes() -> None:
    items = [_episode(index, 15_000 + 37 * index) for index in range(120)]  # 2,064,180 chars

    batches = list(import_batches(items, 40))

    assert [item for batch in batches for item in batch] == items
    assert all(sum(episode_chars(item) for item in batch) <= MAX_BATCH_CHARS for batch in batches)
    assert all(len(batch) <= 40 for batch in batches)
    # The characters part them 62, 54 and 4; the count parts the first two again.
    assert [len(batch) for batch in batches] == [40, 22, 40, 14, 4]


def test_a_log_within_both_limits_is_one_batch() -> None:
    items = [_episode(index, 10) for index in range(5)]
    exactly = [_episode(index, 20_000) for index in range(MAX_BATCH_CHARS // 20_000)]

    assert list(import_batches(items, 5)) == [items]
    assert list(import_batches(exactly)) == [exactly]
    assert list(import_batches([*exactly, items[0]])) == [exactly, [items[0]]]


def test_characters_count_the_speaker_text_user_message_and_response() -> None:
    item = EpisodeIn(speaker="Ann", text="hello", user_message="hi there", response="ok")

    assert episode_chars(item) == 3 + 5 + 8 + 2
