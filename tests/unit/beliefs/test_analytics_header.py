"""The contract of an analytics file read from its header (no database): the ``:param`` map
literal read with PyYAML as Cypher reads it, the declarations, and parameter conversion."""

from __future__ import annotations

import math
from typing import Any

import pytest

from app.beliefs.analytics.header import parse_header
from app.beliefs.analytics.models import AnalyticsSpec
from app.beliefs.analytics.param_map import parse_param_map
from app.beliefs.analytics.params import MAX_INTEGER, coerce, resolve_params
from app.errors import InvalidInput
from app.resources import resource_dir

# What each shipped :param line set before the map was read with PyYAML (the hand-written
# parser's reading), values and their types.
SHIPPED: dict[str, dict[str, Any]] = {
    "belief_tension_timeline": {
        "agent_id": "<agent id>",
        "belief_id": None,
        "follow_lineage": True,
    },
    "cascade_depths": {"agent_id": "<agent id>"},
    "dissatisfaction_history": {"agent_id": "<agent id>", "limit": 100},
    "longest_lineages": {"agent_id": "<agent id>", "limit": 10},
    "hypothesis_evidence_tree": {"agent_id": "<agent id>", "hypothesis_id": None},
    "most_contested_beliefs": {"agent_id": "<agent id>", "limit": 20, "include_inactive": False},
    "pack_beliefs_not_surviving": {"agent_id": "<agent id>", "include_invalidated": False},
    "resolved_research_conflicts": {"agent_id": "<agent id>", "investigation_id": None},
    "revision_triggers_by_person": {"agent_id": "<agent id>"},
    "revisions_over_time": {"agent_id": "<agent id>", "bucket": "day"},
    "tool_outcomes_over_time": {"agent_id": "<agent id>", "bucket": "day"},
}


def _typed(values: dict[str, Any]) -> list[tuple[str, type, Any]]:
    return [(key, type(value), value) for key, value in values.items()]


def _param_line(name: str) -> str:
    text = (resource_dir("cypher") / "beliefs" / "analytics" / f"{name}.cypher").read_text()
    (line,) = [line for line in text.splitlines() if line.startswith("// :param ")]
    return line.removeprefix("// :param ")


def test_every_shipped_analytics_file_is_in_the_table() -> None:
    shipped = sorted(
        p.stem for p in (resource_dir("cypher") / "beliefs" / "analytics").glob("*.cypher")
    )
    assert shipped == sorted(SHIPPED)


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_each_shipped_param_line_reads_as_before(name: str) -> None:
    assert _typed(parse_param_map(_param_line(name))) == _typed(SHIPPED[name])


@pytest.mark.parametrize(
    ("text", "parsed"),
    [
        # strings: Cypher's backslash escapes, in either quote; YAML has none in '...'.
        ("{a: 'don\\'t'}", {"a": "don't"}),
        ('{a: "say \\"hi\\""}', {"a": 'say "hi"'}),
        # only \n and \t name a character; any other escaped character stands for itself.
        (
            "{a: 'tab\\there', b: 'line\\nbreak', c: 'back\\\\slash', d: 'r\\r'}",
            {"a": "tab\there", "b": "line\nbreak", "c": "back\\slash", "d": "rr"},
        ),
        ('{a: "it\'s", b: \'say "hi"\'}', {"a": "it's", "b": 'say "hi"'}),
        ("{a: '', b: ':{}[],#&*!|>%@`'}", {"a": "", "b": ":{}[],#&*!|>%@`"}),
        ("{a: '😀 é \x7f \x01'}", {"a": "😀 é \x7f \x01"}),
        # numbers: Cypher's integers are decimal; its floats need no dot, nor a sign after e.
        (
            "{a: -2, b: 0, c: -0, d: 010, e: 9999999999999999999999}",
            {"a": -2, "b": 0, "c": 0, "d": 10, "e": 9999999999999999999999},
        ),
        (
            "{a: 0.5, b: -.5, c: .5, d: 1., e: 1e3, f: 1E-3, g: 1.5e+3, h: -2.0}",
            {
                "a": 0.5,
                "b": -0.5,
                "c": 0.5,
                "d": 1.0,
                "e": 1000.0,
                "f": 0.001,
                "g": 1500.0,
                "h": -2.0,
            },
        ),
        # true, false and null in any case.
        (
            "{a: true, b: FALSE, c: null, d: Null, e: tRuE}",
            {"a": True, "b": False, "c": None, "d": None, "e": True},
        ),
        # keys: identifiers, quoted or backticked; the words true and null are names there.
        (
            "{`g h`: 1, 'i j': 2, \"k\": 3, _x1: 4, true: 5, null: 6}",
            {"g h": 1, "i j": 2, "k": 3, "_x1": 4, "true": 5, "null": 6},
        ),
        # spacing: Cypher needs no blank after ':' and takes tabs; a trailing comma is allowed.
        ("{a:1,b:'x'}", {"a": 1, "b": "x"}),
        ("{\ta\t:\t1 ,\tb: 2}", {"a": 1, "b": 2}),
        ("{a: 1,}", {"a": 1}),
        ("{ }", {}),
    ],
)
def test_cypher_literals_read_as_cypher_reads_them(text: str, parsed: dict[str, Any]) -> None:
    assert _typed(parse_param_map(text)) == _typed(parsed)


