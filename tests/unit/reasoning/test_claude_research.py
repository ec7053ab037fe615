"""The research judgements of the Claude reasoner over the mocked HTTP transport: what they
send, and the answers that are not used (malformed, inconsistent, citing unknown sources,
refused), each answered by the offline reasoner instead."""

from __future__ import annotations

import json
import logging

import pytest

from app.reasoning.protocol import (
    ConflictResolution,
    PassageRequest,
    ProposedHypotheses,
    Synthesis,
)
from tests.unit.reasoning.test_claude_reasoner import (
    CLAIM,
    FAST,
    RESEARCH_CASES,
    STRONG,
    ScriptedApi,
    call,
    offline_answer,
    reasoner,
    refusal,
    tool_answer,
)

CASE = {case.method: case for case in RESEARCH_CASES}


async def test_the_judge_sends_the_hypothesis_and_passage_to_the_fast_model() -> None:
    case = CASE["judge_passage"]
    assert isinstance(case.request, PassageRequest)
    api = ScriptedApi([tool_answer(case.prompt.tool_name, case.tool_input, FAST)])
    await call(reasoner(api), case)
    body = api.body()
    data = json.loads(body["messages"][0]["content"].split("\n", 1)[1])
    assert data == {
        "hypothesis": CLAIM,
        "passage": case.request.passage,
        "title": "2020 coronavirus pandemic in Morocco",
        "published": None,
    }
    assert body["tools"][0]["input_schema"]["properties"]["stance"]["enum"] == [
        "supports",
        "contradicts",
        "neutral",
    ]


async def test_conflict_resolution_sends_both_sides_to_the_strong_model() -> None:
    case = CASE["resolve_conflict"]
    api = ScriptedApi([tool_answer(case.prompt.tool_name, case.tool_input, STRONG)])
    answer = await call(reasoner(api), case)
    data = json.loads(api.body()["messages"][0]["content"].split("\n", 1)[1])
    assert data["first"]["stance"] == "supports" and data["second"]["stance"] == "contradicts"
    assert api.body()["model"] == STRONG
    assert isinstance(answer, ConflictResolution) and answer.outcome == "unresolvable"


async def test_a_malformed_stance_falls_back_to_the_offline_judge(
    caplog: pytest.LogCaptureFixture,
) -> None:
    case = CASE["judge_passage"]
    bad = {"stance": "refutes", "confidence": 1.4, "reason": "wrong number"}
    api = ScriptedApi([tool_answer(case.prompt.tool_name, bad, FAST)])
    with caplog.at_level(logging.WARNING, logger="app.reasoning.claude.reasoner"):
        answer = await call(reasoner(api), case)
    assert answer.reasoner.startswith("offline (fallback: malformed answer: stance")
    assert answer.model_dump(exclude={"reasoner", "usage"}) == await offline_answer(case)
    assert answer.usage is not None  # the failed call's tokens are still counted


async def test_a_resolution_whose_outcome_contradicts_its_basis_falls_back() -> None:
    case = CASE["resolve_conflict"]
    inconsistent = {"outcome": "first", "basis": "none", "reason": "The first one."}
    api = ScriptedApi([tool_answer(case.prompt.tool_name, inconsistent, STRONG)])
    answer = await call(reasoner(api), case)
    assert answer.reasoner == "offline (fallback: outcome first with basis none)"


async def test_too_many_hypotheses_fall_back_to_the_question_itself() -> None:
    case = CASE["propose_hypotheses"]
    many = {"hypotheses": [CLAIM, "A.", "B."]}
    api = ScriptedApi([tool_answer(case.prompt.tool_name, many, FAST)])
    answer = await call(reasoner(api), case)
    assert isinstance(answer, ProposedHypotheses)
    assert answer.reasoner == "offline (fallback: 3 hypotheses, at most 2)"
    assert answer.hypotheses == [CLAIM]


async def test_a_report_citing_an_unknown_source_falls_back() -> None:
    case = CASE["synthesize"]
    invented = {"report": "Confirmed by [1] and by [7]."}
    api = ScriptedApi([tool_answer(case.prompt.tool_name, invented, STRONG)])
    answer = await call(reasoner(api), case)
    assert isinstance(answer, Synthesis)
    assert answer.reasoner == "offline (fallback: report cites unknown sources [7])"
    assert "[7]" not in answer.report and "[1]" in answer.report


async def test_a_refused_report_falls_back(caplog: pytest.LogCaptureFixture) -> None:
    case = CASE["synthesize"]
    api = ScriptedApi([refusal()])
    with caplog.at_level(logging.WARNING, logger="app.reasoning.claude.reasoner"):
        answer = await call(reasoner(api), case)
    assert answer.reasoner == "offline (fallback: refused)"
    assert answer.model_dump(exclude={"reasoner", "usage"}) == await offline_answer(case)
    assert "claude synthesize failed (refused)" in caplog.text
