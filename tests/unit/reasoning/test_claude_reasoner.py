"""The Claude reasoner with the real anthropic SDK over a mocked HTTP transport.

Each test scripts what the Messages API answers (responses in the shape the API returns: a
``tool_use`` content block, usage with the cache fields, ``request-id`` header) and reads back
the requests the SDK actually sent. The fallback is the real offline reasoner.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx2
import pytest
from anthropic import AsyncAnthropic
from prometheus_client import REGISTRY
from pydantic import BaseModel

from app.reasoning.claude import prompts
from app.reasoning.claude.reasoner import ClaudeReasoner, answer_schema
from app.reasoning.offline.reasoner import OfflineReasoner
from app.reasoning.protocol import (
    AbstractedRule,
    Appraisal,
    AppraisalRequest,
    Audit,
    AuditRequest,
    BeliefBrief,
    ConflictRequest,
    ConflictResolution,
    ConflictSide,
    EpisodeBrief,
    EvidenceNote,
    EvidenceRequest,
    ExecutionResult,
    ExtractedEvidence,
    HypothesesRequest,
    Judgement,
    Neighbour,
    PassageJudgement,
    PassageRequest,
    ProposedHypotheses,
    Reasoner,
    Reply,
    ResponseRequest,
    RevisedBelief,
    RevisionRequest,
    RuleRequest,
    StanceJudgement,
    StanceRequest,
    Synthesis,
    SynthesisHypothesis,
    SynthesisRequest,
    SynthesisSource,
    Verification,
    VerifyRequest,
    WorkRequest,
    WorkUnit,
)
from app.reasoning.settings import ReasonerSettings
from app.seeds.skills import load_skill

FAST, STRONG = "claude-haiku-4-5", "claude-sonnet-4-6"
# What the API reports back for the aliases (usage.model keeps the model that served the call).
SERVED = {FAST: "claude-haiku-4-5-20251001", STRONG: "claude-sonnet-4-6"}
INPUT_TOKENS = 412
USAGE = {
    "input_tokens": INPUT_TOKENS,
    "cache_creation_input_tokens": 0,
    "cache_read_input_tokens": 1830,
    "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0},
    "output_tokens": 96,
    "service_tier": "standard",
}
BELIEF = BeliefBrief(
    id="b-limit", statement="The API limit is 100 requests per minute", strength=0.7
)

Step = httpx2.Response | Exception | Callable[[httpx2.Request], Awaitable[httpx2.Response]]


@dataclass
class ScriptedApi:
    """Answers each request with the next scripted step and keeps every request it saw."""

    steps: list[Step]
    requests: list[httpx2.Request] = field(default_factory=list)

    async def __call__(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(request)
        assert self.steps, f"unexpected request #{len(self.requests)}: {request.url}"
        step = self.steps.pop(0)
        if isinstance(step, Exception):
            raise step
        if isinstance(step, httpx2.Response):
            return step
        return await step(request)

    def body(self, index: int = 0) -> dict[str, Any]:
        parsed: dict[str, Any] = json.loads(self.requests[index].content)
        return parsed


def message(
    content: list[dict[str, Any]], model: str, stop_reason: str = "tool_use", **extra: Any
) -> httpx2.Response:
    return httpx2.Response(
        200,
        headers={"request-id": "req_011CSHoEeqs5C35K2UUqR7Fy"},
        json={
            "id": "msg_01XFDUDYJgAACzvnptvVoYEL",
            "type": "message",
            "role": "assistant",
            "model": SERVED.get(model, model),
            "content": content,
            "stop_reason": stop_reason,
            "stop_sequence": None,
            "usage": USAGE,
            **extra,
        },
    )


def refusal() -> httpx2.Response:
    """Claude's answer when it declines: a text block and stop_reason "refusal"."""
    return message(
        [{"type": "text", "text": "I can't help with that."}],
        STRONG,
        "refusal",
        stop_details={"type": "refusal", "category": "general_harms", "explanation": None},
    )


