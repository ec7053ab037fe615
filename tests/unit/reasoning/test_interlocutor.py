"""The offline reasoner reads the speaker's person model: the appraisal's approach names their
level in the turn's domain, their trust, goals and what worked; the answer's depth follows."""

from __future__ import annotations

from app.beliefs.formulas import trust_factor
from app.reasoning.offline.interlocutor import interlocutor_approach
from app.reasoning.offline.replies import compose
from app.reasoning.protocol import AppraisalRequest, BeliefBrief, PersonBrief, ResponseRequest


def _speaker(**fields: object) -> PersonBrief:
    return PersonBrief.model_validate({"name": "Pat Novak", "speaker": True, **fields})


def test_the_approach_names_level_trust_goals_and_patterns() -> None:
    request = AppraisalRequest(
        message="When are accruals recorded?",
        domain="accruals",
        people=[
            _speaker(
                knowledge_level="novice",
                trust=0.2,
                goals=["Close March"],
                successful_patterns=["proposal of remember in task, standard answer"],
            )
        ],
    )
    approach = interlocutor_approach(request)
    assert "Pat Novak is new in accruals" in approach
    assert "trust 0.20" in approach and "check their claims" in approach
    assert "working towards: Close March" in approach
    assert "What worked with Pat Novak before: proposal of remember" in approach
    assert interlocutor_approach(AppraisalRequest(message="Hi")) == ""
    assert interlocutor_approach(request.model_copy(update={"people": [_speaker()]})) == ""


def test_the_answer_goes_as_deep_as_asked() -> None:
    beliefs = [
        BeliefBrief(id="b1", statement="Accruals are recorded when incurred", strength=0.9),
        BeliefBrief(id="b2", statement="Accruals are reversed next period", strength=0.8),
    ]
    base = ResponseRequest(message="When are accruals recorded?", system_prompt="", beliefs=beliefs)
    detailed, _ = compose(base.model_copy(update={"depth": "detailed"}))
    standard, _ = compose(base)
    brief, _ = compose(base.model_copy(update={"depth": "brief"}))
    assert "For background: accruals are reversed next period." in detailed
    assert "For background" not in standard and "For background" not in brief
    assert len(detailed) > len(standard) >= len(brief)


def test_trust_scales_evidence_around_the_default() -> None:
    assert trust_factor(0.5) == 1.0
    assert trust_factor(1.0) == 1.5 and trust_factor(0.0) == 0.5