def test_a_float_too_large_reads_as_infinity_as_before() -> None:
    assert parse_param_map("{a: 1e400, b: -1e400}") == {"a": math.inf, "b": -math.inf}


@pytest.mark.parametrize(
    "text",
    [
        # What YAML 1.1 reads but a Cypher map literal does not hold.
        "{a: yes}",
        "{a: no}",
        "{a: on}",
        "{a: off}",
        "{a: y}",
        "{a: ~}",
        "{a: 0x1F}",
        "{a: 1_000}",
        "{a: +1}",
        "{a: .inf}",
        "{a: .nan}",
        "{a: 2024-01-01}",
        "{a: 1:30}",
        "{a: abc}",
        "{a: hello world}",
        "{a: `x`}",
        "{a: &x 1, b: *x}",
        "{a: !!str 1}",
        "{? a: 1}",
        "{a: 1 #c}",
        "\ufeff{a: 1}",
        "{a: 'it''s'}",
        # Values that are not plain literals, and broken maps.
        "{a: [1, 2]}",
        "{a: {b: 1}}",
        "{a: datetime()}",
        "{a: 1, a: 2}",
        "{a: 1, `a`: 2}",
        "{a, b: 1}",
        "{a: }",
        "{a: 1",
        "{a: 1}}",
        "{a: 1} x",
        "{a: 'abc}",
        "{a: '\\'}",
        "{1: 2}",
        "{a-b: 1}",
        "{é: 1}",
        "{,}",
        "[1]",
        "abc",
        "",
    ],
)
def test_anything_else_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match=r"\S"):
        parse_param_map(text)


def test_reading_a_map_leaves_pyyaml_itself_as_it_was() -> None:
    import yaml

    parse_param_map("{a: 010}")

    assert yaml.safe_load("{a: yes, b: 010}") == {"a": True, "b": 8}


HEADER = """// Something useful.
// More about it.
// :param {agent_id: '<agent id>', limit: 10, bucket: 'day', since: null}
// Params:
//   $agent_id :: STRING NOT NULL  required: the agent
//   $limit :: INTEGER NOT NULL  most rows (default 10)
//   $bucket :: STRING NOT NULL  one of 'day', 'week'
//   $since :: FLOAT  a lower bound, null for none
// Returns one row per thing:
//   thing_id :: STRING
//   score :: FLOAT  how good
// not a column: no two-space indent
MATCH (t:Thing {agent_id: $agent_id}) WHERE $since IS NULL OR t.score >= $since
// a comment in the body ($ignored)
RETURN t.id AS thing_id, t.score AS score, $bucket AS b LIMIT $limit
"""