def tool_answer(tool_name: str, tool_input: dict[str, Any], model: str) -> httpx2.Response:
    block = {"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": tool_name}
    return message([{**block, "input": tool_input}], model)


def api_error(status: int, kind: str, text: str, **headers: str) -> httpx2.Response:
    body = {"type": "error", "error": {"type": kind, "message": text}}
    return httpx2.Response(status, headers=headers, json=body)


def reasoner(api: ScriptedApi, max_retries: int = 0, **settings: Any) -> ClaudeReasoner:
    options = ReasonerSettings(
        fast_model=FAST, strong_model=STRONG, max_retries=max_retries, **settings
    )
    client = AsyncAnthropic(
        api_key="test",
        base_url="https://api.anthropic.test",
        max_retries=max_retries,
        timeout=options.timeout_s,
        http_client=httpx2.AsyncClient(transport=httpx2.MockTransport(api)),
    )
    return ClaudeReasoner(options, fallback=OfflineReasoner(), client=client)


# --- one case per judgement: a request, a valid answer, the model and tool expected ----------


@dataclass(frozen=True)
class Case:
    method: str
    request: BaseModel
    answer_type: type[Judgement]
    prompt: prompts.JudgementPrompt
    model: str
    tool_input: dict[str, Any]


REVISION = RevisionRequest(
    belief_id="b-limit",
    statement=BELIEF.statement,
    category="contextual",
    strength=0.62,
    tension=0.74,
    against=[EvidenceNote(text="The API limit is 200 requests per minute since May", weight=0.9)],
    supporting=[EvidenceNote(text="The docs said 100 per minute last year", weight=0.4)],
    neighbours=[
        Neighbour(
            id="b-batch",
            statement="Batch jobs must pause every 100 calls",
            strength=0.6,
            tension=0.55,
            relation="SUPPORTS",
            hops=1,
        )
    ],
)
CASES = [
    Case(
        "appraise",
        AppraisalRequest(message="Please delete the old invoices now", beliefs=[BELIEF]),
        Appraisal,
        prompts.APPRAISE,
        FAST,
        {
            "face_threat": 0.2,
            "urgency": 0.8,
            "uncertainty_areas": [],
            "recommended_approach": "Confirm which invoices before deleting anything.",
            "is_request": True,
            "high_risk": ["delete"],
        },
    ),
    Case(
        "extract_evidence",
        EvidenceRequest(message="Thanks! The API limit is 200 per minute now.", beliefs=[BELIEF]),
        ExtractedEvidence,
        prompts.EXTRACT_EVIDENCE,
        FAST,
        {
            "claims": ["The API limit is 200 per minute now."],
            "items": [
                {
                    "belief_id": "b-limit",
                    "claim": "The API limit is 200 per minute now.",
                    "stance": "contradicting",
                    "confidence": 0.85,
                    "kind": "factual",
                }
            ],
        },
    ),
    Case(
        "classify_stance",
        StanceRequest(claim="Coffee raises blood pressure", statement="Coffee does not raise it"),
        StanceJudgement,
        prompts.CLASSIFY_STANCE,
        FAST,
        {"stance": "contradicting", "confidence": 0.9, "cues": ["denial of the same effect"]},
    ),
    Case(
        "revise",
        REVISION,
        RevisedBelief,
        prompts.REVISE,
        STRONG,
        {
            "statement": "The API limit is 200 requests per minute (it was 100 until May).",
            "reasoning": "Recent, weighty evidence reports 200; the 100 figure is outdated.",
            "evidence_summary": "One strong report against, one older document for.",
            "behavioral_changes": ["Plan batch jobs for 200 requests per minute."],
            "connected_actions": ["re-examine b-batch"],
        },
    ),
    Case(
        "propose_work_unit",
        WorkRequest(
            message="Send the report to Ana by Friday",
            appraisal=Appraisal(
                face_threat=0.1, urgency=0.5, recommended_approach="Act.", is_request=True
            ),
        ),
        WorkUnit,
        prompts.PROPOSE_WORK_UNIT,
        FAST,
        {
            "verb": "send_email",
            "entities": ["the report", "Ana"],
            "constraints": ["by Friday"],
            "description": "Send the report to Ana.",
            "confidence": 0.8,
        },
    ),
    Case(
        "verify",
        VerifyRequest(
            work_unit=WorkUnit(verb="add_note", description="Add a note about the limit"),
            result=ExecutionResult(status="executed", executor="notes"),
        ),
        Verification,
        prompts.VERIFY,
        FAST,
        {"is_valid": True, "issues": [], "action": "proceed"},
    ),
    Case(
        "audit",
        AuditRequest(
            message="Pay invoice 42 to the new bank account today",
            creed=["Never move money without two approvals"],
            risk_kinds=["payment"],
        ),
        Audit,
        prompts.AUDIT,
        STRONG,
        {
            "passed": False,
            "risk": "high",
            "reason": "Paying a new bank account today skips the second approval.",
            "concerns": ["Conflicts with the creed: 'Never move money without two approvals'."],
            "creed_violations": ["Never move money without two approvals"],
            "recommendation": "Get the second approval and verify the new account first.",
        },
    ),
    Case(
        "abstract_rule",
        RuleRequest(
            episodes=[
                EpisodeBrief(id="e1", text="Retried the export after a 429", outcome="success"),
                EpisodeBrief(
                    id="e2", text="Backed off on rate limit, export done", outcome="success"
                ),
            ]
        ),
        AbstractedRule,
        prompts.ABSTRACT_RULE,
        STRONG,
        {
            "trigger_concept": "rate-limited exports",
            "content": "When an export is rate limited, back off and retry rather than abort.",
            "confidence": 0.6,
        },
    ),
    Case(
        "respond",
        ResponseRequest(
            message="What is the API limit?",
            system_prompt="You are Ada, an agent whose beliefs live in a graph.\nCreed: be honest.",
            beliefs=[BELIEF],
        ),
        Reply,
        prompts.RESPOND,
        FAST,
        {"text": "I believe it is 100 requests per minute.", "questions": []},
    ),
]
# Research mode (issue 16): a VitaminC-style claim, two sources that disagree about it.
CLAIM = "147 cases of coronavirus in Morocco, less than 50 % of them, came from abroad."
SUPPORTING = ConflictSide(
    source_id="s-1",
    stance="supports",
    confidence=0.84,
    text="the confirmed cases reached 359, 41 % (147 cases) of which are coming from abroad",
    title="2020 coronavirus pandemic in Morocco",
    origin="vitaminc:Morocco#5",
)
REFUTING = SUPPORTING.model_copy(
    update={
        "source_id": "s-2",
        "stance": "contradicts",
        "confidence": 0.9,
        "text": "the confirmed cases reached 359, the majority (59 %) of which are from abroad",
        "origin": "vitaminc:Morocco#4",
    }
)
SYNTHESIS = SynthesisRequest(
    question=CLAIM,
    verdict="undecided",
    hypotheses=[
        SynthesisHypothesis(
            statement=CLAIM, status="undecided", confidence=0.5, supporting=[1], contradicting=[2]
        )
    ],
    sources=[
        SynthesisSource(number=1, title=SUPPORTING.title, origin=SUPPORTING.origin,
                        text=SUPPORTING.text),
        SynthesisSource(number=2, title=REFUTING.title, origin=REFUTING.origin,
                        text=REFUTING.text),
    ],
)  # fmt: skip
RESEARCH_CASES = [
    Case(
        "propose_hypotheses",
        HypothesesRequest(question=f"Is it true that {CLAIM}", max_hypotheses=2),
        ProposedHypotheses,
        prompts.PROPOSE_HYPOTHESES,
        FAST,
        {"hypotheses": [CLAIM, "Most of Morocco's confirmed cases came from abroad."]},
    ),
    Case(
        "judge_passage",
        PassageRequest(hypothesis=CLAIM, passage=REFUTING.text, title=REFUTING.title),
        PassageJudgement,
        prompts.JUDGE_PASSAGE,
        FAST,
        {"stance": "contradicts", "confidence": 0.9, "reason": "59 %, not under 50 %"},
    ),
    Case(
        "resolve_conflict",
        ConflictRequest(hypothesis=CLAIM, first=SUPPORTING, second=REFUTING),
        ConflictResolution,
        prompts.RESOLVE_CONFLICT,
        STRONG,
        {
            "outcome": "unresolvable",
            "basis": "none",
            "reason": "Both are versions of one sentence with no dates; nothing says which is "
            "current.",
        },
    ),
    Case(
        "synthesize",
        SYNTHESIS,
        Synthesis,
        prompts.SYNTHESIZE,
        STRONG,
        {"report": f"# {CLAIM}\n\nUndecided: [1] supports it, [2] contradicts it.\n"},
    ),
]
CASES += RESEARCH_CASES
PROTOCOL_METHODS = {
    name for name in vars(Reasoner) if not name.startswith("_") and callable(vars(Reasoner)[name])
}
# Not a forced judgement: the agent's tools offered as Claude's own (native tool use), tested
# in tests/unit/reasoning/test_claude_tool_choice.py.
NATIVE_TOOL_USE = {"choose_tool"}


