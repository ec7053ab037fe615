"""What a pack's field types alone let through (no database): censor patterns the censors route
refuses, a version past what the graph stores, and a SUPPORTS chain deeper than Python's
recursion limit (docs/packs.md §1)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from app.errors import ErrorEntry, SeedFileInvalid
from app.guardian.errors import CensorPatternInvalid
from app.guardian.patterns import validate_pattern
from app.seeds import files
from app.seeds.pack_schema import KnowledgePack, PackBelief, PackCensor, _support_cycle
from app.seeds.skill_schema import DomainSkill


def _document(**fields: Any) -> dict[str, Any]:
    return {
        "name": "input-checks",
        "version": 1,
        "industry": "testing",
        "description": "A pack for the input checks.",
        "beliefs": [{"key": "b", "statement": "Ledgers balance.", "category": "ethical"}],
        **fields,
    }


def _censor(key: str, pattern: str) -> dict[str, str]:
    return {"key": key, "pattern": pattern, "reason": "r", "action": "absolute"}


def _problems(document: dict[str, Any]) -> list[ErrorEntry]:
    with pytest.raises(SeedFileInvalid) as raised:
        files.parse_pack(document, "request body", ["body"])
    problems: list[ErrorEntry] = raised.value.details["errors"]
    return problems


# --- SUPPORTS cycles: a chain of any depth -------------------------------------------------------


def _chain(depth: int, *, closed: bool) -> list[dict[str, Any]]:
    return [
        {
            "key": f"k{index}",
            "statement": "A link of the chain.",
            "category": "contextual",
            "supports": (
                [{"key": f"k{index + 1}"}]
                if index + 1 < depth
                else [{"key": "k0"}]
                if closed
                else []
            ),
        }
        for index in range(depth)
    ]


def test_a_supports_chain_thousands_deep_validates() -> None:
    pack = files.parse_pack(_document(beliefs=_chain(5000, closed=False)), "request body")

    assert len(pack.beliefs) == 5000


def test_a_cycle_thousands_deep_is_named_whole() -> None:
    [problem] = _problems(_document(beliefs=_chain(5000, closed=True)))

    assert problem["location"] == ["body", "beliefs"]
    keys = problem["message"].removeprefix("SUPPORTS cycle ").split(" -> ")
    assert keys == [f"k{index}" for index in range(5000)] + ["k0"]


def _recursive_cycle(beliefs: list[PackBelief]) -> list[str]:
    """The recursive search the iterative one replaced, as the reference of its results."""
    edges = {b.key: [link.key for link in b.supports] for b in beliefs}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(key: str) -> list[str]:
        state[key] = 1
        stack.append(key)
        for target in edges.get(key, []):
            if state.get(target) == 1:
                return [*stack[stack.index(target) :], target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        stack.pop()
        state[key] = 2
        return []

    for key in edges:
        if key not in state:
            found = visit(key)
            if found:
                return found
    return []


KEYS = [f"k{index}" for index in range(8)]


@given(
    st.lists(
        st.tuples(st.sampled_from(KEYS), st.lists(st.sampled_from(KEYS), max_size=3, unique=True)),
        min_size=1,
        max_size=8,
        unique_by=lambda belief: belief[0],
    )
)
def test_the_iterative_search_finds_the_cycle_the_recursive_one_found(
    graph: list[tuple[str, list[str]]],
) -> None:
    beliefs = [
        PackBelief.model_validate(
            {
                "key": key,
                "statement": "S.",
                "category": "contextual",
                "supports": [{"key": target} for target in targets],
            }
        )
        for key, targets in graph
    ]

    assert _support_cycle(beliefs) == _recursive_cycle(beliefs)


# --- versions: what the graph stores and any JSON reader reads exactly ---------------------------


@pytest.mark.parametrize("version", [0, 2**31, 2**63 - 1, 2**63, 2**70])
def test_a_version_out_of_range_names_the_field(version: int) -> None:
    assert [p["location"] for p in _problems(_document(version=version))] == [["body", "version"]]


def test_the_largest_version_is_taken() -> None:
    assert files.parse_pack(_document(version=2**31 - 1), "request body").version == 2**31 - 1


def test_a_skill_version_out_of_range_names_the_field() -> None:
    skill = files.find_pack("procurement-basics").skill
    assert skill is not None
    document = _document(skill={**skill.model_dump(mode="json"), "version": 2**63})

    assert [p["location"] for p in _problems(document)] == [["body", "skill", "version"]]
    assert DomainSkill.model_json_schema()["properties"]["version"]["maximum"] == 2**31 - 1


def test_the_pack_model_still_declares_its_version_bounds() -> None:
    version = KnowledgePack.model_json_schema()["properties"]["version"]

    assert (version["minimum"], version["maximum"]) == (1, 2**31 - 1)


# --- censors: screened as the censors route screens them ----------------------------------------

REFUSED = {
    "(?s).*": "matches the empty string",
    "x*": "matches the empty string",
    "(?s).+": "matches every ordinary text",
    "(a+)+$": "backtracks",
    "(": "not a valid regular expression",
}


@pytest.mark.parametrize(("pattern", "why"), REFUSED.items())
def test_a_pack_censor_is_refused_as_the_censors_route_refuses_it(pattern: str, why: str) -> None:
    document = _document(censors=[_censor("fine", r"\bproject-x\b"), _censor("bad", pattern)])

    [problem] = _problems(document)

    assert problem["location"] == ["body", "censors", 1, "pattern"]
    assert problem["message"].startswith("censor 'bad': pattern refused: ")
    assert why in problem["message"]
    with pytest.raises(CensorPatternInvalid):
        validate_pattern(pattern)


def test_a_pack_file_with_a_bad_censor_names_the_file_the_censor_and_the_path(
    tmp_path: Path,
) -> None:
    path = tmp_path / "catch-all.yaml"
    document = _document(censors=[_censor("everything", "(?s).*")])
    path.write_text(yaml.safe_dump(document), encoding="utf-8")

    with pytest.raises(SeedFileInvalid) as raised:
        files.read_pack(path)

    assert raised.value.details["file"] == str(path)
    assert [e["location"] for e in raised.value.details["errors"]] == [
        ["file", str(path), "censors", 0, "pattern"]
    ]
    assert str(path) in raised.value.message and "censor 'everything'" in raised.value.message


def test_a_pack_censor_pattern_is_kept_normalised_as_the_censors_route_keeps_it() -> None:
    censor = PackCensor.model_validate(_censor("padded", "  \\bproject-x\\b \n"))

    assert censor.pattern == r"\bproject-x\b" == validate_pattern("  \\bproject-x\\b \n")


def test_every_shipped_censor_passes_the_screening() -> None:
    """The shipped files are read through the same model, so a bad one would stop them loading;
    this says which."""
    shipped = [c.pattern for c in files.read_censors().censors]
    shipped += [c.pattern for pack in files.read_all_packs() for c in pack.censors]

    assert shipped and all(validate_pattern(pattern) == pattern for pattern in shipped)


# --- names: "default" names the shipped censors ---------------------------------------------------


def test_a_pack_named_default_is_refused() -> None:
    """The shipped censors are the pack "default": a pack of that name would make its own
    censors look shipped, so no one could remove them."""
    [problem] = _problems(_document(name="default"))

    assert problem["location"] == ["body", "name"] and "'default' is taken" in problem["message"]
    assert files.parse_pack(_document(name="default-rules"), "request body").name == "default-rules"


@pytest.mark.parametrize(
    ("changes", "location"),
    [
        ({"version": "1"}, ["body", "version"]),
        ({"version": True}, ["body", "version"]),
        ({"version": 1.0}, ["body", "version"]),
        ({"base": "yes"}, ["body", "base"]),
        ({"base": 1}, ["body", "base"]),
        (
            {"beliefs": [{"key": "b", "statement": "S.", "category": "ethical", "is_core": "yes"}]},
            ["body", "beliefs", 0, "is_core"],
        ),
        (
            {"beliefs": [{"key": "b", "statement": "S.", "category": "ethical", "is_core": 1}]},
            ["body", "beliefs", 0, "is_core"],
        ),
    ],
)
def test_booleans_and_integers_of_a_pack_document_are_strict(
    changes: dict[str, Any], location: list[str | int]
) -> None:
    """A JSON document's "yes", 1 or "1" is not read as a boolean or an integer: a 422 entry
    locating the field inside the document, as request bodies are (StrictBool, StrictInt)."""
    problems = _problems(_document(**changes))

    assert location in [problem["location"] for problem in problems], problems


def test_a_frame_s_context_budget_is_a_strict_integer() -> None:
    frame = {
        "key": "budgeted",
        "name": "Budgeted",
        "description": "A frame.",
        "activation_patterns": ["budget"],
        "default_category": "contextual",
        "default_stakes": "low",
        "context_budget": "2000",
    }
    problems = _problems(_document(frames=[frame]))

    assert ["body", "frames", 0, "context_budget"] in [p["location"] for p in problems], problems


# --- links named twice ---------------------------------------------------------------------


def test_a_link_named_twice_is_refused_naming_the_second() -> None:
    """A SUPPORTS edge is one edge per pair: named twice (weights 1.0 and 0.2), the graph kept
    one edge of the last weight while the pack's derived strengths counted both, so the stored
    strength was not its supporters' mean (replay named the difference) and the load counted
    edges it never made. A contradiction is one edge per pair whichever way it is named: named
    from both sides, the last strength silently won."""
    document = _document(
        beliefs=[
            {
                "key": "a",
                "statement": "A holds.",
                "category": "contextual",
                "supports": [{"key": "b"}, {"key": "b", "weight": 0.2}],
                "contradicts": [{"key": "c", "strength": 0.9}],
            },
            {"key": "b", "statement": "B holds.", "category": "contextual"},
            {
                "key": "c",
                "statement": "C holds.",
                "category": "contextual",
                "contradicts": [{"key": "a", "strength": 0.2}],
            },
        ]
    )

    problems = _problems(document)

    assert [(p["location"], p["type"]) for p in problems] == [
        (["body", "beliefs", 0, "supports", 1, "key"], "duplicate_link"),
        (["body", "beliefs", 2, "contradicts", 0, "key"], "duplicate_link"),
    ]
    assert "beliefs[0].supports[0]" in problems[0]["message"]
    assert "beliefs[0].contradicts[0]" in problems[1]["message"]