def test_a_header_declares_description_params_defaults_and_columns() -> None:
    spec = parse_header("things", HEADER)

    assert spec.description == "Something useful."
    assert (
        spec.param_line == ":param {agent_id: '<agent id>', limit: 10, bucket: 'day', since: null}"
    )
    assert spec.columns == ("thing_id", "score")
    by_name = {p.name: p for p in spec.params}
    assert list(by_name) == ["agent_id", "limit", "bucket", "since"]
    assert by_name["agent_id"].required and not by_name["agent_id"].nullable
    assert by_name["agent_id"].default is None
    assert (by_name["limit"].type, by_name["limit"].default) == ("INTEGER", 10)
    assert by_name["bucket"].choices == ("day", "week")
    assert by_name["since"].nullable and by_name["since"].default is None
    assert resolve_params(spec, {}) == {"limit": 10, "bucket": "day", "since": None}


def test_a_broken_header_lists_every_problem() -> None:
    text = "\n".join(
        [
            "//",
            "// :param {agent_id: '<agent id>', limit: yes}",
            "//   $limit :: INT NOT NULL  most rows",
            "MATCH (b:Belief {agent_id: $agent_id}) RETURN b.id AS id LIMIT $limit",
        ]
    )

    with pytest.raises(ValueError) as error:
        parse_header("broken", text)

    message = str(error.value)
    assert message.startswith("cypher/beliefs/analytics/broken.cypher: ")
    for problem in (
        "the first line must say what the query does",
        "the :param line does not parse: unsupported value 'yes'",
        "$limit: unsupported type INT",
        "$agent_id must be declared",
        "differ from those the query uses",
        "the header must declare the returned columns",
    ):
        assert problem in message


def test_parameters_given_as_text_are_converted_and_checked() -> None:
    spec = parse_header("things", HEADER)

    assert resolve_params(spec, {"limit": " 5 ", "bucket": "week", "since": "0.5"}) == {
        "limit": 5,
        "bucket": "week",
        "since": 0.5,
    }
    with pytest.raises(InvalidInput) as raised:
        resolve_params(spec, {"limit": "-1", "bucket": "hour", "agent_id": "x", "top": 1})
    locations = [e["location"][-1] for e in raised.value.details["errors"]]
    assert locations == ["agent_id", "top", "limit", "bucket"]


@pytest.mark.parametrize(
    ("name", "value", "converted"),
    [
        ("limit", "null", ValueError),
        ("limit", 2.0, 2),
        ("limit", 2.5, ValueError),
        ("limit", True, ValueError),
        ("since", "nan", ValueError),
        ("since", "null", None),
        ("since", 3, 3.0),
        ("bucket", 1, ValueError),
    ],
)
def test_coerce(name: str, value: Any, converted: Any) -> None:
    param = parse_header("things", HEADER).param(name)
    assert param is not None
    if converted is ValueError:
        with pytest.raises(ValueError):
            coerce(param, value)
    else:
        assert coerce(param, value) == converted


def _shipped_spec(name: str) -> AnalyticsSpec:
    text = (resource_dir("cypher") / "beliefs" / "analytics" / f"{name}.cypher").read_text()
    return parse_header(name, text)


@pytest.mark.parametrize("name", ["revisions_over_time", "tool_outcomes_over_time"])
def test_a_choice_list_is_the_values_after_one_of_not_the_default_after_them(name: str) -> None:
    bucket = _shipped_spec(name).param("bucket")
    assert bucket is not None and bucket.choices == ("day", "week", "month", "year")
    with pytest.raises(ValueError) as refused:
        coerce(bucket, "WEEK")  # choices are matched exactly, as the query's CASE reads them
    assert str(refused.value) == "expected one of day, week, month, year; got 'WEEK'"


@pytest.mark.parametrize(
    ("name", "param"),
    [
        (name, param.name)
        for name in sorted(SHIPPED)
        for param in _shipped_spec(name).params
        if param.type == "INTEGER"
    ],
)
def test_every_integer_parameter_of_the_shipped_analytics_is_bounded(name: str, param: str) -> None:
    spec = _shipped_spec(name)
    assert resolve_params(spec, {param: str(MAX_INTEGER)})[param] == MAX_INTEGER
    for too_large in (MAX_INTEGER + 1, 2**63 - 1, 2**63, "9223372036854775808"):
        with pytest.raises(InvalidInput) as raised:
            resolve_params(spec, {param: too_large})
        [error] = raised.value.details["errors"]
        assert error["location"] == ["params", param]
        assert error["message"] == f"must be at most {MAX_INTEGER}, got {int(too_large)!r}"
