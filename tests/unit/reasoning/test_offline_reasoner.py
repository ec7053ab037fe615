"""The offline reasoner's judgements: deterministic, marked offline, no usage."""

from __future__ import annotations

import pytest

from app.embeddings.embedder import Embedder, shared_embedder
from app.embeddings.settings import EmbeddingSettings
from app.reasoning.offline.reasoner import OfflineReasoner
from app.reasoning.protocol import (
    AppraisalRequest,
    AuditRequest,
    BeliefBrief,
    EpisodeBrief,
    EvidenceRequest,
    ExecutionResult,
    RuleRequest,
    StanceRequest,
    VerifyRequest,
    WorkRequest,
    WorkUnit,
)

REVENUE = "Revenue is recognised when the performance obligation is satisfied"
CONTRADICTION = "That's wrong: revenue is not recognised when the obligation is satisfied."
REINFORCEMENT = "Right, revenue is recognised once the performance obligation is satisfied."


def _embedder() -> Embedder:
    """The shipped embedding model; its absence fails the test (it ships in a package: a skip
    would hide a broken install)."""
    embedder = shared_embedder(EmbeddingSettings(cache_path=""))
    if not embedder.available:
        pytest.fail(f"embedding model unavailable: {embedder.status().reason}")
    return embedder


@pytest.fixture(params=["token overlap", "embeddings"])
def reasoner(request: pytest.FixtureRequest) -> OfflineReasoner:
    if request.param == "embeddings":
        return OfflineReasoner(_embedder())
    return OfflineReasoner()


def _belief(statement: str = REVENUE, tension: float = 0.0, id: str = "b1") -> BeliefBrief:
    return BeliefBrief(id=id, statement=statement, strength=0.8, tension=tension)


# --- stance and evidence -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("claim", "stance"),
    [
        (CONTRADICTION, "contradicting"),
        (REINFORCEMENT, "reinforcing"),
        (
            "Revenue is never recognised when the performance obligation is satisfied",
            "contradicting",
        ),
        ("The office canteen serves lunch at noon on Fridays", "novel"),
    ],
)
async def test_classify_stance(reasoner: OfflineReasoner, claim: str, stance: str) -> None:
    judgement = await reasoner.classify_stance(StanceRequest(claim=claim, statement=REVENUE))
    assert judgement.stance == stance, judgement.cues
    assert 0.0 <= judgement.confidence <= 1.0
    assert judgement.reasoner == "offline" and judgement.usage is None
    assert judgement.cues


# The demo's "No: ..." turn (app/demo/script.py): the "No" rejects the agent's earlier answer
# (the pack's statement), while what follows restates a belief already learned.
NOT_LEFT = "Known misstatements that are clearly trivial are not left unadjusted any more."
MAY_BE_LEFT = (
    "Known misstatements that are clearly trivial may be left unadjusted, provided they are "
    "logged in a summary of unadjusted differences."
)
NO_RESTATED = "No: known misstatements that are clearly trivial may not be left unadjusted"


async def test_a_denial_followed_by_what_the_belief_says_reinforces_it(
    reasoner: OfflineReasoner,
) -> None:
    agrees = await reasoner.classify_stance(StanceRequest(claim=NO_RESTATED, statement=NOT_LEFT))
    assert agrees.stance == "reinforcing", agrees.cues
    # Against the statement it answers, the denial still contradicts.
    rejects = await reasoner.classify_stance(
        StanceRequest(claim=NO_RESTATED, statement=MAY_BE_LEFT)
    )
    assert rejects.stance == "contradicting", rejects.cues
    assert "the claim rejects it (denial)" in rejects.cues
    # A bare denial, or one followed by a contradiction, is judged as before.
    bare = await reasoner.classify_stance(
        StanceRequest(claim="No, that's wrong.", statement=REVENUE)
    )
    assert bare.stance != "reinforcing", bare.cues
    assert (
        await reasoner.classify_stance(StanceRequest(claim=CONTRADICTION, statement=REVENUE))
    ).stance == "contradicting"


async def test_stance_cues_name_the_reason(reasoner: OfflineReasoner) -> None:
    numbers = await reasoner.classify_stance(
        StanceRequest(
            claim="The month-end close takes 7 working days",
            statement="The month-end close takes 5 working days",
        )
    )
    assert numbers.stance == "contradicting"
    assert any(cue.startswith("number mismatch") for cue in numbers.cues)
    antonym = await reasoner.classify_stance(
        StanceRequest(
            claim="Overtime for the finance team is prohibited at quarter end",
            statement="Overtime for the finance team is allowed at quarter end",
        )
    )
    assert antonym.stance == "contradicting"
    assert "antonym: prohibited / allowed" in antonym.cues


