"""The chat REPL's approval line says how to answer it: a tool call's approval (guidance or
proposal) is approved or rejected, never answered with text (the loop refuses that)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from app.cli import chat
from app.loop.models import ApprovalPublic
from app.reasoning.protocol import ToolCall, WorkUnit

CALL = WorkUnit(
    verb="call_tool",
    description="call clock.get_current_time with {}",
    call=ToolCall(connection="clock", tool="get_current_time", arguments={}),
)


def _printed(approval: ApprovalPublic, monkeypatch: pytest.MonkeyPatch) -> str:
    out = io.StringIO()
    monkeypatch.setattr(chat, "console", Console(file=out, width=400))
    chat.print_approval(approval)
    return out.getvalue()


@pytest.mark.parametrize("kind", ["guidance", "proposal"])
def test_a_tool_calls_approval_is_approved_not_answered(
    kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    approval = ApprovalPublic(
        id="a1b2c3d4", kind=kind, status="pending", question="May I?", work_unit=CALL
    )
    printed = _printed(approval, monkeypatch)
    assert r"\approve to make the call, \reject [why]" in printed
    assert r"\answer" not in printed


def test_a_guidance_question_without_a_call_is_answered(monkeypatch: pytest.MonkeyPatch) -> None:
    approval = ApprovalPublic(id="a1b2c3d4", kind="guidance", status="pending", question="How?")
    assert r"\answer <text> to guide me" in _printed(approval, monkeypatch)