def call(claude: Reasoner, case: Case) -> Awaitable[Judgement]:
    method: Callable[[BaseModel], Awaitable[Judgement]] = getattr(claude, case.method)
    return method(case.request)


async def offline_answer(case: Case) -> dict[str, Any]:
    answer = await call(OfflineReasoner(), case)
    return answer.model_dump(exclude={"reasoner", "usage"})


def test_every_protocol_method_has_a_case_and_an_implementation() -> None:
    assert {case.method for case in CASES} == PROTOCOL_METHODS - NATIVE_TOOL_USE
    for name in PROTOCOL_METHODS:
        assert callable(getattr(ClaudeReasoner, name, None)), name
    assert {case.prompt.tool_name for case in CASES}.__len__() == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.method)
async def test_each_judgement_sends_its_tool_and_model_and_parses_the_answer(case: Case) -> None:
    api = ScriptedApi([tool_answer(case.prompt.tool_name, case.tool_input, case.model)])
    answer = await call(reasoner(api, max_tokens=900), case)

    assert len(api.requests) == 1
    sent = api.requests[0]
    assert sent.method == "POST" and sent.url.path == "/v1/messages"
    # This SDK sends the key as a bearer token (older ones as x-api-key).
    assert "Bearer test" in (
        sent.headers.get("authorization"),
        f"Bearer {sent.headers.get('x-api-key')}",
    )
    body = api.body()
    assert body["model"] == case.model
    assert body["max_tokens"] == 900
    assert body["tool_choice"] == {"type": "tool", "name": case.prompt.tool_name}
    [tool] = body["tools"]
    assert tool["name"] == case.prompt.tool_name
    assert tool["input_schema"] == answer_schema(case.answer_type)
    # Not asked of Claude: who answered, the tokens, and the offline judge's cosine of a passage.
    assert set(tool["input_schema"]["properties"]) == set(case.answer_type.model_fields) - {
        "reasoner",
        "usage",
        "similarity",
    }
    [system] = body["system"]
    assert system["cache_control"] == {"type": "ephemeral"}
    assert case.prompt.instructions in system["text"]
    [user] = body["messages"]
    assert user["role"] == "user"
    assert '"reasoner"' not in user["content"] and '"usage"' not in user["content"]

    assert isinstance(answer, case.answer_type)
    assert answer.model_dump(exclude={"reasoner", "usage"}) == case.answer_type.model_validate(
        case.tool_input
    ).model_dump(exclude={"reasoner", "usage"})
    assert answer.reasoner == f"claude:{case.model}"
    assert answer.usage is not None
    assert answer.usage.model_dump() == {
        "model": SERVED[case.model],
        "input_tokens": 412,
        "output_tokens": 96,
        "cache_read_input_tokens": 1830,
        "cache_creation_input_tokens": 0,
    }