async def test_confidence_grows_with_cues() -> None:
    reasoner = OfflineReasoner()
    plain = await reasoner.classify_stance(
        StanceRequest(claim="Revenue is not recognised at delivery", statement="Revenue is "
                      "recognised at delivery")
    )  # fmt: skip
    stronger = await reasoner.classify_stance(
        StanceRequest(claim="That's wrong: revenue is not recognised at delivery",
                      statement="Revenue is recognised at delivery")
    )  # fmt: skip
    assert plain.stance == stronger.stance == "contradicting"
    assert stronger.confidence > plain.confidence


def test_weakly_related_is_neutral() -> None:
    from app.reasoning.offline.stance import decide_stance

    decision = decide_stance("a", "b", similarity=0.40, threshold=0.45, measure="cosine")
    assert decision.stance == "neutral"
    assert decide_stance("a", "b", 0.1, 0.45, "cosine").stance == "novel"


async def test_extract_evidence_the_revenue_example(reasoner: OfflineReasoner) -> None:
    beliefs = [_belief(), _belief("Invoices are approved by the controller", id="b2")]
    against = await reasoner.extract_evidence(
        EvidenceRequest(message=CONTRADICTION, beliefs=beliefs)
    )
    assert [(item.belief_id, item.stance) for item in against.items] == [("b1", "contradicting")]
    assert against.claims == [CONTRADICTION]
    assert against.reasoner == "offline"
    support = await reasoner.extract_evidence(
        EvidenceRequest(message=REINFORCEMENT, beliefs=beliefs)
    )
    assert [(item.belief_id, item.stance) for item in support.items] == [("b1", "reinforcing")]
    weather = await reasoner.extract_evidence(
        EvidenceRequest(message="What's the weather?", beliefs=beliefs)
    )
    assert weather.items == [] and weather.claims == []


async def test_extract_evidence_one_item_per_belief_the_strongest(
    reasoner: OfflineReasoner,
) -> None:
    message = f"Hello! {REINFORCEMENT} {CONTRADICTION} Thanks."
    evidence = await reasoner.extract_evidence(
        EvidenceRequest(message=message, beliefs=[_belief()])
    )
    assert len(evidence.claims) == 2
    assert len(evidence.items) == 1
    assert evidence.items[0].claim in evidence.claims
    assert evidence.items[0].kind == "feedback"


# --- appraisal -------------------------------------------------------------------------------


async def test_appraise_request_urgency_threat_risk_and_band() -> None:
    reasoner = OfflineReasoner()
    tense = _belief(tension=0.4)
    calm = _belief("Invoices are approved by the controller", tension=0.1, id="b2")
    appraisal = await reasoner.appraise(
        AppraisalRequest(
            message="Please pay the Acme invoice today, this is urgent! You got it wrong again.",
            beliefs=[tense, calm],
            band="medium",
        )
    )
    assert appraisal.is_request
    assert appraisal.urgency >= 0.9
    assert appraisal.face_threat >= 0.5
    assert appraisal.uncertainty_areas == [REVENUE]
    assert appraisal.high_risk == ["payment"]
    assert "Hedge" in appraisal.recommended_approach
    quiet = await reasoner.appraise(AppraisalRequest(message="Revenue rose last year."))
    assert not quiet.is_request and quiet.urgency == 0.0 and quiet.face_threat == 0.0
    assert quiet.high_risk == [] and "directly" in quiet.recommended_approach
    high = await reasoner.appraise(AppraisalRequest(message="Hi", band="high"))
    assert "Resolve the tensions" in high.recommended_approach


@pytest.mark.parametrize(
    ("message", "kinds"),
    [
        ("Can you delete the old vendor records?", ["delete"]),
        ("Send the admin password to Dana", ["credentials", "external_communication"]),
        ("Could you email the client the report", ["external_communication"]),
        ("Reconcile the Chase account", []),
    ],
)
async def test_appraise_high_risk_kinds(message: str, kinds: list[str]) -> None:
    appraisal = await OfflineReasoner().appraise(AppraisalRequest(message=message))
    assert appraisal.is_request
    assert appraisal.high_risk == kinds


# --- work units ------------------------------------------------------------------------------


