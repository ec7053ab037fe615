"""Issue 13: what the reasoners receive besides the message — the session's history (and, in
later pieces, memory and identity) — and how the offline reasoner uses it; the Claude adapter is
checked on the request bodies it sends over the mocked transport."""

from __future__ import annotations

import json
from typing import Any, cast

import pytest

from app.agents.identity import (
    IdentityBelief,
    IdentityCapability,
    IdentityConflict,
    IdentityDocument,
    IdentityDomain,
    IdentityRule,
    identity_markdown,
)
from app.beliefs.mechanics import Mechanics
from app.embeddings.embedder import Embedder
from app.loop.learning import accepted, against_known, reinforcements
from app.loop.prompting import identity_system_prompt
from app.loop.routing import route
from app.loop.sessions import session_lessons, session_summary
from app.loop.settings import LoopSettings
from app.loop.turn_memory import failure_severity
from app.reasoning.offline.reasoner import OfflineReasoner
from app.reasoning.protocol import (
    AppraisalRequest,
    BeliefBrief,
    EvidenceRequest,
    HistoryTurn,
    LearnedClaim,
    MemoryItem,
    PersonBrief,
    RecalledEpisode,
    ResponseRequest,
    RuleBrief,
    Verification,
    VerificationIssue,
    WorkRequest,
)
from app.text.references import has_reference, resolve_references, subject_of
from tests.unit.reasoning.test_claude_reasoner import (
    CASES,
    FAST,
    ScriptedApi,
    reasoner,
    tool_answer,
)

WIRES = BeliefBrief(
    id="b-wires",
    statement="Wire transfers above ten thousand dollars need the controller's approval",
    strength=0.8,
)
HISTORY = [
    HistoryTurn(
        speaker="Dana Fox",
        message="Let's talk about wire transfers.",
        response="I'm confident that wire transfers above ten thousand dollars need approval.",
    )
]


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("What is our policy on wire transfers?", "wire transfers"),
        ("Bank reconciliations must be signed off by the controller.", "Bank reconciliations"),
        ("Tell me about the month-end close checklist", "month-end close checklist"),
        ("Thanks!", None),
    ],
)
def test_the_subject_of_a_turn_is_its_longest_run_of_content_words(
    text: str, subject: str | None
) -> None:
    assert subject_of(text) == subject


@pytest.mark.parametrize(
    ("message", "resolved"),
    [
        ("Who has to approve it?", "Who has to approve wire transfers?"),
        ("They must be approved twice.", "Wire transfers must be approved twice."),
        ("Is that right?", "Is wire transfers right?"),
        # "that" before a noun is a determiner, not a reference.
        ("Send that invoice to Maria", "Send that invoice to Maria"),
        # "that" after a noun opens a relative clause: it names the noun.
        (
            "Misstatements that are clearly trivial may not be left unadjusted.",
            "Misstatements that are clearly trivial may not be left unadjusted.",
        ),
        ("We approved that", "We approved wire transfers"),
        ("Hello there", "Hello there"),
    ],
)
def test_references_resolve_to_the_previous_subject(message: str, resolved: str) -> None:
    assert resolve_references(message, ["What is our policy on wire transfers?"]) == resolved


def test_a_turn_that_points_back_keeps_the_subject_and_nothing_resolves_without_history() -> None:
    earlier = ["Tell me about bank reconciliations", "Are they monthly?"]
    assert resolve_references("Who signs them?", earlier) == "Who signs bank reconciliations?"
    assert resolve_references("Who signs them?", []) == "Who signs them?"
    assert has_reference("approve it") and not has_reference("approve the invoice")


async def test_offline_evidence_reads_it_as_the_previous_subject() -> None:
    reasoner_ = OfflineReasoner()
    claim = "They need the controller's approval above ten thousand dollars."
    without = await reasoner_.extract_evidence(EvidenceRequest(message=claim, beliefs=[WIRES]))
    with_history = await reasoner_.extract_evidence(
        EvidenceRequest(message=claim, beliefs=[WIRES], history=HISTORY)
    )
    assert with_history.claims[0].startswith("Wire transfers need")
    assert [item.stance for item in with_history.items] == ["reinforcing"]
    assert with_history.items[0].confidence > (without.items[0].confidence if without.items else 0)


async def test_offline_work_unit_names_what_it_points_to() -> None:
    unit = await OfflineReasoner().propose_work_unit(
        WorkRequest(message="Please track it for the month-end close", history=HISTORY)
    )
    assert "wire transfers" in unit.entities