async def test_revise_request_carries_the_belief_and_its_evidence_to_the_strong_model() -> None:
    case = next(case for case in CASES if case.method == "revise")
    api = ScriptedApi([tool_answer("record_revision", case.tool_input, STRONG)])
    answer = await reasoner(api).revise(REVISION)

    body = api.body()
    assert body["model"] == STRONG
    schema = body["tools"][0]["input_schema"]
    assert schema["type"] == "object"
    assert schema["required"] == [
        "statement",
        "reasoning",
        "evidence_summary",
        "behavioral_changes",
        "connected_actions",
    ]
    assert schema["properties"]["statement"] == {
        "type": "string",
        "minLength": 1,
        "maxLength": 2000,
    }
    data = body["messages"][0]["content"]
    for expected in ("b-limit", "200 requests per minute since May", "b-batch", "0.74"):
        assert expected in data
    assert body["system"][0]["text"].startswith(prompts.COMMON)
    assert answer.statement.startswith("The API limit is 200")


async def test_respond_caches_the_agents_own_system_prompt() -> None:
    case = next(case for case in CASES if case.method == "respond")
    assert isinstance(case.request, ResponseRequest)
    api = ScriptedApi([tool_answer("record_reply", case.tool_input, FAST)])
    await call(reasoner(api), case)

    [system] = api.body()["system"]
    assert system["text"].startswith(case.request.system_prompt)
    assert system["cache_control"] == {"type": "ephemeral"}
    user = api.body()["messages"][0]["content"]
    assert "Creed: be honest" not in user  # the stable part is not repeated per call
    assert "What is the API limit?" in user