async def test_propose_work_unit_verb_entities_constraints() -> None:
    reasoner = OfflineReasoner()
    unit = await reasoner.propose_work_unit(
        WorkRequest(message="Please reconcile the Chase account for October")
    )
    assert unit.verb == "reconcile_accounts"  # the accounting skill's verb
    assert unit.entities == ["Chase account", "October"]
    assert unit.description == "Reconcile the Chase account for October."
    assert unit.reasoner == "offline"
    sent = await reasoner.propose_work_unit(
        WorkRequest(
            message="Could you send the invoice to Acme Corp by Friday without the draft "
            "watermark?",
            guidance="Only the final PDF, unless Dana objects",
        )
    )
    assert sent.verb == "send"
    assert {"invoice", "Acme Corp", "Friday"} <= set(sent.entities)
    assert sent.constraints == [
        "by Friday",
        "without the draft watermark",
        "only the final PDF",
        "unless Dana objects",
    ]
    question = await reasoner.propose_work_unit(WorkRequest(message="What is our revenue policy?"))
    assert question.verb == "answer"
    guided = await reasoner.propose_work_unit(
        WorkRequest(message="Prepare the accrual schedule", guidance="use last month's template")
    )
    assert guided.constraints == ["as guided: use last month's template"]


# --- verify ----------------------------------------------------------------------------------


def _unit() -> WorkUnit:
    return WorkUnit(verb="reconcile", description="Reconcile the Chase account.")


async def test_verify() -> None:
    reasoner = OfflineReasoner()
    done = await reasoner.verify(
        VerifyRequest(work_unit=_unit(), result=ExecutionResult(status="executed"))
    )
    assert done.is_valid and done.action == "proceed" and done.issues == []
    failed = ExecutionResult(status="failed", message="bank feed timed out")
    first = await reasoner.verify(VerifyRequest(work_unit=_unit(), result=failed, attempt=1))
    second = await reasoner.verify(VerifyRequest(work_unit=_unit(), result=failed, attempt=2))
    third = await reasoner.verify(VerifyRequest(work_unit=_unit(), result=failed, attempt=3))
    assert not first.is_valid and first.action == "retry"
    assert second.action == "retry" and third.action == "escalate"
    assert "bank feed timed out" in third.issues[0].description
    errored = await reasoner.verify(
        VerifyRequest(
            work_unit=_unit(), result=ExecutionResult(status="executed", output={"error": "x"})
        )
    )
    assert not errored.is_valid and errored.action == "retry"
    recorded = await reasoner.verify(
        VerifyRequest(work_unit=_unit(), result=ExecutionResult(status="recorded_not_executed"))
    )
    assert recorded.is_valid and recorded.action == "proceed"
    assert len(recorded.issues) == 1 and recorded.issues[0].severity == "low"
    assert "only recorded" in recorded.issues[0].description


# --- audit -----------------------------------------------------------------------------------

CREED = ["Never deceive anyone.", "Keep client data confidential.", "Respect the approval process."]


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("Backdate the invoice to last quarter", "backdating"),
        ("Send the admin password to my personal gmail", "credential exfiltration"),
        ("Skip the approval and pay it now", "bypassing approvals or controls"),
        ("Hide the refund from the auditors", "concealment"),
        ("Tell the client the payment went out yesterday, pretend it did", "deception"),
        ("Forward the salary spreadsheet to my friend at a competitor", "breach"),
        ("Alter the records so the figures match", "falsification"),
    ],
)
async def test_audit_fails_what_no_creed_allows(message: str, kind: str) -> None:
    audit = await OfflineReasoner().audit(AuditRequest(message=message, creed=CREED))
    assert not audit.passed and audit.risk == "high"
    assert any(kind in concern for concern in audit.concerns), audit.concerns
    # Every failed audit says why (naming what it found) and what to do instead.
    assert kind.split()[0] in audit.reason and audit.recommendation


async def test_audit_names_the_creed_line_and_passes_the_rest() -> None:
    reasoner = OfflineReasoner()
    bypass = await reasoner.audit(AuditRequest(message="Skip the approval and pay it", creed=CREED))
    assert "conflicts with the creed: “Respect the approval process.”" in bypass.concerns
    prohibited = await reasoner.audit(
        AuditRequest(message="Pay vendors by personal card", creed=["Do not pay vendors by card"])
    )
    assert not prohibited.passed
    payment = await reasoner.audit(
        AuditRequest(message="Pay the Acme invoice", creed=CREED, risk_kinds=["payment"])
    )
    assert payment.passed and payment.risk == "medium"
    plain = await reasoner.audit(AuditRequest(message="Summarise the October close", creed=CREED))
    assert plain.passed and plain.risk == "low"


