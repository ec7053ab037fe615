"""The scenario files (seeds/scenarios/) validate without a database; a bad one is refused
with its file and the field named."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from app.cli.main import app as cli_app
from app.errors import SeedFileInvalid
from app.scenarios.runner import read_scenario, scenario_files, scenarios_dir


@pytest.mark.parametrize("path", scenario_files(), ids=lambda path: path.stem)
def test_every_shipped_scenario_validates_and_expects_something_of_each_turn(path: Path) -> None:
    scenario = read_scenario(path)
    for turn in scenario.turns:
        assert turn.expect.model_dump(exclude_defaults=True), f"{path.stem}: {turn.speaker}"


def test_a_bad_scenario_names_the_file_and_the_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "name: bad\ntitle: Bad\ndescription: d\nstart: 2026-10-28T08:30:00Z\n"
        "principal: {name: M, role: Controller, seniority: director}\n"
        "turns:\n  - speaker: M\n    message: hi\n    expect: {mode: sometimes}\n",
        encoding="utf-8",
    )
    with pytest.raises(SeedFileInvalid) as raised:
        read_scenario(bad)
    assert str(bad) in raised.value.message
    assert "turns[0].expect.mode" in raised.value.message


def test_a_turn_needs_a_message_or_a_call_and_the_name_its_file(tmp_path: Path) -> None:
    neither = tmp_path / "neither.yaml"
    neither.write_text(
        "name: neither\ntitle: N\ndescription: d\nstart: 2026-10-28T08:30:00Z\n"
        "principal: {name: M, role: Controller, seniority: director}\n"
        "turns:\n  - speaker: M\n",
        encoding="utf-8",
    )
    with pytest.raises(SeedFileInvalid, match=r"turns\[0\]"):
        read_scenario(neither)
    renamed = tmp_path / "other.yaml"
    renamed.write_text(
        neither.read_text(encoding="utf-8").replace(
            "  - speaker: M\n", "  - {speaker: M, message: hi}\n"
        ),
        encoding="utf-8",
    )
    with pytest.raises(SeedFileInvalid, match="must be the file's name"):
        read_scenario(renamed)


def test_an_answer_can_be_expected_refused_and_then_expects_nothing_else(tmp_path: Path) -> None:
    head = (
        "name: refused\ntitle: R\ndescription: d\nstart: 2026-10-28T08:30:00Z\n"
        "principal: {name: M, role: Controller, seniority: director}\n"
        "turns:\n  - speaker: S\n    message: approve the payment run\n"
        "    expect: {mode: proposal}\n"
    )
    good = tmp_path / "refused.yaml"
    good.write_text(
        head + "    answers:\n      - {action: approve, refused: approval_not_authorized}\n"
        "      - {action: reject, speaker: M, expect: {executed: false}}\n",
        encoding="utf-8",
    )
    answers = read_scenario(good).turns[0].all_answers
    assert [answer.refused for answer in answers] == ["approval_not_authorized", None]
    for tail, field in (
        # A refused answer resumes no turn, so it has no decisions to expect.
        (
            "    answer: {action: approve, refused: approval_not_authorized, "
            "expect: {executed: false}}\n",
            "turns[0].answer",
        ),
        ("    answer: {action: approve, refused: not_a_code}\n", "turns[0].answer.refused"),
        ("    answer: {action: approve}\n    answers: [{action: reject}]\n", "turns[0]"),
    ):
        bad = tmp_path / "bad.yaml"
        bad.write_text(head + tail, encoding="utf-8")
        with pytest.raises(SeedFileInvalid) as raised:
            read_scenario(bad)
        assert field in raised.value.message


def test_the_authority_scenario_expects_the_clerks_answer_refused() -> None:
    scenario = read_scenario(scenarios_dir() / "approval-beyond-authority.yaml")
    refused = [a.refused for turn in scenario.turns for a in turn.all_answers if a.refused]
    assert refused == ["approval_not_authorized"]


@pytest.mark.parametrize(
    ("expect", "field"),
    [
        ('{belief: ""}', "turns[0].expect.belief"),
        ("{learned: '  '}", "turns[0].expect.learned"),
        ('{verb: ""}', "turns[0].expect.verb"),
        ('{tool: " "}', "turns[0].expect.tool"),
        ('{result_contains: [ok, ""]}', "turns[0].expect.result_contains[1]"),
        ("{response_contains: ['   ']}", "turns[0].expect.response_contains[0]"),
    ],
)
def test_an_expected_text_that_every_answer_holds_is_refused(
    tmp_path: Path, expect: str, field: str
) -> None:
    """An empty (or blank) text is part of every text: such a check could never fail."""
    empty = tmp_path / "empty.yaml"
    empty.write_text(
        "name: empty\ntitle: E\ndescription: d\nstart: 2026-10-28T08:30:00Z\n"
        "principal: {name: M, role: Controller, seniority: director}\n"
        f"turns:\n  - speaker: M\n    message: hi\n    expect: {expect}\n",
        encoding="utf-8",
    )
    with pytest.raises(SeedFileInvalid) as raised:
        read_scenario(empty)
    assert field in raised.value.message


def test_the_list_counts_every_check_a_run_makes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each text of a list, and each answer of ``answers:`` (a refused one: its two checks)."""
    (tmp_path / "counted.yaml").write_text(
        "name: counted\ntitle: Counted\ndescription: d\nstart: 2026-10-28T08:30:00Z\n"
        "principal: {name: M, role: Controller, seniority: director}\n"
        "turns:\n  - speaker: S\n    message: approve the payment run\n"
        "    expect: {mode: proposal, response_contains: [payment, run]}\n"
        "    answers:\n      - {action: approve, refused: approval_not_authorized}\n"
        "      - {action: reject, speaker: M, expect: {executed: false, learns: true}}\n",
        encoding="utf-8",
    )
    monkeypatch.setattr("app.scenarios.runner.scenarios_dir", lambda: tmp_path)
    monkeypatch.setenv("COLUMNS", "200")

    listed = CliRunner().invoke(cli_app, ["scenario", "list"])

    assert listed.exit_code == 0, listed.output
    row = next(line for line in listed.output.splitlines() if "counted" in line)
    # mode + 2 texts; the refused answer's code and approval; executed + learns.
    assert [cell.strip() for cell in row.split("│")[1:-1]] == ["counted", "Counted", "1", "7"]