async def test_the_answer_cannot_set_its_own_reasoner_or_usage() -> None:
    case = CASES[2]
    forged = {**case.tool_input, "reasoner": "offline", "usage": {"model": "x", "input_tokens": 0}}
    api = ScriptedApi([tool_answer(case.prompt.tool_name, forged, FAST)])
    answer = await call(reasoner(api), case)
    assert answer.reasoner == f"claude:{FAST}"
    assert answer.usage is not None and answer.usage.input_tokens == 412


# --- failures fall back to the offline reasoner, logged ----------------------------------------


async def test_a_malformed_answer_falls_back_and_is_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    case = next(case for case in CASES if case.method == "classify_stance")
    bad = {"stance": "maybe", "confidence": 1.7, "cues": []}
    api = ScriptedApi([tool_answer("record_stance", bad, FAST)])
    with caplog.at_level(logging.WARNING, logger="app.reasoning.claude.reasoner"):
        answer = await call(reasoner(api), case)

    assert answer.reasoner.startswith("offline (fallback: malformed answer: stance:")
    assert answer.model_dump(exclude={"reasoner", "usage"}) == await offline_answer(case)
    # The failed call still cost tokens, and the turn counts them.
    assert answer.usage is not None and answer.usage.output_tokens == 96
    [record] = caplog.records
    assert record.levelno == logging.WARNING
    assert "claude classify_stance failed" in record.getMessage()
    assert "malformed answer: stance" in record.getMessage()
    assert "(+1 more)" in record.getMessage()  # confidence 1.7 is the other problem