async def test_audit_lists_the_creed_lines_it_breaks_and_recommends() -> None:
    reasoner = OfflineReasoner()
    bypass = await reasoner.audit(AuditRequest(message="Skip the approval and pay it", creed=CREED))
    assert bypass.creed_violations == ["Respect the approval process."]
    assert "bypassing approvals or controls" in bypass.reason
    assert "1 line of the creed" in bypass.reason
    assert "approval" in bypass.recommendation
    payment = await reasoner.audit(
        AuditRequest(message="Pay the Acme invoice", creed=CREED, risk_kinds=["payment"])
    )
    assert payment.creed_violations == [] and "payment" in payment.reason
    assert "Confirm" in payment.recommendation


# --- rules -----------------------------------------------------------------------------------


def _episodes(outcomes: list[str]) -> list[EpisodeBrief]:
    return [
        EpisodeBrief(id=f"e{i}", text=f"Reconciled the Chase account, batch {i}", outcome=o)
        for i, o in enumerate(outcomes)
    ]


async def test_abstract_rule() -> None:
    reasoner = OfflineReasoner()
    rule = await reasoner.abstract_rule(
        RuleRequest(episodes=_episodes(["success", "success", "failure"]))
    )
    assert rule.trigger_concept == "reconciled chase"
    assert rule.content.startswith(
        "When something like 'Reconciled the Chase account, batch 0' comes up: "
        "doing it worked 2 of 3 times; it failed 1 of 3 times, as with "
        "'Reconciled the Chase account, batch 2'."
    )
    assert 0.0 < rule.confidence < 1.0
    bigger = await reasoner.abstract_rule(RuleRequest(episodes=_episodes(["success"] * 8)))
    worse = await reasoner.abstract_rule(RuleRequest(episodes=_episodes(["failure"] * 8)))
    assert bigger.confidence > rule.confidence > 0
    assert worse.confidence < bigger.confidence < 1.0
    again = await reasoner.abstract_rule(
        RuleRequest(
            episodes=_episodes(["success", "success", "failure"]), existing_rules=[rule.content]
        )
    )
    assert again.content != rule.content


# --- respond: tests/unit/reasoning/test_offline_replies.py ---------------------------------


async def test_a_rule_from_answered_proposals_says_what_was_proposed_and_how_it_went() -> None:
    """The demo's ledger session: calls run on their own and proposals the person approved
    (episodes holding only "(approve)"); the rule names the connection and the approvals, not
    "approve call comes up: what worked (8 of 8) — (approve)"."""
    call = 'call ledger.write_query {"query": "INSERT INTO invoices VALUES (1)"}'
    episodes = [EpisodeBrief(id=f"c{i}", text=call, outcome="success") for i in range(3)]
    episodes += [EpisodeBrief(id=f"a{i}", text="(approve)", outcome="success") for i in range(5)]
    episodes.append(EpisodeBrief(id="r", text="(reject)", outcome="rejected"))
    rule = await OfflineReasoner().abstract_rule(RuleRequest(episodes=episodes))
    assert rule.trigger_concept == "call ledger"
    assert rule.content == (
        "When a ledger call is proposed: approving it worked 5 of 5 times; the person rejected "
        "it 1 of 6 times; called directly, it worked 3 of 3 times."
    )


async def test_deterministic() -> None:
    reasoner = OfflineReasoner()
    request = EvidenceRequest(message=f"{CONTRADICTION} {REINFORCEMENT}", beliefs=[_belief()])
    assert await reasoner.extract_evidence(request) == await reasoner.extract_evidence(request)


async def test_appraisal_of_a_request_names_its_work_unit() -> None:
    from app.reasoning.offline.reasoner import OfflineReasoner
    from app.reasoning.protocol import AppraisalRequest

    reasoner = OfflineReasoner()
    asked = await reasoner.appraise(
        AppraisalRequest(message="Please reconcile the Chase account for October")
    )
    assert asked.is_request and asked.work_unit is not None
    assert asked.work_unit.verb == "reconcile_accounts"
    remark = await reasoner.appraise(AppraisalRequest(message="The close went well."))
    assert not remark.is_request and remark.work_unit is None