async def test_offline_answer_does_not_ask_again_what_it_asked_before() -> None:
    tense = WIRES.model_copy(update={"tension": 0.45})
    request = ResponseRequest(
        message="What about wire transfers?",
        system_prompt="You are Credence.",
        band="medium",
        beliefs=[tense],
        tensions=[tense],
    )
    first = await OfflineReasoner().respond(request)
    assert first.questions
    history = [HistoryTurn(message=request.message, response=first.text)]
    second = await OfflineReasoner().respond(request.model_copy(update={"history": history}))
    assert first.questions[-1] not in second.questions
    assert first.questions[-1] not in second.text


@pytest.mark.parametrize("method", ["appraise", "extract_evidence", "respond"])
async def test_claude_requests_carry_the_history(method: str) -> None:
    case = next(case for case in CASES if case.method == method)
    request = case.request.model_copy(update={"history": HISTORY})
    api = ScriptedApi([tool_answer(case.prompt.tool_name, case.tool_input, FAST)])
    await getattr(reasoner(api), method)(request)
    user = api.body()["messages"][0]["content"]
    data = json.loads(user.split("\n", 1)[1])
    assert data["history"] == [turn.model_dump() for turn in HISTORY]
    assert "history" in api.body()["system"][0]["text"]


def test_every_turn_request_has_a_history_field() -> None:
    for model in (AppraisalRequest, EvidenceRequest, ResponseRequest, WorkRequest):
        assert "history" in model.model_fields


# --- memory in the turn ------------------------------------------------------------------------

RULE = RuleBrief(
    id="r-1",
    trigger_concept="wire transfers",
    content="When wire transfers come up: confirm the beneficiary by phone first.",
    confidence=0.8,
)
DIRECTOR = PersonBrief(name="Maria Lopez", authority=0.8, relationship_value=0.7, speaker=True)


async def test_offline_appraisal_reads_the_people_present_and_the_rules() -> None:
    message = "Please pay the wire transfer to Acme today"
    plain = await OfflineReasoner().appraise(AppraisalRequest(message=message))
    shaped = await OfflineReasoner().appraise(
        AppraisalRequest(
            message=message,
            people=[DIRECTOR.model_copy(update={"affect_stress": 0.6})],
            rules=[RULE],
            urgency_multiplier=1.5,
        )
    )
    assert plain.decided_by is None and shaped.decided_by == "Maria Lopez"
    assert shaped.face_threat > plain.face_threat
    assert shaped.urgency > plain.urgency
    assert "Maria Lopez (authority 0.80) decides here" in shaped.recommended_approach
    assert "under stress" in shaped.recommended_approach
    assert RULE.content in shaped.recommended_approach


async def test_offline_expectancy_violation_from_surprise_and_tension() -> None:
    calm = await OfflineReasoner().appraise(AppraisalRequest(message="The close went well."))
    surprised = await OfflineReasoner().appraise(
        AppraisalRequest(
            message="Unexpectedly the bank feed broke again.",
            beliefs=[WIRES.model_copy(update={"tension": 0.5})],
        )
    )
    assert calm.expectancy_violation == 0.0
    assert surprised.expectancy_violation == pytest.approx(0.8)


async def test_offline_answer_names_the_rule_and_the_related_task() -> None:
    reply = await OfflineReasoner().respond(
        ResponseRequest(
            message="What about the wire transfer to Acme?",
            system_prompt="You are Credence.",
            beliefs=[WIRES],
            rules=[RULE],
            working_memory=[
                MemoryItem(kind="task", content="Approve the Acme wire transfer"),
                MemoryItem(kind="note", content="The coffee machine is broken"),
            ],
        )
    )
    assert f"A rule I follow here: {RULE.content}" in reply.text
    assert "On my task list: Approve the Acme wire transfer." in reply.text
    assert "coffee" not in reply.text


@pytest.mark.parametrize("method", ["appraise", "respond"])
async def test_claude_requests_carry_the_memory(method: str) -> None:
    case = next(case for case in CASES if case.method == method)
    memory = {
        "people": [DIRECTOR],
        "rules": [RULE],
        "working_memory": [MemoryItem(kind="note", content="CFO wants numbers by noon")],
        "episodes": [RecalledEpisode(text="The Acme wire bounced last month", outcome="failure")],
    }
    api = ScriptedApi([tool_answer(case.prompt.tool_name, case.tool_input, FAST)])
    await getattr(reasoner(api), method)(case.request.model_copy(update=memory))
    data = json.loads(api.body()["messages"][0]["content"].split("\n", 1)[1])
    assert data["people"][0]["name"] == "Maria Lopez"
    assert data["rules"][0]["content"] == RULE.content
    assert data["working_memory"] == [{"kind": "note", "content": "CFO wants numbers by noon"}]
    assert data["episodes"][0]["outcome"] == "failure"