async def test_a_revision_missing_fields_falls_back_to_the_offline_revision(
    caplog: pytest.LogCaptureFixture,
) -> None:
    api = ScriptedApi([tool_answer("record_revision", {"statement": ""}, STRONG)])
    with caplog.at_level(logging.WARNING, logger="app.reasoning.claude.reasoner"):
        answer = await reasoner(api).revise(REVISION)
    offline = await OfflineReasoner().revise(REVISION)
    assert answer.statement == offline.statement
    assert answer.reasoning.startswith("[offline reasoner]")
    assert answer.reasoner.startswith("offline (fallback: malformed answer: statement")
    assert "claude revise failed" in caplog.text


async def test_evidence_for_a_belief_that_was_not_given_falls_back(
    caplog: pytest.LogCaptureFixture,
) -> None:
    case = next(case for case in CASES if case.method == "extract_evidence")
    invented = json.loads(json.dumps(case.tool_input))
    invented["items"][0]["belief_id"] = "b-invented"
    api = ScriptedApi([tool_answer("record_evidence", invented, FAST)])
    with caplog.at_level(logging.WARNING, logger="app.reasoning.claude.reasoner"):
        answer = await call(reasoner(api), case)
    assert isinstance(answer, ExtractedEvidence)
    assert answer.reasoner.startswith("offline (fallback: items for unknown belief ids")
    assert all(item.belief_id == "b-limit" for item in answer.items)
    assert "b-invented" in caplog.text


async def test_a_text_only_answer_falls_back(caplog: pytest.LogCaptureFixture) -> None:
    case = next(case for case in CASES if case.method == "appraise")
    text = message([{"type": "text", "text": "The turn looks urgent."}], FAST, "end_turn")
    api = ScriptedApi([text])
    with caplog.at_level(logging.WARNING, logger="app.reasoning.claude.reasoner"):
        answer = await call(reasoner(api), case)
    assert answer.reasoner == "offline (fallback: no record_appraisal tool call in the answer)"
    assert answer.model_dump(exclude={"reasoner", "usage"}) == await offline_answer(case)
    assert "claude appraise failed (no record_appraisal tool call" in caplog.text


async def test_a_refusal_falls_back(caplog: pytest.LogCaptureFixture) -> None:
    case = next(case for case in CASES if case.method == "audit")
    api = ScriptedApi([refusal()])
    with caplog.at_level(logging.WARNING, logger="app.reasoning.claude.reasoner"):
        answer = await call(reasoner(api), case)
    assert answer.reasoner == "offline (fallback: refused)"
    assert answer.model_dump(exclude={"reasoner", "usage"}) == await offline_answer(case)
    assert "claude audit failed (refused)" in caplog.text


async def test_an_answer_cut_at_max_tokens_falls_back() -> None:
    case = next(case for case in CASES if case.method == "respond")
    block = {"type": "tool_use", "id": "toolu_01", "name": "record_reply", "input": {"text": "I"}}
    api = ScriptedApi([message([block], FAST, "max_tokens")])
    answer = await call(reasoner(api), case)
    assert answer.reasoner == "offline (fallback: answer cut at max_tokens)"
    assert isinstance(answer, Reply) and answer.text != "I"


async def test_a_transport_timeout_falls_back(caplog: pytest.LogCaptureFixture) -> None:
    case = next(case for case in CASES if case.method == "verify")
    api = ScriptedApi([httpx2.ReadTimeout("read timed out")])
    with caplog.at_level(logging.WARNING, logger="app.reasoning.claude.reasoner"):
        answer = await call(reasoner(api, max_retries=0), case)
    assert len(api.requests) == 1
    assert answer.reasoner == "offline (fallback: timeout)"
    assert answer.usage is None
    assert answer.model_dump(exclude={"reasoner", "usage"}) == await offline_answer(case)
    assert "claude verify failed (timeout)" in caplog.text


