"""What a turn's transaction takes from the reasoner's answers asked before it: the response to
exactly the request it builds (else it asks, rolling back), a revision proposal for the same
belief and statement, and, in the last round, whatever is there."""

from __future__ import annotations

import pytest

from app.loop.answers import AnswersNeeded, TurnAnswers
from app.loop.recording import TurnRecorder, silent
from app.reasoning.offline.reasoner import OfflineReasoner
from app.reasoning.protocol import ResponseRequest, RevisionRequest


def _revision(
    statement: str = "Invoices are approved by two people", **fields: object
) -> RevisionRequest:
    return RevisionRequest(
        belief_id="b1",
        statement=statement,
        category="aesthetic",
        strength=0.8,
        tension=0.75,
        against=[],
        supporting=[],
        neighbours=[],
        **fields,
    )


async def test_the_response_is_taken_only_for_the_request_it_answered() -> None:
    answers = TurnAnswers()
    plain = ResponseRequest(message="When are invoices approved?", system_prompt="p")
    with pytest.raises(AnswersNeeded) as needed:
        answers.reply_for(plain)
    assert needed.value.response == plain and needed.value.revisions == []
    recorder = TurnRecorder(emit=silent)
    await answers.respond(OfflineReasoner(), recorder, plain)
    assert answers.response is not None
    assert answers.reply_for(plain) is answers.response[1]
    revised = plain.model_copy(update={"revision": "A → B"})
    with pytest.raises(AnswersNeeded):
        answers.reply_for(revised)
    answers.settle = True  # the last round takes the latest response
    assert answers.reply_for(revised).text == answers.response[1].text
    assert [name for name, _ in recorder.judgements] == ["respond"]


async def test_a_proposal_holds_for_the_same_belief_statement_and_place() -> None:
    answers = TurnAnswers()
    request = _revision()
    assert answers.proposal_for(request) is None
    recorder = TurnRecorder(emit=silent)
    await answers.answer(OfflineReasoner(), recorder, AnswersNeeded([request, request]))
    answered = answers.proposal_for(request)
    assert answered is not None and answered.new_belief_id and answered.revision_id
    # Asked once, and its ids stay with it (a transaction run again writes the same revision).
    assert [name for name, _ in recorder.judgements] == ["revise"]
    assert answers.proposal_for(request.model_copy(update={"tension": 0.9})) is answered
    assert answers.proposal_for(_revision("Invoices need one approver")) is None
    assert answers.proposal_for(_revision(mode="cascade")) is None


async def test_a_recorder_inside_a_transaction_refuses_a_judgement() -> None:
    inner = TurnRecorder(emit=silent, in_transaction=True)
    with pytest.raises(RuntimeError, match="inside a retried transaction"):
        await inner.judge(
            "respond", OfflineReasoner().respond(ResponseRequest(message="hi", system_prompt="p"))
        )
    assert inner.judgements == []