def test_failure_severity_is_the_largest_issue_through_the_seed_map() -> None:
    loop = LoopSettings()
    issues = [VerificationIssue(description="x", severity=level) for level in ("low", "high")]
    failed = Verification(is_valid=False, issues=issues, action="escalate")
    assert failure_severity(failed, loop) == 0.9
    medium = Verification(
        is_valid=False, issues=[VerificationIssue(description="x")], action="retry"
    )
    assert failure_severity(medium, loop) == 0.6
    assert failure_severity(Verification(is_valid=False, action="retry"), loop) == 0.0
    assert failure_severity(None, loop) == 0.0


def test_an_invalidated_belief_never_decides_autonomy() -> None:
    routed = route(
        0.9,
        stakes="low",
        band="low",
        censor_action="allow",
        audit_failed=False,
        mechanics=Mechanics(),
        invalidated=True,
    )
    assert routed.mode == "proposal"
    assert "invalidated" in routed.reasons[-1]


# --- learning new beliefs ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("From now on, always confirm the beneficiary by phone before wiring.", "guidance"),
        ("No, wire transfers above ten thousand dollars do not need the controller's approval.",
         "correction"),
        ("Our fiscal year ends on the thirtieth of June.", "novel"),
    ],
)  # fmt: skip
async def test_offline_evidence_names_what_the_agent_may_learn(message: str, kind: str) -> None:
    evidence = await OfflineReasoner().extract_evidence(
        EvidenceRequest(message=message, beliefs=[WIRES])
    )
    [learned] = evidence.learned
    assert learned.kind == kind
    assert learned.contradicts == (["b-wires"] if kind == "correction" else [])
    # A correction's statement loses its denial preamble.
    assert not learned.statement.startswith("No,")


@pytest.mark.parametrize(
    "message",
    [
        "Maybe the fiscal year ends in June.",  # hedged
        "Wire transfers above ten thousand dollars need the controller's approval.",  # known
        "You were wrong about that.",  # feedback
        "Thanks a lot!",
    ],
)
async def test_offline_evidence_learns_nothing_from_hedges_repeats_or_feedback(
    message: str,
) -> None:
    evidence = await OfflineReasoner().extract_evidence(
        EvidenceRequest(message=message, beliefs=[WIRES])
    )
    assert evidence.learned == []


async def test_claude_learned_claims_naming_unknown_beliefs_fall_back() -> None:
    case = next(case for case in CASES if case.method == "extract_evidence")
    invented = {
        **case.tool_input,
        "learned": [
            {"statement": "X.", "kind": "correction", "supports": [], "contradicts": ["b-x"]}
        ],
    }
    api = ScriptedApi([tool_answer(case.prompt.tool_name, invented, FAST)])
    assert isinstance(case.request, EvidenceRequest)
    answer = await reasoner(api).extract_evidence(case.request)
    assert answer.reasoner.startswith("offline (fallback: items for unknown belief ids")


def test_corrections_need_authority_and_repeats_are_found_by_similarity() -> None:
    loop = LoopSettings()
    claims = [
        LearnedClaim(statement="A.", kind="correction", contradicts=["b"]),
        LearnedClaim(statement="B.", kind="guidance"),
        LearnedClaim(statement="C.", kind="novel"),
    ]
    junior = PersonBrief(name="Sam", authority=0.5, speaker=True)
    assert [c.kind for c in accepted(claims, junior, loop)] == ["guidance", "novel"]
    assert [c.kind for c in accepted(claims, DIRECTOR, loop)] == ["correction", "guidance", "novel"]
    quiet = loop.model_copy(update={"learn_novel_claims": False})
    assert [c.kind for c in accepted(claims, None, quiet)] == ["guidance"]


async def test_a_claim_repeating_a_known_belief_reinforces_it() -> None:
    loop = LoopSettings()
    repeat = LearnedClaim(statement=WIRES.statement + "!", kind="guidance")
    other = LearnedClaim(statement="Always lock the office at night.", kind="guidance")
    # _TokenOnly stands in for an Embedder with no model (the two methods against_known reads).
    planned = await against_known(cast(Embedder, _TokenOnly()), loop, [repeat, other], [WIRES])
    assert planned[0].duplicate_of == "b-wires" and planned[0].similarity >= 0.8
    assert planned[1].duplicate_of is None
    [evidence] = reinforcements(planned, [])
    assert evidence.belief_id == "b-wires" and evidence.stance == "reinforcing"


class _TokenOnly:
    """An embedder that has no model: similarity falls back to token overlap."""

    settings = None

    async def embed(self, texts: list[str], kind: str = "passage") -> None:
        return None


# --- sessions ----------------------------------------------------------------------------------