async def test_a_slow_answer_is_cut_at_timeout_s_and_falls_back() -> None:
    case = next(case for case in CASES if case.method == "propose_work_unit")

    async def slow(request: httpx2.Request) -> httpx2.Response:
        await asyncio.sleep(5)
        return tool_answer("record_work_unit", case.tool_input, FAST)

    api = ScriptedApi([slow])
    started = time.perf_counter()
    answer = await call(reasoner(api, timeout_s=0.05), case)
    assert time.perf_counter() - started < 2
    assert answer.reasoner == "offline (fallback: timeout)"
    assert answer.model_dump(exclude={"reasoner", "usage"}) == await offline_answer(case)


async def test_a_connection_error_falls_back() -> None:
    case = CASES[2]
    api = ScriptedApi([httpx2.ConnectError("connection refused")])
    answer = await call(reasoner(api, max_retries=0), case)
    assert answer.reasoner == "offline (fallback: connection error)"


async def test_a_429_is_retried_then_succeeds() -> None:
    case = next(case for case in CASES if case.method == "classify_stance")
    api = ScriptedApi(
        [
            api_error(
                429,
                "rate_limit_error",
                "Number of request tokens has exceeded your per-minute rate limit",
                **{"retry-after": "0", "retry-after-ms": "1"},
            ),
            tool_answer("record_stance", case.tool_input, FAST),
        ]
    )
    answer = await call(reasoner(api, max_retries=2), case)
    assert len(api.requests) == 2
    assert api.body(0) == api.body(1)  # the same request, sent again
    assert answer.reasoner == f"claude:{FAST}"
    assert isinstance(answer, StanceJudgement) and answer.stance == "contradicting"


async def test_overloaded_beyond_max_retries_falls_back(caplog: pytest.LogCaptureFixture) -> None:
    case = next(case for case in CASES if case.method == "abstract_rule")
    overloaded = [
        api_error(529, "overloaded_error", "Overloaded", **{"retry-after-ms": "1"})
        for _ in range(3)
    ]
    api = ScriptedApi(list(overloaded))
    with caplog.at_level(logging.WARNING, logger="app.reasoning.claude.reasoner"):
        answer = await call(reasoner(api, max_retries=2), case)
    assert len(api.requests) == 3  # the first try and max_retries=2 retries
    assert answer.reasoner == "offline (fallback: HTTP 529 overloaded_error)"
    assert answer.model_dump(exclude={"reasoner", "usage"}) == await offline_answer(case)
    assert "claude abstract_rule failed (HTTP 529 overloaded_error)" in caplog.text


async def test_a_bad_request_is_not_retried_and_falls_back() -> None:
    case = CASES[0]
    bad = api_error(400, "invalid_request_error", "tools.0.input_schema: invalid")
    api = ScriptedApi([bad])
    answer = await call(reasoner(api, max_retries=2), case)
    assert len(api.requests) == 1
    assert answer.reasoner == "offline (fallback: HTTP 400 invalid_request_error)"


# --- the tool schemas ---------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.method)
def test_tool_schemas_are_self_contained_and_ask_for_every_field(case: Case) -> None:
    schema = answer_schema(case.answer_type)
    text = json.dumps(schema)
    assert "$ref" not in text and "$defs" not in text
    assert "reasoner" not in schema["properties"] and "usage" not in schema["properties"]

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if "properties" in node:
                assert node["required"] == list(node["properties"])
                assert node["type"] == "object"
            for key, value in node.items():
                if key != "properties":
                    walk(value)
                else:
                    for sub in value.values():
                        walk(sub)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(schema)
    # A valid answer passes the validation the schema describes.
    case.answer_type.model_validate(case.tool_input)


def test_verification_issues_are_inlined() -> None:
    schema = answer_schema(Verification)
    issue = schema["properties"]["issues"]["items"]
    assert issue["properties"]["severity"]["enum"] == ["low", "medium", "high", "critical"]
    assert issue["required"] == ["description", "severity"]


