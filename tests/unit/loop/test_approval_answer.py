"""An approval's answer bounds a modified call's arguments on every path: a body or a socket
frame (validated from JSON) and the MCP tool (handed a work unit it validated already)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from app.loop.models import ApprovalAnswer, ModifiedWorkUnit
from app.reasoning.protocol import ToolCall, WorkUnit


def _unit(arguments: dict[str, Any]) -> WorkUnit:
    return WorkUnit(
        verb="call_tool",
        description="call clock.get_current_time",
        reasoner="person",
        call=ToolCall(connection="clock", tool="get_current_time", arguments=arguments),
    )


def _deep(levels: int) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for _ in range(levels - 1):
        value = {"inner": value}
    return value


@pytest.mark.parametrize("as_json", [True, False], ids=["from JSON", "a work unit"])
@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (_deep(33), "must nest at most 32 levels deep"),
        ({"note": "x" * 7800}, "must be at most 7800 characters written as JSON"),
    ],
    ids=["too deep", "too long"],
)
def test_a_modified_calls_arguments_beyond_the_bounds_are_refused(
    as_json: bool, arguments: dict[str, Any], message: str
) -> None:
    unit = _unit(arguments)
    with pytest.raises(ValidationError) as refused:
        if as_json:
            ApprovalAnswer.model_validate({"action": "modify", "work_unit": unit.model_dump()})
        else:
            ApprovalAnswer(action="modify", work_unit=unit)
    [error] = refused.value.errors()
    assert error["loc"] == ("work_unit", "call", "arguments")
    assert error["msg"] == f"Value error, {message}"


def test_a_work_unit_within_the_bounds_is_kept_as_it_came() -> None:
    unit = _unit({"timezone": "UTC", "deep": _deep(31)})
    answer = ApprovalAnswer(action="modify", work_unit=unit)
    assert isinstance(answer.work_unit, ModifiedWorkUnit)
    assert answer.work_unit.model_dump() == unit.model_dump()