def _scenario_with(principal: str, expect: str) -> str:
    return (
        "name: strict\ntitle: S\ndescription: d\nstart: 2026-10-28T08:30:00Z\n"
        f"principal: {{name: M, role: C, seniority: director{principal}}}\n"
        f"turns:\n  - speaker: M\n    message: hi\n    expect: {{mode: guidance{expect}}}\n"
    )


@pytest.mark.parametrize(
    ("principal", "expect", "field"),
    [
        (", context_relevance: '0.5'", "", "principal.context_relevance"),
        (", interaction_frequency: true", "", "principal.interaction_frequency"),
        (", context_relevance: .nan", "", "principal.context_relevance"),
        ("", ", executed: 'false'", "turns[0].expect.executed"),
        ("", ", learns: 1", "turns[0].expect.learns"),
    ],
)
def test_a_number_or_flag_of_another_type_is_refused_naming_the_file_and_the_field(
    tmp_path: Path, principal: str, expect: str, field: str
) -> None:
    """Strict as a request body is: the text "0.5" is no number, true no unit value, and the
    text 'false' or 1 no flag."""
    bad = tmp_path / "strict.yaml"
    bad.write_text(_scenario_with(principal, expect), encoding="utf-8")
    with pytest.raises(SeedFileInvalid) as raised:
        read_scenario(bad)
    assert str(bad) in raised.value.message
    assert field in raised.value.message


def test_an_integer_is_a_number_of_a_scenario(tmp_path: Path) -> None:
    good = tmp_path / "strict.yaml"
    good.write_text(_scenario_with(", context_relevance: 1", ", executed: false"), "utf-8")
    scenario = read_scenario(good)
    assert scenario.principal.context_relevance == 1.0
    assert scenario.turns[0].expect.executed is False