async def test_an_unexpected_sdk_error_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    claude = reasoner(ScriptedApi([]))

    async def broken(**arguments: Any) -> Any:
        raise RuntimeError("the SDK broke")

    monkeypatch.setattr(claude.client.messages, "create", broken)
    case = next(case for case in CASES if case.method == "verify")
    answer = await call(claude, case)
    assert answer.reasoner == "offline (fallback: RuntimeError: the SDK broke)"


# --- metrics: every call to Claude is counted with its tokens ------------------------------------


def _metric(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def test_calls_and_tokens_are_counted_by_judgement_and_outcome() -> None:
    case = next(case for case in CASES if case.method == "classify_stance")
    calls = {"judgement": "classify_stance"}
    ok_before = _metric("credence_reasoner_calls_total", **calls, outcome="ok")
    fallback_before = _metric("credence_reasoner_calls_total", **calls, outcome="fallback")
    input_before = _metric("credence_reasoner_tokens_total", **calls, kind="input")
    bad = {"stance": "maybe", "confidence": 1.7, "cues": []}
    api = ScriptedApi(
        [
            tool_answer("record_stance", case.tool_input, FAST),
            tool_answer("record_stance", bad, FAST),
        ]
    )

    await call(reasoner(api), case)
    await call(reasoner(api), case)

    assert _metric("credence_reasoner_calls_total", **calls, outcome="ok") == ok_before + 1
    assert (
        _metric("credence_reasoner_calls_total", **calls, outcome="fallback") == fallback_before + 1
    )
    # Both calls cost tokens, the failed one too.
    assert (
        _metric("credence_reasoner_tokens_total", **calls, kind="input")
        == input_before + 2 * INPUT_TOKENS
    )


@pytest.mark.parametrize("method", ["propose_work_unit", "verify"])
async def test_work_unit_and_verify_prompts_carry_the_accounting_skill(method: str) -> None:
    """The system text sent names the closed verb vocabulary (propose_work_unit) and the
    validation criteria (verify) of seeds/skills/accounting.yaml."""
    case = next(case for case in CASES if case.method == method)
    api = ScriptedApi([tool_answer(case.prompt.tool_name, case.tool_input, case.model)])
    await call(reasoner(api), case)
    [system] = api.body()["system"]
    skill = load_skill("accounting")
    if method == "propose_work_unit":
        for verb in ("create_record", "process_invoice", "approve_document", "request_approval"):
            assert verb in system["text"]
        assert all(verb in system["text"] for verb in skill.verbs)
        assert "segregation of duties" in system["text"]
    else:
        for criterion in ("COMPLETENESS", "ACCURACY", "AUTHORIZATION", "TIMING", "AUDIT_TRAIL"):
            assert criterion in system["text"]


@pytest.mark.parametrize("method", ["appraise", "propose_work_unit", "verify"])
async def test_a_pack_skill_replaces_the_accounting_skill_in_the_system_text(method: str) -> None:
    """An agent whose pack brings a skill (docs/packs.md §5): its vocabulary (appraise,
    propose_work_unit) and criteria (verify) are the system text's, not accounting's, and the
    skill is not repeated in the user message."""
    from app.seeds.files import find_pack

    skill = find_pack("procurement-basics").skill
    assert skill is not None
    case = next(case for case in CASES if case.method == method)
    request = case.request.model_copy(update={"skill": skill})
    api = ScriptedApi([tool_answer(case.prompt.tool_name, case.tool_input, case.model)])
    await call(reasoner(api), dataclasses.replace(case, request=request))
    [system] = api.body()["system"]
    user = json.dumps(api.body()["messages"])
    if method == "verify":
        assert "COMPETITION" in system["text"] and "SEGREGATION" in system["text"]
        assert "COMPLETENESS" not in system["text"]
    else:
        assert all(verb in system["text"] for verb in skill.verbs)
        assert "process_invoice" not in system["text"].split("closed")[-1]
    assert "issue_purchase_order" not in user and "domain_prompt" not in user