def test_a_session_summary_names_who_what_and_how_it_went() -> None:
    episodes: list[dict[str, Any]] = [
        {"speaker": "Dana Fox", "text": "Please reconcile the petty cash", "outcome": "success"},
        {"speaker": "user", "text": "The bank feed broke again", "outcome": "failure"},
        {
            "speaker": "Dana Fox",
            "text": "Thanks!",
            "outcome": "neutral",
            "revision_triggered": True,
        },
    ]
    summary = session_summary("s1", episodes)
    assert summary == (
        "Session s1: 3 turn(s) with Dana Fox. Topics: petty cash; bank feed broke. "
        "Outcomes: 1 success, 1 failure. 1 turn(s) revised a belief."
    )
    assert session_lessons(episodes) == [
        "What failed: The bank feed broke again",
        "A belief was revised after: Thanks!",
        "What worked: Please reconcile the petty cash",
    ]
    assert session_summary("empty", []) == "Session empty: no turns."


# --- identity ----------------------------------------------------------------------------------

IDENTITY = "# Ava: identity\n\n## Purpose\n\nKeep the books honest."


@pytest.mark.parametrize("method", ["appraise", "extract_evidence", "propose_work_unit"])
async def test_claude_system_prompt_is_the_identity_document(method: str) -> None:
    case = next(case for case in CASES if case.method == method)
    api = ScriptedApi([tool_answer(case.prompt.tool_name, case.tool_input, FAST)])
    request = case.request.model_copy(update={"identity": IDENTITY})
    await getattr(reasoner(api), method)(request)
    [system] = api.body()["system"]
    assert system["text"].startswith(IDENTITY) and case.prompt.instructions in system["text"]
    assert system["cache_control"] == {"type": "ephemeral"}
    assert "Keep the books honest" not in api.body()["messages"][0]["content"]


async def test_claude_respond_uses_the_identity_prompt() -> None:
    case = next(case for case in CASES if case.method == "respond")
    api = ScriptedApi([tool_answer(case.prompt.tool_name, case.tool_input, FAST)])
    prompt = identity_system_prompt(IDENTITY)
    assert isinstance(case.request, ResponseRequest)
    await reasoner(api).respond(case.request.model_copy(update={"system_prompt": prompt}))
    [system] = api.body()["system"]
    assert system["text"].startswith(IDENTITY)
    assert "Rules of answering:" in system["text"]


def test_the_identity_markdown_follows_the_seed_template() -> None:
    document = IdentityDocument(
        agent_id="a",
        name="Ava",
        identity_goal="Keep the books honest.",
        terminal_creed=["Never fake a result."],
        capabilities=[IdentityCapability(domain="task", proficiency=0.62, experience_count=4)],
        knowledge_gaps=["lease accounting"],
        strongest_beliefs=[
            IdentityDomain(
                domain="general",
                beliefs=[IdentityBelief(id="b", statement="Cash is king.", strength=0.9)],
            )
        ],
        open_conflicts=[IdentityConflict(a="A.", b="Not A.")],
        recent_rules=[IdentityRule(id="r", trigger_concept="audit", content="Note dates.")],
    )
    text = identity_markdown(document)
    for expected in (
        "# Ava: identity",
        "Keep the books honest.",
        "1. Never fake a result.",
        "| task | 62% | 4 tasks | — |",
        "- lease accounting",
        "- Cash is king. (strength 0.90)",
        "- “A.” contradicts “Not A.”",
        "- audit: Note dates.",
    ):
        assert expected in text, expected


@pytest.mark.parametrize(
    ("message", "resolved"),
    [
        ("It's month end, please track the close", "It's month end, please track the close"),
        ("It is important to file on time", "It is important to file on time"),
        ("It's approved by the controller", "Wire transfers is approved by the controller"),
    ],
)
def test_a_dummy_it_points_at_nothing(message: str, resolved: str) -> None:
    assert resolve_references(message, ["What is our policy on wire transfers?"]) == resolved


FRAME_QUESTIONS = [
    "What exactly counts as done, and who checks the result?",
    "Which data, systems or people does this touch, and is any step irreversible?",
]


@pytest.mark.parametrize("method", ["appraise", "respond"])
async def test_claude_requests_carry_the_frames_own_checks(method: str) -> None:
    """The turn's frame's questions_to_ask reach the appraisal and the reply as the agent's own
    checks, and the instructions say they are not put to the person."""
    case = next(case for case in CASES if case.method == method)
    api = ScriptedApi([tool_answer(case.prompt.tool_name, case.tool_input, FAST)])
    request = case.request.model_copy(update={"frame_questions": FRAME_QUESTIONS})
    await getattr(reasoner(api), method)(request)
    data = json.loads(api.body()["messages"][0]["content"].split("\n", 1)[1])
    assert data["frame_questions"] == FRAME_QUESTIONS
    assert "`frame_questions`" in api.body()["system"][0]["text"]
