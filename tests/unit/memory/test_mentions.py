"""Finding people mentioned in a text (pure, deterministic)."""

from __future__ import annotations

from app.memory.people.names import KnownNames, find_mentions

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


# --- edges the indexed search must read as the search of each name in turn did ------------------

EDGES = [
    ("p-maria", "Maria Lopez"),
    ("p-lg", "Lopez Garcia"),
    ("p-sam", "Sam"),
    ("p-ivan", "Ivan"),
    ("p-sis", "Σίσυφος"),
    ("p-kel", "Kelvin Tan"),
    ("p-ob", "O'Brien"),
]


def _edges(text: str) -> list[tuple[str, str | None, int]]:
    return [(m.name, m.person_id, m.start) for m in find_mentions(text, EDGES)]


def test_overlapping_known_names_are_each_found() -> None:
    assert _edges("Maria Lopez Garcia called") == [
        ("Maria Lopez", "p-maria", 0),
        ("Lopez Garcia", "p-lg", 6),
    ]


def test_a_name_is_found_between_word_boundaries_only() -> None:
    # "Samantha" and "Sam_" do not say Sam ("Sam_" is a new capitalised name); "Sam-Lee" does.
    assert _edges("Samantha and Sam_ and Sam-Lee and Sam's car") == [
        ("Sam", None, 13),
        ("Sam", "p-sam", 22),
    ]


def test_possessives_and_any_whitespace_between_the_words_of_a_name() -> None:
    assert _edges("Maria\u00a0Lopez's report") == [("Maria Lopez", "p-maria", 0)]
    assert _edges("see MARIA\n\tlopez") == [("Maria Lopez", "p-maria", 4)]
    # No known name without the space: one camel-cased word ("McDonald"), not a name where it
    # opens the text, new elsewhere (was cut to its last capitalised part, "Lopez").
    assert _edges("MariaLopez") == []
    assert _edges("see MariaLopez") == [("MariaLopez", None, 4)]
    assert _edges("O'Brien's and O' Brien") == [("O'Brien", "p-ob", 0), ("Brien", None, 17)]


def test_a_first_name_alone_finds_its_person_only_capitalised_and_where_no_name_is() -> None:
    assert _edges("Ask Maria. maria said no. Maria Lopez agreed.") == [
        ("Maria Lopez", "p-maria", 4)
    ]


def test_letters_the_regular_expressions_take_for_the_same_are_the_same() -> None:
    assert _edges("ıvan and İVAN") == [("Ivan", "p-ivan", 0)]  # dotless i, capital dotted I
    assert _edges("ΣΊΣΥΦΟΣ") == [("Σίσυφος", "p-sis", 0)]  # final and medial sigma
    assert _edges("\u212aELVIN TAN") == [("Kelvin Tan", "p-kel", 0)]  # the Kelvin sign


def test_names_that_differ_in_case_only_are_each_found_at_the_same_place() -> None:
    speakers = [("Maria", "Maria"), ("maria", "maria"), ("MARIA", "MARIA")]
    found = find_mentions("x Maria y maria", speakers)
    assert [(m.name, m.start) for m in found] == [("Maria", 2), ("maria", 2), ("MARIA", 2)]


def test_known_names_are_indexed_once_for_many_texts() -> None:
    people = KnownNames(KNOWN)
    for text in ("Lena asked Omar Haddad", "please cc maria  lopez and SAM", "Ping Jo"):
        assert people.mentions(text) == find_mentions(text, KNOWN)


def test_new_names_in_any_latin_greek_or_cyrillic_letters_are_found_whole() -> None:
    # The new-name pattern read only A-Z and a-z: "Zoë" became a new person "Zo", "María"
    # "Mar", "Åsa Öberg" and "Łukasz Żak" nobody, "McDonald" two names ("Sarah Mc", "Donald").
    assert _names("Then Zoë called") == [("Zoë", None)]
    assert _names("We met Ángel Di María") == [("Ángel Di María", None)]
    assert _names("So Łukasz Żak and Åsa Öberg came") == [("Łukasz Żak", None), ("Åsa Öberg", None)]
    assert _names("Then Sarah McDonald came") == [("Sarah McDonald", None)]
    assert _names("Then Zoe\u0308 came") == [("Zoe\u0308", None)]  # a combining diaeresis
    assert _names("Then Дмитрий Орлов came") == [("Дмитрий Орлов", None)]
    assert _names("I sold it on eBay to the IRS") == []  # not mid-word, nor in capitals
