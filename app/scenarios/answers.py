"""The answers a scenario gives to the approval a turn left pending, in order, and their checks:
an answer expected to be refused (``refused``: the error's code, e.g. 403
``approval_not_authorized``) must be refused with that code and leave the approval as it was;
any other answer resumes the turn, whose decisions are checked as a turn's are."""

from __future__ import annotations

from app.errors import CredenceError
from app.loop.approvals import get_approval
from app.loop.models import TurnResult
from app.scenarios.checks import check_of, describe, turn_checks
from app.scenarios.driver import Stage
from app.scenarios.models import AnswerSpec, Check, ScenarioTurn


def _check(number: int, speaker: str, what: str, expected: str, actual: str) -> Check:
    return check_of(number, "answer", speaker, (what, expected, actual, expected == actual))


async def _status(stage: Stage, approval_id: str) -> str:
    stored = await get_approval(stage.runtime.graph, stage.agent_id, approval_id)
    return stored.public.status


async def play_answers(
    stage: Stage, number: int, turn: ScenarioTurn, result: TurnResult
) -> list[Check]:
    """Each answer of ``turn`` to the approval its ``result`` left pending, with its checks; one
    failed check when there is no pending approval to answer."""
    answers = turn.all_answers
    if not answers:
        return []
    approval = result.approval
    if approval is None or approval.status != "pending":
        speaker = answers[0].speaker or turn.speaker
        return [_check(number, speaker, "approval to answer", "pending", "none")]
    checks: list[Check] = []
    for answer in answers:
        checks += await _play_answer(
            stage, number, answer.speaker or turn.speaker, answer, approval.id
        )
    return checks


async def _play_answer(
    stage: Stage, number: int, speaker: str, answer: AnswerSpec, approval_id: str
) -> list[Check]:
    before = await _status(stage, approval_id)
    resumed: TurnResult | None = None
    try:
        resumed = await stage.answer(approval_id, answer.action, speaker, answer.text)
        outcome = "answered"
    except CredenceError as error:
        outcome = error.code
    if answer.refused is None:
        if resumed is None:
            return [_check(number, speaker, "answer", "answered", outcome)]
        stage.progress(f"turn {number}, {answer.action} by {speaker}: {describe(resumed)}")
        return turn_checks(number, "answer", speaker, answer.expect, resumed)
    stage.progress(f"turn {number}, {answer.action} by {speaker}: refused ({outcome})")
    after = await _status(stage, approval_id)
    return [
        _check(number, speaker, "answer refused", answer.refused, outcome),
        _check(number, speaker, "approval", before, after),
    ]
