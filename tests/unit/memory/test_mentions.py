"""Finding people mentioned in a text (pure, deterministic)."""

from __future__ import annotations

from app.memory.people.names import find_mentions

KNOWN = [("p-maria", "Maria Lopez"), ("p-sam", "Sam"), ("p-jo1", "Jo Park"), ("p-jo2", "Jo Kim")]


def _names(text: str) -> list[tuple[str, str | None]]:
    return [(m.name, m.person_id) for m in find_mentions(text, KNOWN)]


def test_known_people_by_full_name_in_any_case() -> None:
    assert _names("please cc maria  lopez and SAM on this") == [
        ("Maria Lopez", "p-maria"),
        ("Sam", "p-sam"),
    ]


def test_a_unique_capitalised_first_name_finds_the_known_person() -> None:
    assert _names("Ask Maria about the accruals") == [("Maria Lopez", "p-maria")]
    assert _names("ask maria about it") == []  # a lower-case first name is not enough
    # Two known people called Jo: the first name alone is ambiguous, so it is a new name.
    assert _names("please ping Jo tomorrow") == [("Jo", None)]


def test_unknown_capitalised_names_in_order_of_appearance() -> None:
    mentions = find_mentions("Yesterday Priya Raman met Tom and Maria Lopez.", KNOWN)
    assert [(m.name, m.known) for m in mentions] == [
        ("Priya Raman", False),
        ("Tom", False),
        ("Maria Lopez", True),
    ]
    assert mentions[0].start < mentions[1].start < mentions[2].start


def test_sentence_starters_days_and_months_are_not_names() -> None:
    assert _names("Please send the report. Invoices are due on Monday in March.") == []
    assert _names("Thanks Dr Chen!") == [("Chen", None)]
    assert _names("The CFO and the AP team") == []


def test_each_person_once() -> None:
    assert _names("Tom said hi. Then tom left, and Tom came back") == [("Tom", None)]


def test_deterministic() -> None:
    text = "Lena asked Omar Haddad, Maria and Sam to meet Ines on Friday"
    assert find_mentions(text, KNOWN) == find_mentions(text, KNOWN)
    assert _names(text) == [
        ("Omar Haddad", None),
        ("Maria Lopez", "p-maria"),
        ("Sam", "p-sam"),
        ("Ines", None),
    ]
