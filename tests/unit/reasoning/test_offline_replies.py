"""The offline answer reads like an assistant's (app/reasoning/offline/replies.py): a belief is
quoted as a clause of the answer's sentence, a courtesy is returned in kind, a question it holds
no belief about is answered as such, and the only questions asked are about the message."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.reasoning.offline.reasoner import OfflineReasoner
from app.reasoning.offline.replies import clause
from app.reasoning.protocol import BeliefBrief, PersonBrief, Reply, ResponseRequest

REVENUE = "Revenue is recognised when the performance obligation is satisfied."
CONTROLLER = "Invoices are approved by the controller."


def _belief(
    statement: str = REVENUE, strength: float = 0.8, tension: float = 0.0, id: str = "b1"
) -> BeliefBrief:
    return BeliefBrief(id=id, statement=statement, strength=strength, tension=tension)


async def _reply(message: str = "When is revenue recognised?", **fields: object) -> Reply:
    request = ResponseRequest.model_validate(
        {"message": message, "system_prompt": "creed", **fields}
    )
    return await OfflineReasoner().respond(request)


def _reads_as_one_text(text: str) -> None:
    """No statement pasted into a sentence: no capital after an opening that continues the
    sentence, no double full stop."""
    assert ".." not in text.replace("…", ""), text
    opening = r"(?:that|know|so far|think|belief that|whether|from the belief that),? "
    assert not re.search(opening + r"(?:Revenue|Invoices|At)\b", text), text


@pytest.mark.parametrize(
    ("statement", "expected"),
    [
        (REVENUE, "revenue is recognised when the performance obligation is satisfied"),
        ("At every period end, cut-off is tested.", "at every period end, cut-off is tested"),
        ("ASC 606 governs revenue.", "ASC 606 governs revenue"),
        ("IFRS 15 applies", "IFRS 15 applies"),
        ("VAT is filed quarterly.", "VAT is filed quarterly"),
        # A revised statement's closing remark (the earlier belief) is left out of the clause.
        (
            "Revenue is not recognised. (Revised from the earlier belief: Revenue is recognised.)",
            "revenue is not recognised",
        ),
        ("Revenue follows ASC 606 (effective 2018).", "revenue follows ASC 606 (effective 2018)"),
        (
            "ledger.write_query does what is asked of it.",
            "ledger.write_query does what is asked of it",
        ),
        ("Dana approves the payroll.", "Dana approves the payroll"),
        ("I approve invoices.", "I approve invoices"),
    ],
)
def test_a_statement_becomes_a_clause(statement: str, expected: str) -> None:
    assert clause(statement, frozenset({"Dana"})) == expected


@pytest.mark.parametrize(
    ("strength", "opening"),
    [
        (0.85, "I'm confident that "),
        (0.7, "From what I know, "),
        (0.5, "From what I know so far, "),
    ],
)
async def test_the_belief_is_quoted_as_a_clause_by_how_firmly_it_is_held(
    strength: float, opening: str
) -> None:
    reply = await _reply(beliefs=[_belief(strength=strength)])

    assert (
        reply.text
        == f"{opening}revenue is recognised when the performance obligation is satisfied."
    )
    assert reply.questions == [] and reply.reasoner == "offline"


async def test_medium_and_high_bands_quote_clauses_and_ask_about_the_tense_belief() -> None:
    tense = _belief(CONTROLLER, tension=0.5, id="b2")

    medium = await _reply(band="medium", beliefs=[_belief(), tense], tensions=[tense])
    assert medium.text.startswith(
        "I think revenue is recognised when the performance obligation is satisfied, but I'm "
        "not certain: my belief that invoices are approved by the controller is under tension "
        "(0.50)."
    )
    assert medium.questions == ["Is it still true that invoices are approved by the controller?"]
    _reads_as_one_text(medium.text)

    high = await _reply(band="high", beliefs=[_belief(), tense], tensions=[tense])
    assert high.text.startswith(
        "Before anything else I need to resolve the tensions in what I believe: “Invoices are "
        "approved by the controller” (0.50)."
    )
    assert "I'm working from the belief that revenue is recognised" in high.text
    assert high.questions == [
        "Can you help me settle whether invoices are approved by the controller?"
    ]
    _reads_as_one_text(high.text)


async def test_a_person_named_first_keeps_the_capital() -> None:
    reply = await _reply(
        "Who signs the payroll?",
        beliefs=[_belief("Dana signs the payroll.")],
        people=[PersonBrief(name="Dana Kowalski")],
    )
    assert reply.text == "I'm confident that Dana signs the payroll."


@pytest.mark.parametrize(
    ("message", "answer"),
    [
        ("Hello, how are you today?", "Hello! I'm well, thanks. What can I help you with?"),
        ("Good morning!", "Hello! What can I help you with?"),
        ("Thanks, that was helpful", "You're welcome."),
    ],
)
async def test_a_courtesy_is_returned_in_kind_without_canned_questions(
    message: str, answer: str
) -> None:
    reply = await _reply(message)
    assert reply.text == answer and reply.questions == []


async def test_a_question_without_a_belief_is_answered_honestly_and_asks_nothing_else() -> None:
    reply = await _reply("What's the capital of Peru?")
    assert reply.text == (
        "I don't know yet: nothing I believe covers this. If you tell me, I'll remember it."
    )
    assert reply.questions == []
    assert "How is this person doing" not in reply.text

    told = await _reply("Our fiscal year ends in June.")
    assert told.text.startswith("Noted.") and told.questions == []


async def test_a_tool_it_cannot_call_yet_is_the_whole_answer() -> None:
    needs = (
        "I can't turn this into a call from your message alone. The connected tool for it is "
        "ledger.write_query (“Execute an INSERT, UPDATE, or DELETE query on the SQLite "
        "database”), and it needs query (SQL query to execute). Tell me, e.g. call "
        'ledger.write_query {"query": "…"}'
    )
    reply = await _reply(
        "Please record invoice INV-1042 for 1200 EUR from Acme in the ledger",
        beliefs=[_belief("At every period end, invoices are recorded in the right period.")],
        tool_request=needs,
    )
    assert reply.text == needs and reply.questions == []
    assert "I don't hold a belief" not in reply.text


async def test_revision_refusal_approval_execution_and_guidance() -> None:
    revised = "Revenue is recognised over time (Revised from the earlier belief: X.)"
    reply = await _reply(
        revision=revised,
        beliefs=[_belief(revised)],
        execution="Done: reconciled Chase",
    )
    assert reply.text.startswith(f"I have revised my belief: {revised} I'm confident that revenue")
    assert "Done: reconciled Chase." in reply.text

    refused = await _reply(refusal="It would backdate an invoice.", beliefs=[_belief()])
    assert refused.text == (
        "I can't do that: it would backdate an invoice. What I hold here is that revenue is "
        "recognised when the performance obligation is satisfied."
    )
    assert refused.questions == []

    asked = await _reply(
        mode="proposal", approval_question="May I post the accrual?", beliefs=[_belief()]
    )
    assert asked.text.endswith("satisfied. May I post the accrual?")
    assert asked.questions == ["May I post the accrual?"]

    guidance = await _reply("Please post the accrual", mode="guidance")
    assert (
        guidance.text
        == "I'm not sure enough to act on this alone. How would you like me to proceed?"
    )
    assert guidance.questions == ["How would you like me to proceed?"]


_WORDS = st.sampled_from(
    ["revenue", "Invoices", "the", "controller", "ASC", "606", "approves", "at", "month", "end"]
)


@settings(max_examples=60, deadline=None)
@given(
    words=st.lists(_WORDS, min_size=2, max_size=8),
    stop=st.sampled_from(["", ".", ". ", ".."]),
    strength=st.floats(min_value=0.0, max_value=1.0),
    band=st.sampled_from(["low", "medium", "high"]),
)
async def test_no_answer_has_a_double_full_stop_whatever_the_statement(
    words: list[str], stop: str, strength: float, band: str
) -> None:
    statement = " ".join(words).capitalize() + stop
    belief = _belief(statement, strength=strength, tension=0.3)
    reply = await _reply(band=band, beliefs=[belief], tensions=[belief])

    assert ".." not in reply.text and ". ." not in reply.text, reply.text
    assert reply.text.rstrip()[-1] in ".?!", reply.text
